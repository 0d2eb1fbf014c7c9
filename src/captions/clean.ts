/**
 * Cleaning a listing's text before any phrase is taken from it: markup, invisible characters and
 * shouting go, symbols that mean something (® ™) stay, and lines that are not about the app's
 * features (other apps, review requests, upsells, release notes, keyword tags, contact lines) are
 * recognised so that they never become captions.
 */

import { nlp } from './nlp.ts';
import { SPACES } from './text.ts';

const INVISIBLE = /[\u200B-\u200D\u2060\uFEFF\u00AD]/g;
// Elements whose content is code, not words, go with what they hold (an unclosed one to the end
// of its line), and so do comments; a tag's quoted attributes may hold a ">".
const HIDDEN =
  /<(script|style|noscript|template|iframe|object|svg)\b(?:[^>"']|"[^"]*"|'[^']*')*>[\s\S]*?(?:<\/\1\s*>|(?=\n)|$)|<!--[\s\S]*?(?:-->|$)/gi;
/**
 * THE markup pattern: tags, Markdown emphasis and HTML entities. The cleaner takes it out of a
 * listing; the checker finds it in a caption (policy.hidden).
 */
const MARKUP =
  /<\/?[a-z](?:[^>"']|"[^"]*"|'[^']*')*>|\*\*|__|(?<![\p{L}\p{N}])[*_](?=\p{L})|(?<=\p{L})[*_](?![\p{L}\p{N}])|&(?:[a-z]+|#\d+);/giu;

/** Whether a caption holds markup (a global pattern's replace leaves no state behind, unlike test). */
export const hasMarkup = (text: string): boolean => text.replace(MARKUP, '') !== text;

/** Markup and invisible characters out, whitespace tidied; ® ™ © and the words untouched. */
export function cleanText(text: string): string {
  return (
    text
      .replace(INVISIBLE, '')
      .replace(HIDDEN, '')
      .replace(/&(nbsp|amp);/g, (_, e: string) => (e === 'amp' ? '&' : ' '))
      .replace(MARKUP, '')
      .replace(/[ \t\u00A0]+/g, ' ')
      .replace(/ *\n */g, '\n')
      // "… sections *****": a banner's or footnote's run of stars ends no sentence (second recordings read, G).
      .replace(/(?<=\S) +\*+(?=\n|$)/g, '')
      .trim()
  );
}

/** A line in capitals is the listing shouting; it is read in sentence case. Short acronyms stay. */
export function unshoutLine(line: string, acronyms: Set<string>): string {
  const letters = line.match(/\p{L}/gu) ?? [];
  const upper = letters.filter((c) => c !== c.toLowerCase()).length;
  if (letters.length < 6 || upper / letters.length < 0.8) return unshoutLabel(line, acronyms);
  const lowered = line.replace(/\p{L}[\p{L}'’-]*/gu, (w) => (acronyms.has(w) ? w : w.toLowerCase()));
  return lowered
    .replace(PROPER, (w: string) => PROPER_FORMS[w.toLowerCase()] ?? w)
    .replace(/^(\P{L}*)(\p{L})/u, (_, pre: string, c: string) => pre + c.toUpperCase())
    .replace(/([.!?]\s+)(\p{Ll})/gu, (_, p: string, c: string) => p + c.toUpperCase());
}

/** A line's opening run of words in capitals: "SMART GROUPING. Group your…", "AUTO SYNC in background: …". */
const LABEL = /^(\P{L}*)((?:\p{Lu}[\p{Lu}'’-]*\s+)+\p{Lu}[\p{Lu}'’-]*)(?![\p{L}\p{N}])/u;

/**
 * A bullet that opens with a label in capitals and goes on in sentence case: the label is shouted
 * too, and a voice that cases its own lines read it as a name ("AUTOMATIC SYNCHRONIZATION" in title
 * case, recordings re-read, V). Two words of four letters or more: "GPS TRACKING" keeps its acronym.
 */
function unshoutLabel(line: string, acronyms: Set<string>): string {
  const m = LABEL.exec(line);
  if (!m || m[2].split(/\s+/).filter((w) => w.length >= 4 && !acronyms.has(w)).length < 2) return line;
  const label = m[2].replace(/\p{L}[\p{L}'’-]*/gu, (w) => (acronyms.has(w) ? w : w.toLowerCase()));
  const cased = label.replace(PROPER, (w: string) => PROPER_FORMS[w.toLowerCase()] ?? w).replace(/^\p{L}/u, (c) => c.toUpperCase());
  return m[1] + cased + line.slice(m[0].length);
}

/** Names a shouting line lowers that a shopper reads as wrong in lower case ("On the app store": sixth tuned read). */
const PROPER_FORMS: Record<string, string> = Object.fromEntries(
  ['App Store', 'Google Play', 'Apple Watch', 'iPhone', 'iPad', 'iCloud', 'Android'].map((n) => [n.toLowerCase(), n]),
);
const PROPER = new RegExp(`(?<![\\p{L}])(?:${Object.keys(PROPER_FORMS).join('|')})(?![\\p{L}])`, 'gu');

/** Headings that open a section whose lines are not the app's features. */
export const NON_FEATURE_SECTION =
  /^(what'?s new|new in (this )?version|release notes|changelog|more apps|other apps|also (from|by)|from (the makers|our studio|the same)|our other|follow us|contact|about us|support|subscription|pricing|terms|privacy|legal|tags|keywords)\b/i;

/**
 * "Enjoying TaskForge?", "Love Cartwheel Deals?", "Like the app?": a question about liking the app
 * opens a review request, its ask in the next sentence. Without the app's name here, a name is
 * read as words in capitals; "Love cooking?" asks about something else and may be a hook, as the
 * checker says too (checker/text-findings.ts, asksAboutTheApp). Not case-blind for that reason:
 * "Love Cooking?" in title case is taken for a name. The question ends the match, so no word
 * boundary may follow it.
 */
const LIKES_THE_APP =
  /(?:^|[^\p{L}])(?:[Ll]ov(?:e|ing)|[Ee]njoy(?:ing)?|[Ll]ik(?:e|ing)) (?:it|the app|this app|\p{Lu}[\p{L}\p{N}'’®-]*(?: \p{Lu}[\p{L}\p{N}'’®-]*)*)\s*\?/u;

/**
 * Lines that are not features, each kind named for the planner's notes: the developer's other
 * apps, review requests, upsells, social links, keyword stuffing, store boilerplate.
 */
const NOT_A_FEATURE: [string, RegExp][] = [
  ['other apps', /\b(also from|also by|our other apps?|more apps|from our studio|from the makers of|check out our)|,\s*included\.?$/i],
  ['review request', /\b(review|rate us|rating|5 stars|five stars|appreciate|feedback|if you (like|enjoy))\b/i],
  ['review request', LIKES_THE_APP],
  // "No subscription" sells the app, and a game's "cars to unlock" is play, not a sale.
  [
    'upsell',
    /\b(upgrade (to|for)|unlock (\S+ ){0,2}(all|every|everything|full|more features|premium|pro|plus)\b|premium|pro version|plus to|(?<!\b(no|without|zero|free of) )in-app purchases?|purchased?|subscribe|(?<!\b(no|without|zero|free of) )subscriptions?|free trial|try \S+ free|cancel anytime|one-time purchase)\b/i,
  ],
  ['call to action', /\b(download (it )?(now|today)|get it (now|today)|install (it )?now|start playing now|what are you waiting for)\b/i],
  ['social', /\b(follow us|facebook|instagram|twitter|discord|tiktok|youtube|join our community)\b/i],
  ['tags', /^(keywords?|tags?|search terms)\s*:/i],
  [
    'boilerplate',
    /https?:|www\.|\S+@\S+|\b[\w-]+\.(com|net|org|io|app|co|example)\b|©|\b(privacy|terms of (use|service)|eula|auto-?renew\w*|itunes|payment|billing|charged|refund|permissions?|questions\?|contact us|email us|bug fixes|performance improvements)\b/i,
  ],
];

export function notAFeature(line: string): string | null {
  // A comma list of bare words is a keyword tag line, whatever its label.
  const parts = line
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length >= 5 && parts.filter((p) => p.split(SPACES).length <= 2).length >= parts.length - 1) return 'tags';
  return NOT_A_FEATURE.find(([, re]) => re.test(line))?.[0] ?? null;
}

/**
 * Words of a complaint or pain point: fine on a problem slide, never elsewhere. One list for the
 * writer (which routes such lines to problem slides) and the copywriter's tone check.
 */
export const NEGATIVE_WORDS =
  /\b(tired of|sick of|fed up|hate|hates|ugh|struggl\w*|frustrat\w*|annoy\w*|hassle|headache|can't|cannot|never again|no more|don't let|worr(y|ied|ies)|overwhelm\w*|stress(ed|ful)?|guilty|lying awake|racing thoughts|hard way|waste\w*|boring|sans stress|te cuesta)\b/i;
/** A complaint, or a question (a pain question in the listing is a problem line). */
export const NEGATIVE = new RegExp(`${NEGATIVE_WORDS.source}|\\?\\s*$|^¿`, 'i');

/**
 * A sentence whose words were lost in editing ("… pointing your camera 94 languages."): a noun
 * straight before a number and another noun. Such a sentence is not quoted anywhere.
 */
export function looksBroken(sentence: string): boolean {
  if (/\(\s*\)|,\s*[,.]/.test(sentence)) return true;
  if (!/\d/.test(sentence)) return false;
  const terms = (nlp(sentence).json() as { terms: { text: string; tags: string[] }[] }[]).flatMap((s) => s.terms);
  return terms.some((t, i) => {
    const [a, b] = [terms[i + 1], terms[i + 2]];
    const noun = (x: { tags: string[] }) => x.tags.includes('Noun') && !x.tags.includes('Value') && !x.tags.includes('Pronoun');
    return (
      a !== undefined &&
      b !== undefined &&
      noun(t) &&
      !t.tags.includes('Possessive') &&
      a.tags.includes('Value') &&
      noun(b) &&
      /s$/i.test(b.text) &&
      !/^(chapter|level|step|page|version|ios|android|top)$/i.test(t.text)
    );
  });
}
