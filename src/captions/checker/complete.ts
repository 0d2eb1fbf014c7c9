/**
 * Whether a caption reads whole, and whether two captions say the same: the sentence-level
 * predicates of the caption checker (./check.ts). The writer asks them too, but only the checker
 * decides what ships.
 */
import { taggedSentences, type TaggedTerm } from '../nlp.ts';
import type { Listing } from '../../core/listing.ts';
import { contentWords, looksParticiple, normalise, QUANTITY_WORDS, words } from '../text.ts';
import { endWords, strandedPreposition } from '../end-words.ts';

export const URLISH = /https?:|www\.|[\w-]+\.(com|net|org|io|app|co|de|fr|example)\b|\S+@\S+\.\w+|@\w{3,}/i;
// Symbols a caption should not carry: bullets, stars that are not a rating, arrows, checkmarks.
// The middle dot is a bullet only between spaces in a Latin-script caption: Korean and Japanese
// join words with it ("운동·식단", "운동 · 식단"), Catalan spells "l·l" with it.
export const STRAY = /[•‣◦▪■□●○✓✔☑►▶→➤]|^\s*[-*·]\s/u;
const BULLET_DOT = /(?:^|\s)·(?:\s|$)/u;
const WIDE_LETTERS = /[\u1100-\u11FF\u3040-\u30FF\u3130-\u318F\uAC00-\uD7AF\p{Script=Han}]/u;

/** Whether `text` holds a stray symbol (a bullet, a checkmark, an arrow; a spaced dot in Latin script). */
export function hasStraySymbol(text: string): boolean {
  if (STRAY.test(text)) return true;
  return BULLET_DOT.test(text) && !WIDE_LETTERS.test(text);
}

/**
 * English lines that close on a word which usually dangles, yet finish here: "Know where your money
 * is", "Just like that", "There's an app for that", "You decide when", "Train where and when".
 */
const CLOSED_ENDINGS = [
  /\b(what|where|who|how|whatever|wherever|whoever|however|when|everywhere|anywhere|as)\s+(?:[\p{L}'’]+\s+){1,4}(is|are|was|were)[.!?]*$/iu,
  // "Levels to work through", "Pas à pas": a particle or an idiom that closes its phrase.
  /\b(work|go|get|read|look|flip|scroll|swipe|browse|come|follow|talk|walk|play)(?:s|ing|ed)?\s+through[.!?]*$/iu,
  /\bpas [àa] pas[.!?]*$/iu,
  /\b(like|as|than|all|beyond|for|about|with|past|at|of)\s+that[.!?]*$/iu,
  /(?:\b(know|decide|choose|see|tell you|tells you|remind you|reminds you|and|pick|plan|exactly|just|where|how)\s+when|\bwhen\s+and\s+where)[.!?]*$/iu,
];
export const closedEnding = (text: string): boolean => CLOSED_ENDINGS.some((r) => r.test(text.trim()));
const ENDS_BADLY = new Set(['Preposition', 'Conjunction', 'Determiner', 'Possessive', 'Auxiliary', 'Modal', 'Copula', 'QuestionWord']);
const QUANTITY = new RegExp(`\\b(${QUANTITY_WORDS})$`, 'i');
const OPEN_INFINITIVE = /\bto (learn|discover|find|see|get|know|use|explore|make|do|try|have|keep|enjoy|start)$/i;

/** Topics (content words) this alike say the same: a slide that says another's again repeats it. */
export const REPEAT_OVERLAP = 0.8;

/** Term tags for English text, parsed in sentence case so that Title Case does not read as names. */
function tagsOf(text: string, proper: Set<string>): (readonly TaggedTerm[])[] {
  if (text === text.toUpperCase()) text = text.toLowerCase();
  const lowered = text.replace(/\p{L}[\p{L}'’-]*/gu, (w) =>
    proper.has(w.toLowerCase()) || /\p{Ll}\p{Lu}/u.test(w) || (/^\p{Lu}{2,5}$/u.test(w) && w.length <= 4) ? w : w.toLowerCase(),
  );
  return taggedSentences(lowered)
    .map((s) => s.terms.filter((t) => t.text !== ''))
    .filter((s) => s.length > 0);
}

/**
 * "Always another to try", "500 levels to play": the infinitive says what the noun before it is
 * for, and the phrase is whole. "Swipe to learn" has a verb there and leaves its object out.
 */
function objectBeforeInfinitive(t: string, proper: Set<string>): boolean {
  const before = t.replace(/\s+to\s+\S+$/iu, '');
  const terms = tagsOf(before, proper).at(-1) ?? [];
  const last = terms.at(-1);
  if (/\b(another|more|something|anything|plenty|lots|much|others)$/iu.test(before)) return true;
  return !!last && last.tags.some((g) => /Noun|Adjective|Pronoun|Value/.test(g)) && !last.tags.includes('Verb');
}

/** Why `text` is not a finished headline or subheadline, or null when it is. */
export function incompleteness(text: string, language: string, proper: Set<string> = new Set()): string | null {
  const t = normalise(text, { fold: true });
  if (!t) return 'empty';
  if (/[…]|\.\.\.$/u.test(text.trim())) return 'ends in an ellipsis';
  if ((t.match(/[([“«]/g)?.length ?? 0) !== (t.match(/[)\]”»]/g)?.length ?? 0) || (t.match(/"/g)?.length ?? 0) % 2 === 1)
    return 'unbalanced brackets or quotes';
  if (/[,;:&+/–—-]$/u.test(t)) return 'ends on punctuation';
  const last = words(t).pop() ?? '';
  // "With the people you travel with": a relative clause may end on its preposition.
  const stranded = (language === 'en' && strandedPreposition(t)) || closedEnding(t);
  if (!stranded && endWords(language, { withEnglish: true, particles: language !== 'en' }).has(last)) return `ends on "${last}"`;
  if (language !== 'en') return null;
  // "So you never miss…" continues a sentence; "So many levels!" opens its own.
  if (/^(and|or|but|because|which|that)\b|^so\s+(you|that|it|we|they|the|your|i)\b/i.test(t)) return 'starts mid-sentence';
  if (QUANTITY.test(t) && /\b(from|of|among|with|over)\s+\S+$/i.test(t)) return 'dangling object ("from thousands")';
  if (OPEN_INFINITIVE.test(t) && !objectBeforeInfinitive(t, proper)) return 'dangling object ("to learn")';
  if (/\b(the|a|an|\w+est) ways?$/i.test(t)) return 'dangling object ("the fastest way")';
  // "Pennywise turns your spending": a verb of change without what it changes into.
  // A hyphenated compound is not the verb: "Turn-by-turn navigation".
  if (/(?<![\w-])(turns?|transforms?|converts?)(?![\w-])(?!.*\b(into|to)\b)/i.test(t)) return 'dangling object ("turns your spending")';
  const sentences = tagsOf(t, proper);
  if (sentences.length === 0) return null;
  const final = sentences[sentences.length - 1];
  const end = final[final.length - 1];
  if (
    end &&
    !stranded &&
    end.tags.some((g) => ENDS_BADLY.has(g)) &&
    !/^(it|you|them|me|us|in|on|up|out|off|down|over|away|back|together|more|now|today|tonight|anywhere|everywhere|again|instantly)$/i.test(
      end.text,
    )
  )
    return `ends on "${end.text}"`;
  // Every sentence of it stands alone: "Track habits. Now." has a fragment glued on.
  for (const [k, terms] of sentences.entries()) {
    // "Unlimited habits. Tracked.": a participle may close a noun phrase as its own sentence.
    if (k > 0 && terms.length === 1 && looksParticiple(terms[0].text)) continue;
    const hasVerb = terms.some((x) => x.tags.includes('Verb'));
    const hasNoun = terms.some((x) => x.tags.some((g) => /Noun|Value|Acronym|Date/.test(g)) && !x.tags.includes('Pronoun'));
    if (!hasVerb && !hasNoun) return `"${terms.map((x) => x.text).join(' ')}" is neither a verb nor a noun phrase`;
  }
  return null;
}

/** Whether `sub` opens with the headline's own words (its framing and punctuation aside). */
export function echoes(headline: string, sub: string): boolean {
  const key = { key: true, label: true };
  const h = normalise(headline, key);
  const s = normalise(sub, key);
  const n = h.split(' ').length;
  // It opens with them ("Smart reminders / Smart reminders that…"), or says a headline of three
  // words or more again inside ("Build good habits / Streakly helps you build good habits…").
  return (n >= 2 && `${s} `.startsWith(`${h} `)) || (n >= 3 && ` ${s} `.includes(` ${h} `));
}

/** A subheadline that is a listing sentence with its end cut off. */
export function cutFromSource(sub: string, listing: Listing): boolean {
  const s = normalise(sub, { fold: true }).toLowerCase();
  if (s.split(' ').length < 4) return false;
  const source = `${listing.description}\n${listing.subtitle ?? ''}`.toLowerCase().replace(/[ \t]+/g, ' ');
  const at = source.indexOf(s);
  if (at < 0) return false;
  const rest = source.slice(at + s.length);
  return /^[ ,;:–—-]*[\p{L}\p{N}]/u.test(rest);
}

/** Content words that say something: not the app's name, its category, or stock framing words. */
export const STOCK = new Set([
  'app',
  'apps',
  'meet',
  'discover',
  'explore',
  'download',
  'today',
  'now',
  'get',
  'try',
  'closer',
  'look',
  'companion',
  'everything',
  'place',
  'one',
  'action',
  'everyday',
  'use',
  'made',
  'started',
  'start',
  'inside',
  'glance',
  'detail',
  'overview',
  'designed',
  'built',
  'thoughtfully',
  'clear',
  'focused',
  'ready',
  'simply',
  'just',
  'hello',
  'peek',
  'magic',
  'fans',
  'vibes',
  'five',
  'high',
  'shiny',
  'rated',
  'stars',
  'ratings',
  'users',
  'loved',
  'trusted',
  'average',
  'rating',
  'new',
  'your',
  'learn',
  'take',
  'see',
  'level',
  'stand',
  'move',
  'fast',
  'own',
  'pure',
  'further',
  'more',
  'every',
  'each',
  'all',
  'any',
]);

/**
 * An English word's stem, so that a word and its inflections compare equal: "export", "exports",
 * "exported" and "exporting" are one; so are "drop" / "dropped" (the doubled consonant undone),
 * "save" / "saved" / "saving" (a final e dropped) and "category" / "categories". Crude on purpose:
 * it only has to map the forms of one word together, never to read as a word.
 */
export function stem(word: string): string {
  let w = word.toLowerCase().replace(/['’]s$/u, '');
  let inflected = false;
  if (w.length > 4 && /ies$/.test(w)) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && /ied$/.test(w)) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && /(x|ch|sh|ss|z)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && /[^su]s$/.test(w)) w = w.slice(0, -1);
  else if (w.length > 5 && /ing$/.test(w)) [w, inflected] = [w.slice(0, -3), true];
  else if (w.length > 4 && /ed$/.test(w)) [w, inflected] = [w.slice(0, -2), true];
  // "dropp" of "dropped", "plann" of "planning"; "install", "press" and "buzz" keep theirs.
  if (inflected && /([bdgmnprt])\1$/.test(w)) w = w.slice(0, -1);
  return w.length > 3 ? w.replace(/e$/, '') : w;
}

export function substance(text: string, language: string, exclude: Set<string>): Set<string> {
  return new Set(
    contentWords(text, language)
      .filter((w) => !exclude.has(w) && !STOCK.has(w))
      .map((w) => (language === 'en' ? stem(w) : w)),
  );
}

/**
 * THE topic-overlap measure: whether two topics (content words, ./substance) say the same, their
 * shared words at least `share` of the smaller one, which has at least `minWords`.
 */
export function sameTopic(a: Set<string>, b: Set<string>, share = REPEAT_OVERLAP, minWords = 1): boolean {
  if (Math.min(a.size, b.size) < minWords || a.size === 0 || b.size === 0) return false;
  let n = 0;
  for (const w of a) if (b.has(w)) n++;
  return n / Math.min(a.size, b.size) >= share;
}
