/**
 * The playful voice's marks and frames where the phrase's shape does not take them (second
 * recordings read, pattern 3: playful shipped 11 of 37, G 8): "and counting" after a rating, a
 * problem slide's "?" on a pain said as gone, a "!" on a label-like noun phrase, and a trailing run
 * of "*" left from a listing's banner. Both writers meet these: the checker finds them (`frame`,
 * `style`), the rule writer does not write them (rules/writer-base.ts `fill`, rules/writer.ts).
 */
import { taggedSentences } from '../nlp.ts';

/** "4.8 stars and counting": a rating does not count up; "and counting" fits a count that grows. */
export function countingRating(text: string): string | null {
  return /\d(?:[.,]\d+)?\s*(?:stars?|★)[^\p{L}]*(?:\p{L}+\s+){0,2}and counting\b/iu.test(text)
    ? 'a rating does not count up: "and counting" fits a count that grows (users, downloads, recipes)'
    : null;
}

/** "No more paper tickets", "Never again lose…": the pain said as gone, a benefit. */
export const PAIN_GONE = /^(?:[¡¿]\s*)?(?:no more|never again|goodbye to|say goodbye to|plus de|fini(?:s|es)? les?)\b/iu;

/** "No more paper tickets?": a problem slide's question on a pain said as gone asks whether it is gone. */
export function painGoneAsked(text: string): string | null {
  return PAIN_GONE.test(text.trim()) && /[?？]\s*$/u.test(text)
    ? 'asks about a pain the line says is gone: said as gone, it is a benefit for a feature slide, not a question'
    : null;
}

/**
 * A definite article, then a noun and its "de" complement: a nominalised action said as a label
 * ("La gestion des favoris", "L’envoi rapide d’un message"). Not in English, where
 * "A fresh challenge every day!" is a playful line a model writes (the replay's blockfall).
 */
const NOMINAL =
  /^(?:la|le|les|l['’]|el|los|las|il|lo|gli|o|os|as)\s*\p{L}+(?:\s+\p{L}+)?\s+(?:de|des|du|d['’]|del|della|dei|do|da|dos|das)\b/iu;
/** Head words that name a feature as a spec sheet does, not what it does for the user. */
const SPEC = /\b(?:support|integration|functionality|compatibility|capabilit(?:y|ies)|in the app|in-app)$/i;

/**
 * "Split view support in the app!", "La gestion des favoris !": an exclamation on a noun
 * phrase with no verb that reads as a label (ends on a spec-sheet word; in another language, an
 * article, a noun and its "de") shouts a heading. The line said without the mark (as the minimal voice says it), or its action, is whole.
 * English by its tagger; another language by that shape alone. Short labels ("Dice roller!",
 * "Shared grocery lists!") keep their mark: the reads shipped them.
 */
export function exclaimedLabel(text: string, language: string): string | null {
  const t = text
    .replace(/[\s\u202F\u00A0]*[!！]+\s*$/u, '')
    .replace(/^¡\s*/u, '')
    .trim();
  if (t === text.trim()) return null;
  const words = t.split(/\s+/u);
  if (words.length < 3) return null;
  const english = language === 'en';
  const label = english ? SPEC.test(t) : NOMINAL.test(t);
  if (!label) return null;
  if (english) {
    const terms = taggedSentences(t.toLowerCase()).flatMap((s) => s.terms);
    if (terms.some((x) => x.tags.includes('Verb') && !x.tags.includes('Gerund'))) return null;
  }
  return `"${t}" names a feature as a label, with no verb: an exclamation on it shouts a heading`;
}
