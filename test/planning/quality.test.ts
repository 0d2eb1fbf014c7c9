/**
 * The quality bar: on the caption corpus (test/planning/corpus/), at least 95 % of all slides pass
 * every check of the one checker (src/captions/checker/check.ts), in every voice. `npm test` judges a
 * fixed fifth of the corpus's sets (one story per listing, device, voice and length, rotated: every
 * listing in every voice and length, every story in every voice × length; corpus/measure.ts), which
 * took 27 s of CPU in full; `npm run plan:full` holds the bar on every set, and `npm run plan:report`
 * prints the same table for every set.
 */
import { describe, expect, it } from 'vitest';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import { checkSet } from '../../src/captions/checker/check.ts';
import { incompleteness } from '../../src/captions/checker/complete.ts';
import { CAPTION_STYLE_IDS, type PlanInput } from '../../src/core/set.ts';
import { scaled } from '../support/timing.ts';
import { corpus } from './corpus/index.ts';
import { formatRates, measure, tally } from './corpus/measure.ts';
import { FULL } from './sample.ts';

const GOAL = 0.95;

describe('the caption corpus', () => {
  it('has at least 30 listings, games, paid, empty, non-English and a Mac app among them', () => {
    const all = corpus().map((e) => e.listing);
    expect(all.length).toBeGreaterThanOrEqual(30);
    expect(all.some((l) => /game|arcade|board/i.test(l.category))).toBe(true);
    expect(all.some((l) => l.price > 0)).toBe(true);
    expect(all.some((l) => l.description === '')).toBe(true);
    expect(all.some((l) => l.description.length > 2000)).toBe(true);
    expect(new Set(all.map((l) => l.language)).size).toBeGreaterThanOrEqual(5);
    expect(all.some((l) => l.platform === 'mac')).toBe(true);
  });

  it(`passes every check on at least ${GOAL * 100} % of slides, per voice`, { timeout: scaled(120_000) }, () => {
    const rates = tally(measure(planScreenshotSet, { sample: !FULL }));
    const table = formatRates(rates);
    for (const voice of [...CAPTION_STYLE_IDS, 'all'] as const)
      expect(rates[voice].passAll / rates[voice].slides, table).toBeGreaterThanOrEqual(GOAL);
  });
});

describe('the checks themselves', () => {
  it('find the fragments a copywriter sends back', () => {
    for (const bad of [
      'Browse and Search From Thousands',
      'Visit example.com to Learn',
      'Beautiful charts and',
      'Track habits. Now.',
      'Psst… sync across iPhone!',
    ])
      expect(incompleteness(bad, 'en'), bad).not.toBeNull();
    for (const good of [
      'Track Unlimited Habits',
      'Smart reminders',
      'CarPlay and AirPlay support built in',
      'Get Streakly now.',
      'Rated 4.7★ by 12K+ Users',
    ])
      expect(incompleteness(good, 'en'), good).toBeNull();
  });

  it('flag repeats, URLs, complaints, lists and reused screens', () => {
    const entry = corpus().find((e) => e.id === 'streakly')!;
    const input: PlanInput = { listings: [entry.listing], extraContext: null, request: { device: 'iphone-69', captionLength: 'long' } };
    const good = planScreenshotSet(input);
    const shots = entry.listing.screenshots.iphone;
    const patched = (i: number, patch: object) => ({ ...good, slides: good.slides.map((s, k) => (k === i ? { ...s, ...patch } : s)) });
    const failed = (r: typeof good, i: number) => checkSet(input, r)[i].map((f) => f.id);
    expect(checkSet(input, good).every((f) => f.length === 0)).toBe(true);
    expect(failed(patched(2, { headline: good.slides[1].headline }), 2)).toContain('repeat');
    expect(failed(patched(2, { subheadline: 'See streakly.example.com for more.' }), 2)).toContain('policy.hidden');
    expect(failed(patched(2, { subheadline: 'Tired of apps that make you feel guilty?' }), 2)).toContain('tone');
    expect(failed(patched(2, { headline: 'Track habits, share streaks and export charts' }), 2)).toContain('one-feature');
    expect(failed(patched(1, { headline: 'Meet Streakly' }), 1)).toContain('value-first');
    expect(failed(patched(2, { screenshotUrl: shots[0].url }), 2)).toContain('screens');
    expect(failed(patched(2, { headline: 'Sync With Icloud' }), 2)).toContain('style');
  });
});
