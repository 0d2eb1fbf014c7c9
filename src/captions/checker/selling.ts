/**
 * Lines of a listing that are not selling points: a heading ("CORE FEATURES"), a greeting ("Merry
 * Christmas"), a note, a disclaimer, a promo code, "unofficial app". A caption says what the app does
 * for its user; these say something else, so neither writer ships them. The listing reader asks the
 * same predicate, so the rule writer never takes such a line as a phrase.
 */
import { contentWords } from '../text.ts';

const HEADING =
  /^(?:(?:the|our|all|core|key|main|top|great|amazing|awesome|cool|basic|advanced|special|premium|pro|other|more|new|app|game|additional|latest|exclusive|best|essential|important|useful|powerful)\s+)*(?:features?|highlights|functions?|functionality|what'?s new|overview|information|info|details|contact(?: information| us| info)?|about(?: us| the app)?|faq|notes?|support|settings|description|introduction|summary|benefits|updates?|changelog|requirements|permissions|specifications|specs|tips|instructions|help)$/i;
const ORDINAL = '(?:\\d+|[ivx]+|one|two|three|four|five|six|seven|eight|nine|ten|first|second|third|final|last)';
const KINDS: [string, RegExp][] = [
  // "Chapter 1 of the saga takes your heroes through…": an installment of the game's story is lore,
  // what happens in it, not what the app does for its user.
  [
    'story lore',
    new RegExp(
      `^(?:chapter|act)\\s+${ORDINAL}\\b|\\b(?:chapter|episode|act|book|part|volume)\\s+${ORDINAL}\\s+of\\s+(?:the|this|our|your|its)\\s+(?:saga|story|tale|epic|legend|chronicles?|campaign|adventure|quest)\\b`,
      'i',
    ),
  ],
  [
    'a greeting',
    /\b(merry christmas|happy (?:new year|holidays|easter|halloween|thanksgiving|holiday season)|season'?s greetings|hello there|hi there|thank you|thanks for|welcome to|welcome back|see you (?:soon|there|then))\b/i,
  ],
  ['a note', /^(?:note|nb|n\.b\.|p\.?s\.?|please note|important|attention|disclaimer|warning)\b/i],
  [
    'a disclaimer',
    /\b(?:unofficial|not affiliated|not endorsed|no affiliation|(?:registered )?trademarks? of|all rights reserved|for entertainment (?:purposes )?only|not (?:a )?substitute for|medical advice|consult (?:a|your) (?:doctor|physician)|no warranty|at your own risk)\b/i,
  ],
  // "It helps a small team a lot!", "Your feedback means the world to us", "Please leave a review":
  // a plea for the store's stars or the makers' support asks something of the reader and says
  // nothing the app does (seventh read, O: "Download Inkwell® Notes Today // It helps a small team
  // a lot."). Not "rating" alone: a proof line quotes the store's ratings.
  [
    'a review plea',
    /\b(?:(?:helps?|means?)\s+(?:us|(?:a|our|the)\s+(?:small|tiny|little|indie|independent)\s+(?:team|studio|devs?|developers?|business))\s+(?:a lot|so much|the world|more than you know|enormously|greatly)|means?\s+(?:a lot|so much|the world)\s+to\s+(?:us|me|our)|(?:leave|write|give)\s+(?:us\s+)?(?:a|an|your)\s+(?:(?:quick|short|honest|kind|good|5-star|five-star|positive)\s+)?(?:review|rating)|rate\s+(?:us|the app|this app)|your\s+(?:feedback|support|reviews?|ratings?)\s+(?:means?|helps?|keeps?|matters?|makes?)|(?:support|help)\s+(?:us|our\s+(?:small\s+|tiny\s+|indie\s+|independent\s+)?(?:team|studio|work|development)|(?:an?\s+|the\s+)?(?:indie|independent)\s+(?:developers?|devs?|studios?))|keeps?\s+us\s+going|spread\s+the\s+word)\b/i,
  ],
  // "This app does not represent any agency", "Continued use of GPS … can decrease battery life": the
  // store's legal and technical notes, which every real listing carries (recordings read, 2026-11-29).
  [
    'a disclaimer',
    /\b(?:does(?:n['’]t| not) represent|(?:is|are) not (?:an? )?official|not (?:associated|connected|sponsored) (?:with|by)|(?:decrease|reduce|shorten|drain)s?\b.{0,30}\bbattery\b|continued use of gps|data use policy|privacy policy|terms of (?:use|service)|legal section)\b/i,
  ],
  // "Using GPS for a long time can shorten your battery's life", "L'usage prolongé
  // du GPS peut réduire l'autonomie de votre batterie", "Nous ne sommes pas affiliés à…": the same notes
  // in the listing's own language (second recordings read, pattern 5b: the French one under a hero, O).
  [
    'a disclaimer',
    /\b(?:affect|impact|harm|hurt)s?\b.{0,30}\bbattery\b|\bbatterie\b.{0,40}\b(?:durée de vie|autonomie)\b|\b(?:nuire|réduire|diminuer)\b.{0,60}\bbatterie\b|\b(?:durée de vie|autonomie) de (?:votre|la) batterie\b|\bbatería\b.{0,40}\b(?:duración|vida útil)\b|\bakku(?:laufzeit)?\b.{0,40}\b(?:verkürz|reduzier)|\bn['’]est pas affilié|\bne sommes pas affiliés|\bno (?:está|estamos) afiliad|\bnicht (?:verbunden|verknüpft|angeschlossen) mit\b/iu,
  ],
  // "Classes start every half hour", "Open Tuesday through Sunday": when a venue's sessions run is
  // no feature of its app (second recordings read, pattern 5a: a refusal's offered hero, O).
  [
    'opening hours',
    /^(?:(?:play|jump|open|our)\s+)?sessions?\s+(?:begin|start|run|last)s?\b|\bevery (?:half|quarter)[ -]hour\b|\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\s+(?:through|thru|to|until|-|–)\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\bopening (?:hours|times)\b/i,
  ],
  // "What does Acme offer you?", "Why choose Acme?": a section heading asked as a question, not a
  // pain; as a problem slide it asks nothing the shopper feels (second recordings read, pattern 5c).
  [
    'a heading question',
    /^what (?:does|do|can|will) .{1,40} (?:offer|give|bring|do for) (?:you|me|us)\b|^why (?:choose|use|pick|download|try|get) .{1,40}\?$/iu,
  ],
  // "The Daily Ledger: "A must-have for…"": a press outlet's name before its quote, or after it.
  ['a press quote', /^[\p{L}\p{N}.&'’ -]{2,40}:\s*["“«]|["”»]\s*[-–—]\s*[\p{L}\p{N}.&'’ ]{2,40}$/u],
  // "Improved sync", "Bug fixes and performance improvements", "What's new": the release notes, not the app.
  [
    'a release note',
    /^(?:improved|fixed|what['’]?s new)\b|\bbug ?fix(?:es)?\b|\bperformance (?:improvements|enhancements)\b|^(?:new in )?(?:version|ver\.?)\s*\d/i,
  ],
  // "[:tag: 2.0]", "tag: 2.0": a template or build tag left in the description.
  ['a template tag', /\[[^\]]*\]|^[\p{L}]{1,12}:\s*v?\d+(?:\.\d+)+$/u],
  // "Open Monday through Saturday, 10 AM to midnight": when a venue opens is no feature of its app.
  [
    'opening hours',
    /^open (?:daily|every day|7 days|(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b|\b\d{1,2}(?::\d\d)? ?(?:am|pm) (?:to|[-–]) (?:\d|midnight|noon)/i,
  ],
  // "This is a beautiful app!": praise any listing could say of itself, no point of this one.
  ['self-praise', /^(?:this|it)(?: is|['’]s) (?:a|an|the|one) (?:[\p{L}-]+ ){0,3}(?:app|game|tool|application)$/iu],
  [
    'a promo code',
    /\b(?:promo(?:tion(?:al)?)? ?codes?|coupon codes?|discount codes?|voucher codes?|referral codes?|use (?:the )?code|redeem (?:the )?code)\b/i,
  ],
];

/** What kind of non-selling line `text` is ("a heading", "a greeting", "story"…), or null when it may sell. */
export function offRole(text: string): string | null {
  const t = text
    .normalize('NFKC')
    .replace(/[.!:]+$/u, '')
    .trim();
  // "Key features for travellers", "Acme: Key Features": a heading with its audience or the app's name.
  const bare = t.replace(/^[^:]{1,40}:\s*(?=\S)/u, '').replace(/\s+(?:for|of|in)\s+[\p{L}\p{N}'’ ]{1,40}$/u, '');
  if (HEADING.test(t) || (bare !== t && /^(?:\S+\s+)?(?:features?|highlights)$/i.test(bare))) return 'a heading';
  return KINDS.find(([, re]) => re.test(t))?.[0] ?? null;
}

/**
 * "Download the app.", "Come visit!": the listing's own ask, the store's button's job. On the ask's
 * slide the voice says it with the app's name; anywhere else it spends a feature's slide asking
 * (recordings read: an ask and "Come play" as feature slides, O). Only the bare ask: "Download the
 * app to earn points" goes on to say what it gives.
 */
const ASK =
  /^(?:(?:download|dowload|get|install|grab|try)\s+(?:the|our|this)\s+app(?:\s+(?:now|today|for free))?|come\s+(?:play|visit|see us|join us|on in))$/i;
export function askOf(text: string): string | null {
  // Past a voice's opener: "Go ahead, download the app!" is the same ask.
  const bare = text
    .normalize('NFKC')
    .replace(/[.!]+$/u, '')
    .trim()
    .replace(/^(?:go ahead|now you can|yes)[,!]?\s+/i, '');
  return ASK.test(bare) ? 'an ask' : null;
}

/**
 * "With Forkful.", "Social Networking.": a line whose every content word is the app's name or its
 * category (`names`). Under a headline it pads the slide: the store's page says both already.
 */
export function namesOnly(text: string, language: string, names: Set<string>): boolean {
  const own = contentWords(text, language);
  return own.length > 0 && own.every((w) => names.has(w));
}
