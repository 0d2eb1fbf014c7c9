/**
 * Filler: a caption whose every word of its own is one any app's listing says of itself
 * ("Innovative solutions", "Full support", "Start your journey", "Streamline your workflow", "Fun
 * for all ages", "You really need this app"). Real listings carry such lines as headings and
 * lead-ins, and the rule writer reached for them when it dropped a broken line (recordings re-read,
 * docs/reads/2026-11-29-recordings-after.md, M 39). The rule: no generic filler; refusing a
 * slide, and saying so, is better. English only: the words are English.
 */
import { taggedSentences } from '../nlp.ts';
import { stem } from './complete.ts';

/** Words of praise, abstraction and stock promise: they say nothing one app does that another does not. */
const FILLER = new Set(
  [
    'innovative innovation solution support full complete total ultimate journey experience workflow streamline seamless',
    'seamlessly best great amazing awesome beautiful nice perfect fun addictive enjoyable enjoy need definitely absolutely',
    'really ages everyone done productive productivity efficient efficiently easy easily simple quick quickly smart',
    'powerful better life time save handy tool gameplay way ways thing things stuff lot lots keep share',
    'detail details date update updates possibilities endless unlimited potential success successful',
  ]
    .join(' ')
    .split(' ')
    .map(stem),
);

/**
 * Whether `own` (a caption's content-word stems, its name, category, voice openers and stock words
 * aside: ./complete.ts `substance`) holds words and every one of them is filler.
 */
export function fillerOnly(own: Set<string>): boolean {
  return own.size > 0 && [...own].every((w) => FILLER.has(w));
}

/** A figure: a digit, or a count said in words ("two days", "a million recipes"). */
const FIGURE =
  /\p{N}|\b(?:two|three|four|five|six|seven|eight|nine|ten|twelve|twenty|fifty|hundreds?|thousands?|millions?|billions?|dozens?)\b/iu;

/**
 * Whether a subheadline under a filler-only headline says what the headline does not: an action with
 * its object ("We help 2 million cooks…"), a figure, or the means it takes ("With two-finger
 * gestures", "By a reminder…"). Never a "For …" phrase of audience or purpose ("For teachers and
 * pupils", "For improving the school system"): it tells who or why, not what (second recordings
 * read, pattern 2: "Creative Ideas! // For …" shipped because a sub followed it, M).
 */
export function rescuesFiller(sub: string, own: Set<string>): boolean {
  const t = sub.normalize('NFKC').trim();
  if (/^for\b/i.test(t) || own.size === 0 || fillerOnly(own)) return false;
  if (FIGURE.test(t) || /^(?:with|by|using|via|through)\s+\S/i.test(t)) return true;
  const terms = taggedSentences(t.toLowerCase()).flatMap((s) => s.terms);
  const verb = terms.findIndex(
    (x) => x.tags.includes('Verb') && !x.tags.some((g) => g === 'Auxiliary' || g === 'Copula' || g === 'Modal' || g === 'Gerund'),
  );
  return verb >= 0 && terms.slice(verb + 1).some((x) => x.tags.includes('Noun') && !x.tags.includes('Pronoun'));
}
