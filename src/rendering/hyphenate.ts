/**
 * Hyphenation of German and Dutch compounds ("Datenschutz-/einstellungen"), from the TeX
 * hyph-utf8 patterns (Liang's algorithm) as the `hyphen` package ships them: offline, no
 * dictionary download, ISC-licensed code with the patterns' own free licences (docs/typography.md).
 * Patterns load on the first word of their language (~100 ms each), so a thread that draws no
 * German or Dutch never pays for them.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

type Hyphenator = { hyphenateSync(text: string, options?: { hyphenChar?: string; minWordLength?: number }): string };

/** The languages with patterns here, by BCP 47 primary subtag, and each one's pattern module. */
const PATTERNS: Record<string, string> = { de: 'hyphen/de/index.js', nl: 'hyphen/nl/index.js' };

const loaded = new Map<string, Hyphenator>();

/** The BCP 47 primary subtag ("de" of "de-AT"), lower-cased; '' for none. */
export const primaryOf = (lang: string | undefined): string => (lang ?? '').split(/[-_]/)[0].toLowerCase();

/** Whether words of `lang` may be hyphenated here. */
export const hyphenates = (lang: string | undefined): boolean => primaryOf(lang) in PATTERNS;

/**
 * Fewest letters either side of a hyphen: "Da-tenschutz" reads badly at headline size, so three
 * (the patterns alone allow two).
 */
const MIN_PART = 3;

const SOFT = '\u00AD';

/**
 * `word` cut at its hyphenation points, each part but the last to be drawn with a hyphen when the
 * line breaks after it; the word whole when it has none or `lang` has no patterns. Joined, the
 * parts are the word exactly (trailing spaces stay with the last part).
 */
export function syllables(word: string, lang: string | undefined): string[] {
  const key = primaryOf(lang);
  const module = PATTERNS[key];
  if (!module) return [word];
  let h = loaded.get(key);
  if (!h) loaded.set(key, (h = require(module) as Hyphenator));
  const marked = h.hyphenateSync(word, { hyphenChar: SOFT, minWordLength: 2 * MIN_PART });
  const raw = marked.split(SOFT);
  const parts: string[] = [];
  for (const part of raw) {
    const prev = parts.at(-1);
    // Too short a part joins its neighbour: count letters only, not punctuation or spaces.
    if (prev !== undefined && (letters(prev) < MIN_PART || letters(part) < MIN_PART)) parts[parts.length - 1] = prev + part;
    else parts.push(part);
  }
  // A short last part (merged above only when it was short itself) may leave a short one before it.
  while (parts.length > 1 && letters(parts[parts.length - 1]) < MIN_PART) parts.splice(-2, 2, parts.at(-2)! + parts.at(-1)!);
  return parts;
}

const letters = (s: string): number => [...s.matchAll(/\p{L}/gu)].length;
