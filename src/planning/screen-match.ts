/**
 * Which uploaded screen (or listing screenshot) each slide frames, by what the screens show (their
 * OCR text, read once each): each caption goes over the screen whose words it shares most, the hero over
 * the screen that shows the most of the listing, and every slide says what grounded its caption.
 * Words are compared by their first five letters ("budgets" and "budget" are one word).
 */
import { contentWords } from '../captions/text.ts';
import type { Role } from '../core/narratives.ts';

export interface ScreenWithText {
  screenId: string;
  text: string[] | null;
}

export interface Grounding {
  screenText: string[];
  listing: string[];
  extraContext: boolean;
}

const stems = (text: string, language: string): Set<string> => new Set(contentWords(text, language).map((w) => w.slice(0, 5)));
const shared = (a: Set<string>, b: Set<string>): number => [...a].filter((w) => b.has(w)).length;

/** The listing's sentences, each one a source a caption may rest on. */
export function listingSentences(text: string): string[] {
  return text
    .split(/\n+|(?<=[.!?。！？])\s+/u)
    .map((s) => s.replace(/^[\s•*\-–—]+/u, '').trim())
    .filter((s) => s.length > 0);
}

export interface Matched {
  /** Per slide, the screen it frames. */
  screenIds: string[];
  warnings: string[];
}

/**
 * Slides to screens. With `inOrder` (the request named its screens) slide i frames screen i, as
 * asked; else by shared words, one screen per slide while they last, then the rest in upload order.
 */
export function matchScreens(
  roles: readonly Role[],
  captions: string[],
  screens: ScreenWithText[],
  listingText: string,
  language: string,
  inOrder: boolean,
  /** Whose screens these are, for the warnings: the user's uploads, or the listing's screenshots (by URL). */
  kind: 'uploads' | 'listing' = 'uploads',
): Matched {
  if (inOrder) return { screenIds: roles.map((_, i) => screens[i % screens.length].screenId), warnings: [] };
  const captionWords = captions.map((c) => stems(c, language));
  const screenWords = screens.map((s) => stems((s.text ?? []).join('\n'), language));
  const weights = screenWeights(screens, screenWords, language);
  const hero = roles.indexOf('hero');
  // A hero that names the titles of several screens ("Budgets, bills and goals") sums the app up:
  // it has no one screen, and must not take one a feature slide names alone. It goes over the most
  // representative screen left (below).
  const titled = (i: number) => weights.filter((w) => [...captionWords[i]].some((x) => w.get(x) === TITLE_WEIGHT)).length;
  const out = bestPairs(
    captionWords.map((words, i) => (i === hero && titled(i) >= 2 ? new Set<string>() : words)),
    weights,
  );
  const used = new Set(out.filter((j): j is number => j !== null));
  // The hero shows the app at its most typical: the free screen that shows the most of the listing.
  const listingWords = stems(listingText, language);
  const free = () => screens.map((_, j) => j).filter((j) => !used.has(j));
  let heroRepresents = false;
  if (hero >= 0 && out[hero] === null && free().length > 0) {
    const best = free().sort((a, b) => shared(screenWords[b], listingWords) - shared(screenWords[a], listingWords) || a - b)[0];
    heroRepresents = shared(screenWords[best], listingWords) > 0;
    out[hero] = best;
    used.add(best);
  }
  // The rest in upload order, each screen once while any is left, then again from the first.
  let next = 0;
  out.forEach((j, i) => {
    if (j !== null) return;
    const left = free();
    out[i] = left.length > 0 ? left[0] : next++ % screens.length;
    if (left.length > 0) used.add(left[0]);
  });
  // As sets/render.ts says it of screens framed in upload order.
  // (A listing's own shortfall is said by the planner, in the listing's words.)
  const warnings: string[] =
    kind === 'uploads' && screens.length < roles.length
      ? [
          `${screens.length} of your screens for ${roles.length} slides, so some appear twice; upload more screens of this family for a set without repeats.`,
        ]
      : [];
  out.forEach((j, i) => {
    const screen = screens[j!];
    if (screen.text === null || (i === hero && heroRepresents)) return;
    if (shared(captionWords[i], screenWords[j!]) === 0)
      warnings.push(
        kind === 'uploads'
          ? `Slide ${i + 1}'s caption names nothing its screen (${screen.screenId}) shows; upload a screen that shows it, or name the screens in order with screenIds.`
          : `Slide ${i + 1}'s caption names nothing its screenshot from the listing shows; upload a screen that shows it (screenIds) for a slide that matches.`,
      );
  });
  return { screenIds: out.map((j) => screens[j!].screenId), warnings };
}

/**
 * The listing's phrases the screens show, one per screen at most: each screen's best phrase by the
 * words they share (its title's words weigh most, a tab bar's nothing), pairs taken best first. The
 * rule writer says these first, so that its feature slides speak of screens the set frames: a
 * listing that names ten features over five screens of Budgets, Goals, … says those five. A pair
 * must share a title word or two other words: one word a row shows ("month") is not the feature.
 */
export function shownPhrases<P extends { text: string }>(phrases: readonly P[], screens: ScreenWithText[], language: string): P[] {
  const read = screens.filter((s) => s.text !== null && s.text.length > 0);
  if (read.length === 0 || phrases.length === 0) return [];
  const screenWords = read.map((s) => stems((s.text ?? []).join('\n'), language));
  const weights = screenWeights(read, screenWords, language);
  const pairs = phrases.flatMap((p, i) => {
    const words = stems(p.text, language);
    return weights.map((w, j) => ({ i, j, score: [...words].reduce((sum, x) => sum + (w.get(x) ?? 0), 0) }));
  });
  const usedPhrase = new Set<number>();
  const usedScreen = new Set<number>();
  for (const { i, j } of pairs.filter((x) => x.score >= 2).sort((a, b) => b.score - a.score || a.i - b.i || a.j - b.j)) {
    if (usedPhrase.has(i) || usedScreen.has(j)) continue;
    usedPhrase.add(i);
    usedScreen.add(j);
  }
  return phrases.filter((_, i) => usedPhrase.has(i));
}

/** A word of a screen's title says three times what a word of its rows does. */
const TITLE_WEIGHT = 3;

// A status bar's clock ("9:41"), not the app's words.
const CLOCK = /^\d{1,2}[:.]\d{2}(\s?[AP]M)?$/i;

/**
 * How much each word of a screen says about it: its title (the first line past the status bar)
 * three times as much as the rest, and nothing for words most screens show (a tab bar's labels).
 */
function screenWeights(screens: ScreenWithText[], screenWords: Set<string>[], language: string): Map<string, number>[] {
  const seen = new Map<string, number>();
  for (const words of screenWords) for (const w of words) seen.set(w, (seen.get(w) ?? 0) + 1);
  const common = (w: string) => screens.length >= 3 && seen.get(w)! > screens.length / 2;
  return screens.map((s, j) => {
    const title = stems((s.text ?? []).find((line) => !CLOCK.test(line.trim())) ?? '', language);
    return new Map([...screenWords[j]].filter((w) => !common(w)).map((w) => [w, title.has(w) ? TITLE_WEIGHT : 1]));
  });
}

/**
 * The pairs of slides and screens that share the most words in all, each screen under one slide:
 * a hero that names three features must not take the screen a feature slide names alone. Exact,
 * by dynamic programming over the screens and the subsets of slides (at most 10 slides: 1,024).
 */
function bestPairs(captionWords: Set<string>[], screenWords: Map<string, number>[]): (number | null)[] {
  const n = captionWords.length;
  const score = captionWords.map((cw) => screenWords.map((sw) => [...cw].reduce((sum, w) => sum + (sw.get(w) ?? 0), 0)));
  let dp = new Array<number>(1 << n).fill(-Infinity);
  dp[0] = 0;
  const choice: Int8Array[] = [];
  screenWords.forEach((_, j) => {
    const next = [...dp];
    const pick = new Int8Array(1 << n).fill(-1);
    for (let mask = 1; mask < 1 << n; mask++)
      for (let i = 0; i < n; i++) {
        if (!(mask & (1 << i)) || score[i][j] === 0) continue;
        const v = dp[mask ^ (1 << i)] + score[i][j];
        if (v > next[mask]) {
          next[mask] = v;
          pick[mask] = i;
        }
      }
    choice.push(pick);
    dp = next;
  });
  let mask = dp.reduce((best, v, m) => (v > dp[best] ? m : best), 0);
  const out: (number | null)[] = captionWords.map(() => null);
  for (let j = screenWords.length - 1; j >= 0; j--) {
    const i = choice[j][mask];
    if (i < 0) continue;
    out[i] = j;
    mask ^= 1 << i;
  }
  return out;
}

/** What a caption rests on: the words its screen shows, the listing's sentences, extraContext. */
export function groundingOf(
  caption: string,
  screenText: string[] | null,
  sentences: string[],
  extraContext: string | null,
  language: string,
): Grounding {
  const words = stems(caption, language);
  const need = Math.min(2, words.size);
  return {
    screenText: (screenText ?? []).filter((line) => shared(words, stems(line, language)) > 0),
    listing:
      need === 0
        ? []
        : sentences
            .map((s, k) => ({ s, k, n: shared(words, stems(s, language)) }))
            .filter((x) => x.n >= need)
            .sort((a, b) => b.n - a.n || a.k - b.k)
            .slice(0, 3)
            .map((x) => (x.s.length > 200 ? `${x.s.slice(0, 199)}…` : x.s)),
    extraContext: extraContext !== null && need > 0 && shared(words, stems(extraContext, language)) > 0,
  };
}
