/** Word-level text helpers shared by the planner, its caption checks and the LLM path. */
import { nlp } from './nlp.ts';
import { dan, deu, eng, fin, fra, ita, nld, nob, pol, por, removeStopwords, rus, spa, swe, tur } from 'stopword';
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

export function contentWords(text: string, language: string): string[] {
  const list = STOPWORDS[language] ?? eng;
  // French and Italian elide articles ("l’accès"); the keyword is the word after the apostrophe.
  const bare = words(text).map((w) => (language === 'en' ? w : w.replace(ELISION, '')));
  return removeStopwords(bare, list).filter((w) => w.length > 2 && !/^\d/.test(w));
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

/** Words a caption may not end on: a cut there reads as an unfinished thought. */
const DANGLING: Record<string, string[]> = {
  en: [
    'and',
    'or',
    'with',
    'of',
    'for',
    'to',
    'the',
    'a',
    'an',
    'your',
    'our',
    'my',
    'its',
    'their',
    'his',
    'her',
    'in',
    'on',
    'at',
    'by',
    'from',
    'into',
    'as',
    'but',
    'nor',
    'plus',
    'every',
    'all',
    'any',
    'more',
    'most',
    'than',
    'that',
    'which',
    'who',
    'so',
    'is',
    'are',
    'be',
    'can',
    'will',
    'via',
    'per',
    'over',
    'about',
    'like',
    'including',
    'such',
    'both',
    'each',
    'this',
    'these',
    'those',
    'not',
    'no',
  ],
  fr: [
    'et',
    'ou',
    'avec',
    'de',
    'des',
    'du',
    'la',
    'le',
    'les',
    'l',
    'd',
    'un',
    'une',
    'pour',
    'à',
    'au',
    'aux',
    'en',
    'sur',
    'par',
    'dans',
    'votre',
    'vos',
    'ton',
    'tes',
    'son',
    'ses',
    'leur',
    'leurs',
    'que',
    'qui',
    'mais',
    'est',
    'sont',
    'ce',
    'cette',
    'ces',
    'tout',
    'tous',
    'plus',
    'sans',
    'depuis',
    'entre',
    'chez',
    'vers',
    'lors',
    'selon',
    'ne',
    'pas',
    'se',
    'sa',
    'ma',
    'mon',
    'mes',
    'nos',
    'notre',
    'afin',
    'ainsi',
    'grâce',
    'comme',
  ],
  de: [
    'und',
    'oder',
    'mit',
    'von',
    'vom',
    'für',
    'zu',
    'zum',
    'zur',
    'der',
    'die',
    'das',
    'den',
    'dem',
    'des',
    'ein',
    'eine',
    'einen',
    'einem',
    'einer',
    'eines',
    'in',
    'im',
    'auf',
    'an',
    'am',
    'ohne',
    'bei',
    'beim',
    'nach',
    'über',
    'unter',
    'durch',
    'gegen',
    'um',
    'aus',
    'ihre',
    'ihr',
    'dein',
    'deine',
    'ist',
    'sich',
  ],
  es: [
    'y',
    'o',
    'con',
    'contra',
    'sin',
    'sobre',
    'desde',
    'hasta',
    'entre',
    'hacia',
    'de',
    'del',
    'la',
    'el',
    'los',
    'las',
    'un',
    'una',
    'para',
    'por',
    'en',
    'a',
    'al',
    'tu',
    'tus',
    'mi',
    'mis',
    'su',
    'sus',
    'que',
    'es',
  ],
  it: [
    'e',
    'o',
    'con',
    'senza',
    'su',
    'sul',
    'sulla',
    'tra',
    'fra',
    'da',
    'dal',
    'di',
    'dei',
    'delle',
    'degli',
    'del',
    'della',
    'nel',
    'nella',
    'il',
    'la',
    'lo',
    'le',
    'gli',
    'un',
    'una',
    'per',
    'in',
    'a',
    'al',
    'tuo',
    'tua',
    'che',
    'è',
  ],
  pt: [
    'e',
    'ou',
    'com',
    'sem',
    'sobre',
    'desde',
    'até',
    'pelo',
    'pela',
    'ao',
    'aos',
    'de',
    'do',
    'da',
    'dos',
    'das',
    'o',
    'a',
    'os',
    'as',
    'um',
    'uma',
    'para',
    'por',
    'em',
    'no',
    'na',
    'nos',
    'nas',
    'seu',
    'sua',
    'que',
    'é',
  ],
};

// Words a line may open with and still stand alone ("With a single tap", "Contra la ansiedad", "Sur tous vos
// appareils"). Not English "to" or "as": "To every document on the road" and "As presets and apply them…" only
// finish the line before them.
const STANDALONE_OPENERS: Record<string, string[]> = {
  en: [
    'with',
    'in',
    'on',
    'for',
    'across',
    'against',
    'among',
    'without',
    'from',
    'anywhere',
    'everywhere',
    'right',
    'straight',
    'at',
    'through',
    'over',
    'around',
    'under',
    'when',
    'while',
  ],
  fr: ['pour', 'sur', 'avec', 'sans', 'par', 'dans', 'en', 'grâce', 'depuis', 'partout', 'chez'],
  de: ['für', 'mit', 'ohne', 'in', 'im', 'auf', 'bei', 'überall', 'jederzeit', 'gegen', 'durch'],
  es: ['con', 'contra', 'para', 'sin', 'en', 'desde', 'sobre', 'por'],
  it: ['con', 'per', 'senza', 'su', 'in', 'ovunque'],
  pt: ['para', 'com', 'sem', 'em', 'por', 'contra'],
};

/** Whether a line opens with a word that lets it stand alone, a preposition mostly. */
export function opensStandalone(text: string, language: string): boolean {
  const first =
    text
      .trim()
      .split(SPACES)[0]
      ?.toLowerCase()
      .replace(/[^\p{L}]/gu, '') ?? '';
  return (STANDALONE_OPENERS[language] ?? []).includes(first);
}

// A cut before these splits a noun from its complement ("Une liste | de courses"): never cut there.
const COMPLEMENT_WORDS = new Set([
  'de',
  'des',
  'du',
  'd',
  'di',
  'del',
  'della',
  'dei',
  'delle',
  'degli',
  'do',
  'da',
  'dos',
  'das',
  'von',
  'vom',
  'der',
]);

/** English end words that may close a phrase as a particle or pronoun ("built in", "log on", "try them all"): the tagger judges those. */
const PARTICLES = new Set(['about', 'all', 'any', 'both', 'in', 'like', 'more', 'most', 'on', 'over']);
const endWordSets = new Map<string, Set<string>>();

/**
 * THE list of words a caption may not end on, for a language. `withEnglish`: English's too, for
 * writers cutting a listing that mixes English into its own language. `particles: false`: without
 * the English words that can close a phrase ("support built in"), for text a tagger judges after.
 */
export function endWords(language: string, o: { withEnglish?: boolean; particles?: boolean } = {}): Set<string> {
  const key = `${language}\0${o.withEnglish ? 1 : 0}\0${o.particles === false ? 0 : 1}`;
  let set = endWordSets.get(key);
  if (!set) {
    const all = [...(DANGLING[language] ?? []), ...(o.withEnglish ? DANGLING.en : [])];
    set = new Set(o.particles === false ? all.filter((w) => !PARTICLES.has(w)) : all);
    endWordSets.set(key, set);
  }
  return set;
}

/** The last word of a text, lower-cased, is one `words` says a caption may not end on. */
export const endsOnEndWord = (text: string, ends: Set<string>): boolean => ends.has(words(text).pop() ?? '');

const TRAILING_JUNK = /[\s,;:&+\-–—/|([{"'“‘«·•]+$/u;
const LEADING_JUNK = /^[\s,;:&+\-–—/|)\]}"'”’»·•*✓✔★☆►▶→]+/u;

/**
 * "the people you travel with", "everything you care about": a preposition left at the end of a
 * relative clause belongs there, and cutting it would break the phrase.
 */
export function strandedPreposition(text: string): boolean {
  return /\b(you|we|they|i|anyone|everyone|people|friends|family)\s+(?:[\p{L}'’]+\s+){0,2}?[\p{L}'’]+\s+(with|to|for|about|from|on|in|of|at)[.!?]*$/iu.test(
    text.trim(),
  );
}

/** Trims punctuation and dangling words off the end; returns '' when nothing sensible is left. */
export function tidyEnd(text: string, dangling: Set<string>): string {
  let out = text
    .replace(/[()[\]{}"“”«»]/g, '')
    .replace(SPACES, ' ')
    .replace(LEADING_JUNK, '')
    .trim();
  for (;;) {
    const before = out;
    out = out.replace(END_PUNCT, '').replace(TRAILING_JUNK, '').trim();
    const last = out.match(/[\p{L}\p{N}'’]+$/u)?.[0];
    // "Le mode pas à pas": a word said again after one between closes an idiom, not a dangling word.
    const idiom = last && words(out).at(-3) === last.toLowerCase();
    if (last && dangling.has(last.toLowerCase()) && !idiom) out = out.slice(0, -last.length);
    if (/[\p{L}]['’]$/u.test(out)) out = out.replace(/\s*\S*['’]$/u, '');
    if (out === before) return out.trim();
  }
}

/** True when `text` ends on a word a caption must not end on (or on a comma, "&" and the like). */
export function dangles(text: string, dangling: Set<string>): boolean {
  const t = text.replace(END_PUNCT, '').trimEnd();
  if (strandedPreposition(t)) return false;
  if (t === '' || TRAILING_JUNK.test(t)) return true;
  const last = t.match(/[\p{L}\p{N}'’]+$/u)?.[0];
  // "Le mode pas à pas": the idiom closes on its word (as `tidyEnd` keeps it).
  return last !== undefined && dangling.has(last.toLowerCase()) && words(t).at(-3) !== last.toLowerCase();
}

/** The longest prefix of whole words (at least `minWords`) whose rendering fits `max` characters. */
export function fitWords(
  text: string,
  max: number,
  dangling: Set<string>,
  render: (s: string) => string = (s) => s,
  minWords = 1,
): string | null {
  const tokens = text.split(SPACES).filter(Boolean);
  // Rendering adds at most a few characters, so longer prefixes cannot fit: skip them untried.
  let k0 = tokens.length;
  for (let len = text.length; k0 > 1 && len > max + 8; k0--) len -= tokens[k0 - 1].length + 1;
  for (let k = k0; k >= minWords; k--) {
    const part = tidyEnd(tokens.slice(0, k).join(' '), dangling);
    if (part.split(SPACES).filter(Boolean).length < Math.min(minWords, k)) continue;
    if (!part) continue;
    const out = render(part);
    if (out.length <= max && !dangles(out, dangling)) return out;
  }
  return null;
}

export type Casing = 'title' | 'sentence' | 'upper';

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
  const lowered = text.replace(/[\p{L}][\p{L}'’]*|[.!?]\s/gu, (w) => {
    if (/^[.!?]/u.test(w)) {
      first = true;
      return w;
    }
    const keep = first || !/^\p{Lu}\p{Ll}+$/u.test(w) || proper.has(w.toLowerCase());
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

/** Two texts say the same words when their keys are equal. */
export const textKey = (text: string): string => normalise(text, { key: true });

export const mentionsFree = (s: string): boolean =>
  /(^|[^\p{L}])(free|gratis|gratuit|gratuite|kostenlos|gratuito|gratuita)(?![\p{L}])/iu.test(s);

/** Without a tagger for the language: cut at punctuation, or just before a preposition or conjunction. */
export function functionWordCuts(text: string, dangling: Set<string>): number[] {
  const tokens = text.split(' ');
  const bare = (k: number) => tokens[k]?.toLowerCase().replace(/[^\p{L}'’]/gu, '');
  return tokens.flatMap((w, i) => {
    const next = bare(i + 1);
    // "pas à pas", "paso a paso": the idiom closes on its word, and nothing cuts inside it.
    const idiom = (k: number) => k >= 2 && bare(k) === bare(k - 2);
    const here = idiom(i) ? '' : bare(i);
    const inIdiom = idiom(i + 2);
    return /[,;:、，]$/.test(w) || (next && !inIdiom && dangling.has(next) && !dangling.has(here) && !COMPLEMENT_WORDS.has(next))
      ? [i + 1]
      : [];
  });
}

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
