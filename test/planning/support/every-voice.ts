/**
 * The voice × length loop of the planning tiers that plan many listings (the corpus, its held-out
 * part), written once. `npm test` plans a fixed rotation of it (../sample.ts: small inputs, never
 * skipped, the same sets every run so a failure reproduces); `npm run plan:full` (PLAN_FULL=1)
 * plans every listing in every voice and length.
 *
 * The rotation: the voice × length pairs are numbered so that pair p is voice p mod V and length
 * p mod L (5 voices and 2 lengths are coprime, so the ten numbers name the ten pairs, and two pairs
 * in a row differ in voice and in length). Listing i plans `per` pairs in a row from i × per: every
 * listing is planned, in `per` different pairs (different voices while per ≤ 5), and once the listings have taken
 * `pairs` turns between them every voice × length is planned. `per` defaults to the fewest turns
 * that reach every pair (the pairs over the listings, rounded up).
 *
 * No plan cache: on 2026-11-29 the whole test/planning folder in one process planned 3,728 sets of
 * which 411 repeated an earlier one, 2.7 of the 57 s of planning CPU, and 260 of those are the
 * determinism check in rules.test.ts, which must plan again. The writer's own caches (the listing's
 * analysis, src/captions/understand.ts) already carry over between files that share a worker.
 */
import { CAPTION_LENGTH_IDS, CAPTION_STYLE_IDS, type CaptionLength, type CaptionStyle } from '../../../src/core/set.ts';
import { FULL } from '../sample.ts';

export interface VoiceTurn<T> {
  item: T;
  /** The item's place in the list given, for messages and for further rotations. */
  index: number;
  captionStyle: CaptionStyle;
  captionLength: CaptionLength;
}

export interface EveryVoiceOptions {
  voices?: readonly CaptionStyle[];
  lengths?: readonly CaptionLength[];
  /** Pairs per item in `npm test`; at least the default, which reaches every pair. */
  per?: number;
  /** Plan the whole product even in `npm test` (defaults to PLAN_FULL). */
  full?: boolean;
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** The (item, voice, length) turns a test plans: every one under PLAN_FULL, else the rotation above. */
export function everyVoice<T>(items: readonly T[], options: EveryVoiceOptions = {}): VoiceTurn<T>[] {
  const { voices = CAPTION_STYLE_IDS, lengths = CAPTION_LENGTH_IDS, full = FULL } = options;
  const v = voices.length;
  const l = lengths.length;
  // p → (p mod V, p mod L) names every pair once only when V and L share no factor.
  if (gcd(v, l) !== 1) throw new Error(`everyVoice: ${v} voices and ${l} lengths share a factor; the rotation would miss pairs`);
  const pairs = v * l;
  const least = items.length === 0 ? pairs : Math.ceil(pairs / items.length);
  const per = full ? pairs : Math.min(pairs, Math.max(least, options.per ?? least));
  return items.flatMap((item, index) =>
    Array.from({ length: per }, (_, k) => {
      const p = (index * per + k) % pairs;
      return { item, index, captionStyle: voices[p % v], captionLength: lengths[p % l] };
    }),
  );
}
