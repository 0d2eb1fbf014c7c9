/**
 * A hero never says the head of the store subtitle alone ("Kanban boards" of "Kanban boards for your
 * week", "Dein Trainingsplan" of "Dein Trainingsplan für zu Hause"): a subtitle is written to be said
 * whole, and its rest is its point (sixth read, shape 1: 12 of 19 hero non-ships). The whole subtitle
 * first; where it does not fit, the next line that sells; a head only where no line can be said.
 */
import { textKey } from '../text.ts';
import type { Understanding } from '../understand.ts';

/**
 * Whether `form` is the store subtitle cut to a part of it (its opening words, mostly), whichever line it is a form of:
 * "7-minute workouts" of "7-minute workouts with a coach's voice" says the subtitle "7-minute
 * workouts, no equipment" without its point just the same.
 */
export function subtitleHead(subtitle: string | null, form: string | null): boolean {
  if (!subtitle || !form) return false;
  const part = textKey(form);
  const whole = textKey(subtitle);
  // Its tail alone too ("No equipment" of "7-minute workouts, no equipment"): half of it either way.
  return part !== whole && ` ${whole} `.includes(` ${part} `);
}

/**
 * The first of `sayings` that is not a subtitle's head, and the first head apart (`head`), for the
 * caller to fall back on only when no other line can be said.
 */
export function firstWhole<S extends { form: string | null }>(sayings: Iterable<S>, subtitle: string | null): { whole: S | null; head: S | null } {
  let head: S | null = null;
  for (const s of sayings) {
    if (!subtitleHead(subtitle, s.form)) return { whole: s, head };
    head ??= s;
  }
  return { whole: null, head };
}

/**
 * The subtitle a hero may not cut, or null: one that names a thing ("Kanban boards for your week"),
 * whose head is a category. A subtitle that is an action ("Scan documents to PDF in seconds") keeps
 * a verb and its object in its head, which sells alone: cutting it is the phrase rules' call.
 */
export function subtitleHeldWhole(u: Pick<Understanding, 'subtitle' | 'promise' | 'phrases'>): string | null {
  const own = [u.promise, ...u.phrases].find((p) => p?.kind === 'subtitle');
  return u.subtitle && own?.shape !== 'imperative' ? u.subtitle : null;
}
