/** Word-level text helpers shared by the planner, its caption checks and the LLM path. */
import { nlp } from './nlp.ts';
import { dan, deu, eng, fin, fra, ita, nld, nob, pol, por, rus, spa, swe, tur } from 'stopword';
import { englishTitleCase } from './title-case.ts';

export const STOPWORDS: Record<string, string[]> = {
  en: eng,
  fr: fra,
  de: deu,
  es: spa,
  it: ita,
  pt: por,
  nl: nld,
  sv: swe,
  da: dan,
  nb: nob,
  no: nob,
  fi: fin,
  pl: pol,
  tr: tur,
  ru: rus,
};

export const WORD = /[\p{L}\p{N}]+(?:['’.][\p{L}\p{N}]+)*/gu;
/** An elided article or pronoun before a French or Italian word ("l’accès", "dell’app"). */
export const ELISION = /^(l|d|qu|j|n|s|c|m|t|dell|all|un)['’]/;
/** Runs of whitespace, to split words on or squash to one space (global: for split and replace only). */
export const SPACES = /\s+/g;
/** A sentence's closing punctuation. */
export const END_PUNCT = /[.!?…]+$/u;
/** A word as cased and spelt (iCloud, it’s), for brand spellings and casing (global: for match and replace only). */
export const CASED_WORD = /[\p{L}][\p{L}\p{N}'’]*/gu;

/** Whole words, lower-cased; apostrophes and decimal points stay inside a word. */
export function words(text: string): string[] {
  return (text.match(WORD) ?? []).map((w) => w.toLowerCase());
}

/**
 * Each stop word list as a set: stopword's `removeStopwords` scans its list (hundreds of words) for
 * every word, and contentWords runs for every line the writer and the checker weigh. The same
 * test on the same lists (a word is one when its lower case is in the list).
 */
const STOP_SETS = new Map<string[], Set<string>>();
const stopSet = (list: string[]): Set<string> => {
  let set = STOP_SETS.get(list);
  if (!set) STOP_SETS.set(list, (set = new Set(list)));
  return set;
};

export function contentWords(text: string, language: string): string[] {
  const stop = stopSet(STOPWORDS[language] ?? eng);
  // French and Italian elide articles ("l’accès"); the keyword is the word after the apostrophe.
  const bare = words(text).map((w) => (language === 'en' ? w : w.replace(ELISION, '')));
  return bare.filter((w) => !stop.has(w.toLowerCase()) && w.length > 2 && !/^\d/.test(w));
}

/** Scripts written without spaces between words (and without a Latin full stop). */
export const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;

/**
 * Adverbs of manner an action may open with ("easily schedule meetings", "securely pay"): said
 * with its verb they are the action's own. Not "actually", "really": those lean on a sentence.
 */
export const MANNER =
  /^(easily|quickly|instantly|simply|securely|safely|automatically|effortlessly|seamlessly|smoothly|accurately|privately|directly)$/;

/** Quantity words a phrase's object follows: a cut after them leaves it behind ("Browse recipes from thousands"). */
export const QUANTITY_WORDS = 'thousands|hundreds|millions|dozens|lots|tons|plenty|variety|range|number|kinds|types';

export type Casing = 'title' | 'sentence' | 'upper';

/** English function words a sentence-case line keeps in lower case inside it. */
const FUNCTION_WORDS = /^(?:the|of|for|and|in|on|at|to|with|a|an|or|by|from)$/i;

export function applyCase(text: string, casing: Casing, language: string, proper: Set<string>): string {
  if (casing === 'upper') return text.toLocaleUpperCase(language);
  // Title case is English typography. Spanish, Portuguese, French, Italian and Dutch headlines are
  // set in sentence case ("Medita y duerme mejor", "Suivez vos habitudes", not "Medita y Duerme
  // Mejor"), and German capitalises its nouns, not its prepositions ("Bis"): every other language
  // takes its sentence case from the title voice (issue 33, held-out read).
  if (casing === 'title' && language === 'en') return englishTitleCase(text);
  // German capitalises every noun: its sentence case is the text as written ("4,6 von 5 Sternen").
  if (language === 'de') return capitalise(text);
  let first = true;
  // A sentence opens after ".", "!" or "?", and after a step's number ("Step 2: Send the report").
  const lowered = text.replace(/[\p{L}][\p{L}'’]*|[.!?]\s|\d:\s/gu, (w) => {
    if (/^[.!?\d]/u.test(w)) {
      first = true;
      return w;
    }
    // A function word inside the line is lowered even where the listing capitalises it ("Mac App of
    // The Year" in a sentence-case voice: second recordings read, pattern 8, V): a name's "The" is
    // rarer than a title-cased heading's.
    const keep = first || !/^\p{Lu}\p{Ll}+$/u.test(w) || (proper.has(w.toLowerCase()) && !(language === 'en' && FUNCTION_WORDS.test(w)));
    first = false;
    return keep ? w : w.toLocaleLowerCase(language);
  });
  return capitalise(lowered);
}

export function capitalise(text: string): string {
  return text.replace(/^\s*\p{Ll}/u, (c) => c.toLocaleUpperCase());
}

/**
 * THE text normaliser: whitespace collapsed and end punctuation off. `fold`: Unicode compatibility
 * forms folded (a full-width "，" is a comma). `label`: a leading "Label: " off too ("Smart lists:
 * …" says what "…" says). `key`: for comparing, folded, lower case, and only letters and digits
 * kept, one space apart ("Plan trips!" = "plan trips"). `number`: a number's key ("2,000+" = "2000",
 * "4.0" = "4").
 */
export function normalise(text: string, o: { fold?: boolean; key?: boolean; label?: boolean; number?: boolean } = {}): string {
  if (o.number)
    return text
      .trim()
      .toLowerCase()
      .replace(/[\s,+]|\.0$/g, '');
  let out = (o.fold || o.key ? text.normalize('NFKC') : text).replace(SPACES, ' ').replace(END_PUNCT, '').trim();
  if (o.label) out = out.replace(/^[^:]{1,40}:\s+/, '');
  return o.key
    ? out
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
        .trim()
    : out;
}

/**
 * Keys already made: the writer and the checker key the same listing lines and candidates over and
 * over (a plan keyed some lines thousands of times; NFKC folding made it a seventh of a plan's CPU).
 * Emptied when full so a long-running service keeps no more than this many.
 */
const KEYS = new Map<string, string>();
const MAX_KEYS = 50_000;

/** Two texts say the same words when their keys are equal. */
export function textKey(text: string): string {
  let key = KEYS.get(text);
  if (key === undefined) {
    if (KEYS.size >= MAX_KEYS) KEYS.clear();
    key = normalise(text, { key: true });
    KEYS.set(text, key);
  }
  return key;
}

export const mentionsFree = (s: string): boolean =>
  /(^|[^\p{L}])(free|gratis|gratuit|gratuite|kostenlos|gratuito|gratuita)(?![\p{L}])/iu.test(s);

// Participles that are not the simple past ("write" → "written", not "wrote").
const IRREGULAR_PARTICIPLES: Record<string, string> = {
  write: 'written',
  take: 'taken',
  draw: 'drawn',
  speak: 'spoken',
  see: 'seen',
  get: 'got',
  break: 'broken',
  choose: 'chosen',
  forget: 'forgotten',
  give: 'given',
  grow: 'grown',
  hide: 'hidden',
  know: 'known',
  ride: 'ridden',
  shake: 'shaken',
  throw: 'thrown',
  wear: 'worn',
  drive: 'driven',
  fly: 'flown',
  sing: 'sung',
  swim: 'swum',
  begin: 'begun',
  eat: 'eaten',
  do: 'done',
  go: 'gone',
  show: 'shown',
};
const PARTICIPLE_WORDS = new Set(Object.values(IRREGULAR_PARTICIPLES));

/** "track" → "tracked", "build" → "built", "write" → "written"; null when the tagger cannot conjugate it. */
export function participleOf(verb: string): string | null {
  const v = verb.toLowerCase();
  const doc = nlp(v);
  doc.tag('Infinitive');
  const past = (doc.verbs().conjugate() as { PastTense?: string }[])[0]?.PastTense;
  const out = IRREGULAR_PARTICIPLES[v] ?? past;
  return out && out !== v ? out : null;
}

/** A word that reads as a participle on its own ("Tracked.", "Built."), as the bold voice ends a headline. */
export function looksParticiple(word: string): boolean {
  const w = word.toLowerCase();
  return (
    /^\p{L}{3,}ed$/u.test(w) ||
    PARTICIPLE_WORDS.has(w) ||
    /^(built|kept|set|sent|spent|made|found|held|left|lost|paid|read|sold|told|won|done)$/.test(w)
  );
}

/** The verbs a participle may come from ("saved" ← save, "scanned" ← scan, "built" ← build), for grounding checks. */
export function participleBases(word: string): string[] {
  const w = word.toLowerCase();
  const out = Object.entries(IRREGULAR_PARTICIPLES)
    .filter(([, p]) => p === w)
    .map(([v]) => v);
  if (/ied$/.test(w)) out.push(`${w.slice(0, -3)}y`);
  if (/ed$/.test(w)) out.push(w.slice(0, -1), w.slice(0, -2), w.slice(0, -3));
  if (w === 'built') out.push('build');
  return out;
}
