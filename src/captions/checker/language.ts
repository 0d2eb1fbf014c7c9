/**
 * Whether a caption is written in its locale's language. Without a language detector dependency:
 * the script for CJK and Korean, and for the languages with a stop-word list the vote of their
 * function words ("deine", "mit", "dem" make a German caption, whatever its nouns).
 */
import { nlp } from '../nlp.ts';
import { hasWideScript } from '../../core/locales.ts';
import { STOPWORDS, words } from '../text.ts';

const HANGUL = /[\u1100-\u11FF\u3130-\u318F\uAC00-\uD7AF]/u;
const KANA = /[\u3040-\u30FF]/u;
const HAN = /\p{Script=Han}/u;
// Languages whose function words overlap so much that one's caption would read as the other's.
const KIN: Record<string, string> = { nb: 'no', no: 'no', da: 'no', sv: 'no' };
const lists = new Map(Object.entries(STOPWORDS).map(([k, v]) => [k, new Set(v)]));
let english: Record<string, string | string[]> | null = null;
/**
 * An English word in the tagger's lexicon ("ten", "one", "die"), not a bare determiner: in an
 * English caption it is English, whatever list of foreign function words also holds it. "Ten dart
 * games, one app!" is not Polish for having "ten" and "one".
 */
function englishWord(w: string): boolean {
  english ??= (nlp as unknown as { model(): { one: { lexicon: Record<string, string | string[]> } } }).model().one.lexicon;
  const tag = english[w];
  return tag !== undefined && tag !== 'Determiner';
}

const names = new Intl.DisplayNames(['en'], { type: 'language' });
/** "Polish" for pl: a finding a writer (or a model's repair turn) reads in plain words. */
const nameOf = (code: string): string => {
  try {
    return names.of(code) ?? code;
  } catch {
    return code;
  }
};

/** Why `text` is not in `language`, or null when it is (or cannot be told). */
export function languageFinding(text: string, language: string): string | null {
  const letters = text.replace(/[^\p{L}]/gu, '');
  if (letters.length < 2) return null;
  if (language === 'ko') return HANGUL.test(text) ? null : 'is not written in Korean script';
  if (language === 'ja') return KANA.test(text) || HAN.test(text) ? null : 'is not written in Japanese script';
  if (language === 'zh') return HAN.test(text) && !KANA.test(text) ? null : 'is not written in Chinese characters';
  if (hasWideScript(text)) return `is written in another script than ${nameOf(language)}'s`;
  const own = lists.get(language);
  if (!own) return null;
  const ws = words(text).map((w) => w.toLowerCase());
  // Distinct words: "No timers, no pressure" is one Spanish-looking word said twice, not a Spanish caption.
  const hits = (set: Set<string>) => new Set(ws.filter((w) => set.has(w))).size;
  const mine = hits(own);
  const foreign = (set: Set<string>) => new Set(ws.filter((w) => set.has(w) && !(language === 'en' && englishWord(w)))).size;
  let best: [string, number] = ['', 0];
  for (const [lang, set] of lists) {
    if (lang === language || (KIN[lang] && KIN[lang] === KIN[language])) continue;
    const n = foreign(set);
    if (n > best[1]) best = [lang, n];
  }
  return best[1] >= 2 && best[1] > mine ? `reads as ${nameOf(best[0])}, not ${nameOf(language)}` : null;
}

/**
 * The language a set's captions are written in: the listing's when nothing says otherwise, else
 * the script's (Korean, Japanese, Chinese), else the stop-word language with the most distinct
 * function words, else English (a Latin-script caption with no function word: "Plan Every Meal").
 */
export function captionsLanguage(texts: string[], listingLanguage: string): string {
  const text = texts.join(' \n');
  if (languageFinding(text, listingLanguage) === null) return listingLanguage;
  for (const cjk of ['ko', 'ja', 'zh']) if (languageFinding(text, cjk) === null) return cjk;
  const ws = new Set(words(text).map((w) => w.toLowerCase()));
  let best: [string, number] = ['en', 0];
  for (const [lang, set] of lists) {
    const n = [...ws].filter((w) => set.has(w)).length;
    if (n > best[1]) best = [lang, n];
  }
  return best[0];
}
