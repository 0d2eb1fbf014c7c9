/**
 * A hero's subheadline that says its headline again in the listing's sentence form (seventh read,
 * D): "MoneyJar: Save for What Matters // MoneyJar helps you save for…" names the app under a
 * headline that has just named it, and "Learn, play and analyse chess // Play chess against…" opens
 * on nothing but the headline's words. English only: both read the sentence's English frame.
 */
import { substance } from '../checker/complete.ts';
import { capitalise, SPACES, words } from '../text.ts';

/** Words that end a line's opening phrase, its verb and object: what follows says how, where or which. */
const PHRASE_ENDS =
  /^(against|with|for|in|on|at|to|from|by|into|onto|that|which|who|whom|where|when|while|and|or|but|so|because|without|across|through|over|under|about|like|as|via|before|after|until|than)$/;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * "MoneyJar helps you save for the things you care about" → "Save for the things you care about":
 * the line without the app's name and the frame that makes it the subject, or null when the line
 * does not open so.
 */
export function withoutNameLead(text: string, shortName: string): string | null {
  if (!shortName.trim()) return null;
  const lead = new RegExp(
    `^(?:the\\s+)?${escape(shortName.trim())}(?:\\s+app)?\\s+(?:helps|lets|allows|enables|empowers)\\s+(?:you|users|people)\\s+(?:to\\s+)?(\\S.*)$`,
    'iu',
  );
  const rest = lead.exec(text.trim())?.[1];
  return rest ? capitalise(rest) : null;
}

/**
 * Whether the opening phrase of `sub` (its words up to the first preposition, conjunction or
 * relative word) says only words of `headline`, by stem, the app's name and category aside (`exclude`):
 * "Play chess | against a strong engine" under "Learn, play and analyse chess".
 */
export function opensOnHeadline(headline: string, sub: string, language: string, exclude: Set<string>): boolean {
  if (language !== 'en') return false;
  // Whole tokens: "turn-by-turn" is one word here, its "by" no preposition.
  const tokens = sub.trim().split(SPACES);
  const end = tokens.findIndex((t, i) => i > 0 && PHRASE_ENDS.test(words(t).join(' ')));
  const opening = substance(tokens.slice(0, end < 0 ? tokens.length : end).join(' '), language, exclude);
  if (opening.size === 0) return false;
  const head = substance(headline, language, exclude);
  return [...opening].every((w) => head.has(w));
}
