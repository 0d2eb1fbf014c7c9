/**
 * Filler: a caption whose every word of its own is one any app's listing says of itself
 * ("Innovative solutions", "Full support", "Start your journey", "Streamline your workflow", "Fun
 * for all ages", "You definitely need this app"). Real listings carry such lines as headings and
 * lead-ins, and the rule writer reached for them when it dropped a broken line (recordings re-read,
 * docs/reads/2026-11-29-recordings-after.md, M 39). The rule: no generic filler; refusing a
 * slide, and saying so, is better. English only: the words are English.
 */
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
