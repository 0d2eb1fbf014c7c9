/**
 * Two lines that say one thing: a call to action whose subheadline is a second call to action ("Get
 * started with BusyCal." / "Start today with BusyCal."), or a call to action that says the hero's
 * promise again. The shopper reads the set once; the last slide asks, it does not repeat.
 */
import { sameTopic } from './complete.ts';

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
