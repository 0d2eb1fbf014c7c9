/**
 * Two lines that say one thing: a call to action whose subheadline is a second call to action ("Get
 * started with BusyCal." / "Start today with BusyCal."), or a call to action that says the hero's
 * promise again. The shopper reads the set once; the last slide asks, it does not repeat.
 */
import { sameTopic, substance } from './complete.ts';
import { textKey } from '../text.ts';

const ASKS = /^(?:get|start|download|try|install|join|begin|give|go on|grab|your turn)\b/i;

/** Why a call to action's `sub` echoes its `headline`, or null. */
export function secondCall(headline: string, sub: string | null): string | null {
  if (!sub || !ASKS.test(headline.trim()) || !ASKS.test(sub.trim())) return null;
  return `"${sub}" asks again what "${headline}" asks`;
}

/** Why a call to action's words (its topic) say the hero's again, or null. */
export function repeatsHero(cta: Set<string>, hero: Set<string>): string | null {
  return cta.size > 0 && sameTopic(cta, hero, 0.6) ? 'says the hero’s promise again' : null;
}

/**
 * Why `sub` says its headline again in other forms of the same words, or null: every word of a
 * headline of two words or more (an action and its object, a thing and what it is) is in its
 * subheadline, compared by stem: "REPORTS. EXPORTED." over "Export reports to CSV and PDF",
 * "Offline access" over "Access your trips offline". `exclude`: the app's name and category words and
 * the voice's own ("Go ahead,"), which say nothing. The subheadline adds to the headline, it does not say it twice.
 */
export function saysAgain(headline: string, sub: string, language: string, exclude: Set<string>): string | null {
  const head = substance(headline, language, exclude);
  const again = `"${sub}" says its headline’s words again`;
  // One word of substance: its last two words said again inside ("Go ahead, get alerts!" / "Get
  // alerts when…", "NO PRESSURE." / "No timers, no pressure.").
  if (head.size === 1) {
    const tail = textKey(headline).split(' ').slice(-2).join(' ');
    return tail.includes(' ') && ` ${textKey(sub)} `.includes(` ${tail} `) ? again : null;
  }
  if (head.size < 2) return null;
  const under = substance(sub, language, exclude);
  if (![...head].every((w) => under.has(w))) return null;
  // A clause of its own after the restatement says why it matters ("Over 500 hand-made levels, so
  // there's always another to try." under "500 levels, all made by hand!"): a copywriter ships it.
  const clause = CLAUSE.exec(sub);
  if (clause && [...substance(sub.slice(clause.index), language, exclude)].some((w) => !head.has(w))) return null;
  return again;
}

/** Where a subheadline goes on to a clause of its own: a comma or dash, then a linking word. */
const CLAUSE = /[,;:\u2013\u2014]\s*(?:so|because|since|which|while|but|and never|so that)\b/i;
