/** Word-level text helpers shared by the planner, its caption checks and the LLM path. */
import { dan, deu, eng, fin, fra, ita, nld, nob, pol, por, removeStopwords, rus, spa, swe, tur } from 'stopword';
import { titleCase } from 'title-case';

const STOPWORDS: Record<string, string[]> = {
  en: eng, fr: fra, de: deu, es: spa, it: ita, pt: por, nl: nld, sv: swe, da: dan, nb: nob, no: nob, fi: fin, pl: pol, tr: tur, ru: rus,
};

export const WORD = /[\p{L}\p{N}]+(?:['’.][\p{L}\p{N}]+)*/gu;

/** Whole words, lower-cased; apostrophes and decimal points stay inside a word. */
export function words(text: string): string[] {
  return (text.match(WORD) ?? []).map((w) => w.toLowerCase());
}

export function contentWords(text: string, language: string): string[] {
  const list = STOPWORDS[language] ?? eng;
  // French and Italian elide articles ("l’accès"); the keyword is the word after the apostrophe.
  const bare = words(text).map((w) => (language === 'en' ? w : w.replace(/^(l|d|qu|j|n|s|c|m|t|dell|all|un)['’]/, '')));
  return removeStopwords(bare, list).filter((w) => w.length > 2 && !/^\d/.test(w));
}

/** Words a caption may not end on: a cut there reads as an unfinished thought. */
const DANGLING: Record<string, string[]> = {
  en: ['and', 'or', 'with', 'of', 'for', 'to', 'the', 'a', 'an', 'your', 'our', 'my', 'its', 'their', 'his', 'her', 'in', 'on', 'at', 'by', 'from',
    'into', 'as', 'but', 'nor', 'plus', 'every', 'all', 'any', 'more', 'most', 'than', 'that', 'which', 'who', 'so', 'is', 'are', 'be', 'can',
    'will', 'via', 'per', 'over', 'about', 'like', 'including', 'such', 'both', 'each', 'this', 'these', 'those', 'not', 'no'],
  fr: ['et', 'ou', 'avec', 'de', 'des', 'du', 'la', 'le', 'les', 'l', 'd', 'un', 'une', 'pour', 'à', 'au', 'aux', 'en', 'sur', 'par', 'dans',
    'votre', 'vos', 'ton', 'tes', 'son', 'ses', 'leur', 'leurs', 'que', 'qui', 'mais', 'est', 'sont', 'ce', 'cette', 'ces', 'tout', 'tous', 'plus', 'sans',
    'depuis', 'entre', 'chez', 'vers', 'lors', 'selon', 'ne', 'pas', 'se', 'sa', 'ma', 'mon', 'mes', 'nos', 'notre', 'afin', 'ainsi', 'grâce', 'comme'],
  de: ['und', 'oder', 'mit', 'von', 'für', 'zu', 'der', 'die', 'das', 'den', 'dem', 'des', 'ein', 'eine', 'einen', 'in', 'im', 'auf', 'an', 'am', 'ihre', 'ihr', 'dein', 'deine', 'ist'],
  es: ['y', 'o', 'con', 'de', 'del', 'la', 'el', 'los', 'las', 'un', 'una', 'para', 'por', 'en', 'a', 'al', 'tu', 'tus', 'su', 'sus', 'que', 'es'],
  it: ['e', 'o', 'con', 'di', 'del', 'della', 'il', 'la', 'lo', 'le', 'gli', 'un', 'una', 'per', 'in', 'a', 'al', 'tuo', 'tua', 'che', 'è'],
  pt: ['e', 'ou', 'com', 'de', 'do', 'da', 'o', 'a', 'os', 'as', 'um', 'uma', 'para', 'por', 'em', 'no', 'na', 'seu', 'sua', 'que', 'é'],
};

export function danglingWords(language: string): Set<string> {
  return new Set([...(DANGLING[language] ?? []), ...DANGLING.en]);
}

const TRAILING_JUNK = /[\s,;:&+\-–—/|([{"'“‘«·•]+$/u;
const LEADING_JUNK = /^[\s,;:&+\-–—/|)\]}"'”’»·•*✓✔★☆►▶→]+/u;

/** Trims punctuation and dangling words off the end; returns '' when nothing sensible is left. */
export function tidyEnd(text: string, dangling: Set<string>): string {
  let out = text.replace(/[()[\]{}"“”«»]/g, '').replace(/\s+/g, ' ').replace(LEADING_JUNK, '').trim();
  for (;;) {
    const before = out;
    out = out.replace(/[.!?…]+$/u, '').replace(TRAILING_JUNK, '').trim();
    const last = out.match(/[\p{L}\p{N}'’]+$/u)?.[0];
    if (last && dangling.has(last.toLowerCase())) out = out.slice(0, -last.length);
    if (/[\p{L}]['’]$/u.test(out)) out = out.replace(/\s*\S*['’]$/u, '');
    if (out === before) return out.trim();
  }
}

/** True when `text` ends on a word a caption must not end on (or on a comma, "&" and the like). */
export function dangles(text: string, dangling: Set<string>): boolean {
  const t = text.replace(/[.!?…]+$/u, '').trimEnd();
  if (t === '' || TRAILING_JUNK.test(t)) return true;
  const last = t.match(/[\p{L}\p{N}'’]+$/u)?.[0];
  return last !== undefined && dangling.has(last.toLowerCase());
}

/** The longest prefix of whole words (at least `minWords`) whose rendering fits `max` characters. */
export function fitWords(text: string, max: number, dangling: Set<string>, render: (s: string) => string = (s) => s, minWords = 1): string | null {
  const tokens = text.split(/\s+/).filter(Boolean);
  // Rendering adds at most a few characters, so longer prefixes cannot fit: skip them untried.
  let k0 = tokens.length;
  for (let len = text.length; k0 > 1 && len > max + 8; k0--) len -= tokens[k0 - 1].length + 1;
  for (let k = k0; k >= minWords; k--) {
    const part = tidyEnd(tokens.slice(0, k).join(' '), dangling);
    if (part.split(/\s+/).filter(Boolean).length < Math.min(minWords, k)) continue;
    if (!part) continue;
    const out = render(part);
    if (out.length <= max && !dangles(out, dangling)) return out;
  }
  return null;
}

export type Casing = 'title' | 'sentence' | 'upper';

export function applyCase(text: string, casing: Casing, language: string, proper: Set<string>): string {
  if (casing === 'upper') return text.toLocaleUpperCase(language);
  // Other languages get their own short function words kept lower case, as title-case does for English.
  if (casing === 'title') return language === 'en' ? titleCase(text) : capitalise(titleCase(text, { locale: language, smallWords: danglingWords(language) }));
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

/** Headlines compare equal ignoring case and end punctuation. */
export const headlineKey = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

export const mentionsFree = (s: string): boolean => /(^|[^\p{L}])(free|gratis|gratuit|gratuite|kostenlos|gratuito|gratuita)(?![\p{L}])/iu.test(s);

/** FNV-1a: a stable hash so that colours and rotations do not depend on Math.random. */
export function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** Without a tagger for the language: cut at punctuation, or just before a preposition or conjunction. */
export function functionWordCuts(text: string, dangling: Set<string>): number[] {
  const tokens = text.split(' ');
  return tokens.flatMap((w, i) => {
    const next = tokens[i + 1]?.toLowerCase().replace(/[^\p{L}'’]/gu, '');
    const here = w.toLowerCase().replace(/[^\p{L}'’]/gu, '');
    return /[,;:]$/.test(w) || (next && dangling.has(next) && !dangling.has(here)) ? [i + 1] : [];
  });
}

/** Only the language's own dangling words: a translation into German may well end on "an" or "in". */
export function ownDanglingWords(language: string): Set<string> {
  return new Set(DANGLING[language] ?? []);
}
