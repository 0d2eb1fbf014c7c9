/**
 * Long captions on a listing that runs out of subheadlines: a slide keeps its passing headline
 * with `subheadline: null` (CONTRACT: nullable) rather than costing the whole set, the set warns
 * which slides and how to add one, and only slides with no passing headline count for the refusal.
 */
import { scaled } from '../support/timing.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { checkFillable } from '../../src/planning/fillable.ts';
import { checkCaptions, checkSet, type CaptionToCheck, type CheckContext } from '../../src/captions/checker/check.ts';
import { newStats } from '../../src/captions/model/writer.ts';
import { planWithModel } from '../../src/planning/pipeline.ts';
import { draftScreenshotSet, planScreenshotSet } from '../../src/planning/plan.ts';
import type { PlanInput, ScreenshotSetResult } from '../../src/core/set.ts';
import { isProblem } from '../../src/core/problem.ts';
import { captionModel, startFakeLlm, type FakeLlm } from '../support/fake-llm.ts';
import { planViolations } from './check.ts';
import { corpus } from './corpus/index.ts';
import { emptyDescription, habitly } from './listings.ts';

const long = (count: number, over: Partial<PlanInput> = {}): PlanInput => ({
  listings: [habitly],
  extraContext: null,
  request: { device: 'iphone-69', count, captionLength: 'long' },
  ...over,
});
const bare = (r: ScreenshotSetResult) => r.slides.flatMap((s) => (s.subheadline === null ? [s.index] : []));
const warned = (r: ScreenshotSetResult) => r.warnings.filter((w) => /no subheadline/.test(w));
const refusal = (input: PlanInput) => {
  try {
    planScreenshotSet(input);
  } catch (error) {
    if (isProblem(error) && error.code === 'cannot_fill_set') return error.extensions as { asked: number; supported: number };
    throw error;
  }
  return null;
};

describe('the checker on long captions', () => {
  const ctx: CheckContext = {
    listings: [habitly],
    extraContext: null,
    device: 'iphone-69',
    captionLength: 'long',
    captionStyle: 'aso-expert',
  };
  const shape = (c: CaptionToCheck) => checkCaptions([c], ctx)[0].filter((f) => f.id === 'shape');

  it('passes a headline alone on a slide after the hero, but not an empty subheadline, nor a hero without one', () => {
    expect(shape({ headline: 'Track Unlimited Habits', subheadline: null, role: 'feature' })).toEqual([]);
    expect(shape({ headline: 'Track Unlimited Habits', subheadline: 'With a single tap.', role: 'feature' })).toEqual([]);
    expect(shape({ headline: 'Track Unlimited Habits', subheadline: '  ', role: 'feature' })).toHaveLength(1);
    expect(shape({ headline: 'Build Better Habits', subheadline: null, role: 'hero' })).toHaveLength(1);
  });
});

describe('a long set on a listing that runs out of subheadlines', () => {
  it('has every slide asked for; those without a subheadline keep a passing headline and are named in a warning', () => {
    const input = long(10);
    const r = planScreenshotSet(input);
    expect(r.slides).toHaveLength(10);
    const without = bare(r);
    expect(without.length).toBeGreaterThan(0);
    expect(without).not.toContain(1);
    // One warning per reason (planning/left-out.ts): together they name every bare slide, once.
    const named = warned(r).flatMap((w) =>
      (/^Slides? ([\d, and]+) ha/.exec(w)?.[1] ?? '')
        .split(/, | and /)
        .filter(Boolean)
        .map(Number),
    );
    expect(named.sort((a, b) => a - b)).toEqual(without);
    for (const w of warned(r)) {
      expect(w).toMatch(/extraContext/);
      expect(w).toMatch(/POST \/public\/v1\/jobs\/\{id\}\/revisions/);
    }
    expect(checkSet(input, r).flat()).toEqual([]);
    expect(planViolations(input, r)).toEqual([]);
    // The verdict before the charge agrees: no refusal.
    expect(() => checkFillable(input, false)).not.toThrow();
    for (const s of r.slides) expect(s.headline.trim().length).toBeGreaterThan(0);
  });

  it('still gives a subheadline wherever the listing has one: a set it fills whole has no bare slide and no warning', () => {
    const r = planScreenshotSet(long(6));
    expect(bare(r)).toEqual([]);
    expect(warned(r)).toEqual([]);
    // A feature slide goes bare only once no idea left has a subheadline: every later feature slide is bare too.
    const ten = planScreenshotSet(long(10));
    const features = ten.slides.filter((s) => ['feature', 'benefit', 'solution'].includes(s.role)).map((s) => s.subheadline !== null);
    expect(features.indexOf(false)).toBeGreaterThan(0);
    expect(features.slice(features.indexOf(false))).not.toContain(true);
  });

  it('shows the listing’s rating, said whole, rather than a feature slide with its headline alone', () => {
    // Inkwell names four features with a line under each; a fifth feature slide would stand on a headline alone.
    const listing = corpus().find((e) => e.id === 'inkwell')!.listing;
    // (Five slides: since sentences are no longer cut where their phrase goes on, its features fill five, not six.)
    const r = planScreenshotSet(long(5, { listings: [listing] }));
    expect(r.slides.map((s) => s.role)).toContain('social-proof');
    expect(r.slides.find((s) => s.role === 'social-proof')?.subheadline).not.toBeNull();
    expect(r.warnings.some((w) => /rating instead of another feature/.test(w))).toBe(true);
  });

  it('gives fewer bare slides when extraContext adds lines about the app', () => {
    const plain = planScreenshotSet(long(10));
    const richer = planScreenshotSet(
      long(10, {
        extraContext:
          'Beautiful charts show your streaks over weeks and months. Earn streaks that keep you going on hard days. Dark mode for late check-ins.',
      }),
    );
    expect(richer.slides).toHaveLength(10);
    expect(bare(richer).length).toBeLessThan(bare(plain).length);
  });

  it('headlines the features first when subheadlines would spend them, and gives back the subheadlines that still pass', () => {
    // Darkroom's long subheadlines say what later slides would headline: written slide by slide, six are refused.
    const input = long(6, { listings: [corpus().find((e) => e.id === 'darkroom')!.listing] });
    const r = planScreenshotSet(input);
    expect(r.slides).toHaveLength(6);
    expect(checkSet(input, r).flat()).toEqual([]);
    // Since the whole-phrase rules a tail of a sentence no longer stands as a subheadline ("Apply
    // them to a whole album at once" under the hero pointed at nothing): fewer come back, and those
    // that do are whole. The hero's is one of them; the rest are named in one warning.
    const given = r.slides.filter((s) => s.role !== 'social-proof' && s.subheadline !== null);
    expect(given.length).toBeGreaterThan(0);
    expect(warned(r)).toHaveLength(1);
  });

  it('is refused only when even headlines run out, and says a count that can be asked for', () => {
    const input = long(6, { listings: [emptyDescription] });
    const draft = draftScreenshotSet(input);
    const headed = draft.rules.filter((c) => c !== null).length;
    expect(headed).toBeLessThan(6);
    const { supported } = refusal(input)!;
    // The figure is a count that plans, and the largest: the client asks for it and gets a set. Here
    // none: the hero's only line under it was the category ("Productivity."), which is padding, not a
    // subheadline (issue 33), so no long set of this listing has a hero.
    if (supported > 0) expect(planScreenshotSet(long(supported, { listings: [emptyDescription] })).slides).toHaveLength(supported);
    for (let count = supported + 1; count < 6; count++) expect(refusal(long(count, { listings: [emptyDescription] }))).not.toBeNull();
    // The hero is left empty too: a long hero needs a line under it, and the category alone is none.
    expect(draft.rules[0]).toBeNull();
    // The same listing with lines of its own in extraContext fills all six, some perhaps without subheadline.
    const helpedInput = {
      ...input,
      extraContext:
        'Count laps, reps and stitches.\nSet a target and hear a beep when you reach it.\nKeep several counters side by side.\nUndo a mistaken tap.\nDark mode for counting at night.',
    };
    const helped = planScreenshotSet(helpedInput);
    expect(helped.slides).toHaveLength(6);
    expect(warned(helped)).toHaveLength(bare(helped).length > 0 ? 1 : 0);
    expect(checkSet(helpedInput, helped).flat()).toEqual([]);
  });
});

describe('the model writer on long sets', () => {
  let fake: FakeLlm | null = null;
  afterEach(async () => {
    await fake?.close();
    fake = null;
  });

  it('takes a candidate with a subheadline before one without, and keeps a headline alone only when no candidate has one', async () => {
    const input = long(3);
    fake = await startFakeLlm(
      captionModel({
        1: [{ headline: 'Build Better Habits Daily', subheadline: 'One day at a time, with reminders that adapt to you.' }],
        2: [
          { headline: 'Track Unlimited Habits', subheadline: null },
          { headline: 'Track Unlimited Habits', subheadline: 'With a single tap.' },
        ],
        3: [{ headline: 'Smart Reminders', subheadline: null }],
      }),
    );
    const r = await planWithModel(
      input,
      { baseUrl: fake.baseUrl, model: 'm', apiKey: null, timeoutMs: scaled(2_000) },
      undefined,
      newStats(),
    );
    expect(r.slides.map((s) => [s.captionSource, s.subheadline])).toEqual([
      ['model', 'One day at a time, with reminders that adapt to you.'],
      ['model', 'With a single tap.'],
      ['model', null],
    ]);
    expect(warned(r)).toEqual([expect.stringMatching(/^Slide 3 has a headline but no subheadline/)]);
    expect(checkSet(input, r).flat()).toEqual([]);
  });
});
