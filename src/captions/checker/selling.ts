/**
 * Lines of a listing that are not selling points: a heading ("CORE FEATURES"), a greeting ("Merry
 * Christmas"), a note, a disclaimer, a promo code, "unofficial app". A caption says what the app does
 * for its user; these say something else, so neither writer ships them. The listing reader asks the
 * same predicate, so the rule writer never takes such a line as a phrase.
 */
import { contentWords } from '../text.ts';

const HEADING =
  /^(?:(?:the|our|all|core|key|main|top|great|amazing|awesome|cool|basic|advanced|special|premium|pro|other|more|new|app|game|additional|latest|exclusive|best)\s+)*(?:features?|highlights|functions?|functionality|what'?s new|overview|information|info|details|contact(?: information| us| info)?|about(?: us| the app)?|faq|notes?|support|settings|description|introduction|summary|benefits|updates?|changelog|requirements|permissions|specifications|specs|tips|instructions|help)$/i;
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
    /\b(merry christmas|happy (?:new year|holidays|easter|halloween|thanksgiving|holiday season)|season'?s greetings|hello there|hi there|thank you|thanks for|welcome to|welcome back)\b/i,
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
  if (HEADING.test(t)) return 'a heading';
  return KINDS.find(([, re]) => re.test(t))?.[0] ?? null;
}

/**
 * "With Forkful.", "Social Networking.": a line whose every content word is the app's name or its
 * category (`names`). Under a headline it pads the slide: the store's page says both already.
 */
export function namesOnly(text: string, language: string, names: Set<string>): boolean {
  const own = contentWords(text, language);
  return own.length > 0 && own.every((w) => names.has(w));
}
