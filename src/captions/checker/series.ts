/**
 * One enumeration is one feature. A listing that says a list as a series of sentences alike but for
 * one slot ("Recruit knights and train them…", "Recruit archers and train them…", …) names one
 * feature, recruiting, with several examples; a set that gives each example a slide of its own
 * ("Recruit knights", "Recruit archers", "Recruit mages") spreads one list over four slides. The
 * checker refuses a feature slide from a series an earlier slide already said (one-feature), and
 * the rule writer spends a series' sentences together.
 */
import { normalise, words } from '../text.ts';

/** The fewest words a series' sentences share around their slot: less is two sentences, not one frame. */
const MIN_SHARED = 3;
/** The most words a slot holds ("war beasts", "the iron citadel"). */
const MAX_SLOT = 3;

const wordsOf = (text: string) => words(normalise(text, { fold: true }));

/** Whether two sentences are one frame with a different slot: shared opening and ending around at most MAX_SLOT words each. */
function alike(a: string[], b: string[]): boolean {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  if (head === a.length && head === b.length) return false;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  return (
    head + tail >= MIN_SHARED &&
    a.length - head - tail <= MAX_SLOT &&
    b.length - head - tail <= MAX_SLOT &&
    head + tail >= 0.6 * Math.max(a.length, b.length)
  );
}

/**
 * The listing's series: each sentence (as written) that belongs to one, with its series' number.
 * Sentences alike with no third are a series too: two examples of one list are still one feature.
 */
export function seriesOf(sentences: string[]): Map<string, number> {
  const split = [...new Set(sentences)].map((text) => ({ text, ws: wordsOf(text) })).filter((s) => s.ws.length >= MIN_SHARED);
  const out = new Map<string, number>();
  let next = 0;
  for (const [i, s] of split.entries()) {
    for (const t of split.slice(i + 1)) {
      if (!alike(s.ws, t.ws)) continue;
      const id = out.get(s.text) ?? out.get(t.text) ?? next++;
      out.set(s.text, id);
      out.set(t.text, id);
    }
  }
  return out;
}

/**
 * The series `caption` says an item of, or null: its words (a voice's frame aside, at most two words
 * either side) are found in a sentence of a series. "Recruit knights" is in "Recruit knights and
 * train them…".
 */
export function seriesOfCaption(caption: string, series: Map<string, number>): number | null {
  const ws = wordsOf(caption);
  if (ws.length === 0) return null;
  for (const [text, id] of series) {
    const sw = ` ${wordsOf(text).join(' ')} `;
    for (let head = 0; head <= Math.min(2, ws.length - 1); head++)
      for (let tail = 0; tail <= Math.min(2, ws.length - head - 1); tail++) {
        const run = ws.slice(head, ws.length - tail);
        if (run.length >= 2 && sw.includes(` ${run.join(' ')} `)) return id;
      }
  }
  return null;
}
