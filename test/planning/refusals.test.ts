/**
 * The planner's own refusals (the job's, and the check before the charge reads the same ones): a
 * refusal's `supported` never leads to a set worse than the one refused (issue 33).
 */
import { describe, expect, it } from 'vitest';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import { saysNothing } from '../../src/planning/refuse.ts';
import { cannotFillNarrative, cannotFillSet } from '../../src/core/refusal.ts';
import { isProblem, type Problem } from '../../src/core/problem.ts';
import type { PlanRequest } from '../../src/core/set.ts';
import type { Listing } from '../../src/core/listing.ts';
import { sampleListing } from '../support/fixtures.ts';
import { corpus } from './corpus/index.ts';

const sparse = sampleListing({ description: 'Plan meals for the week in minutes.', subtitle: null });

function refusal(listing: Listing, request: PlanRequest): Problem {
  try {
    planScreenshotSet({ listings: [listing], extraContext: null, uploadedScreens: 1, request });
  } catch (error) {
    if (isProblem(error)) return error;
    throw error;
  }
  throw new Error('planned, not refused');
}

describe('a refusal offers no set worse than the one refused', () => {
  it("counts a narrative's `supported` on that narrative and offers no count of it (a count does not apply to it)", () => {
    const p = refusal(sparse, { device: 'iphone-69', narrativeId: 'problem-solution' });
    expect(p.extensions).toMatchObject({ asked: 6, narrativeId: 'problem-solution', fixes: ['extraContext', 'slides', 'narrativeId'] });
    expect(p.detail).toMatch(/of the 6 slides of the "Problem → solution" story/);
  });

  it('offers the default story when it fills the slides the narrative could not', () => {
    // A listing of plain features: the default story says one a slide; a story that asks for a
    // problem, steps and social proof cannot be written from it.
    const features = sampleListing({
      subtitle: null,
      description: [
        'Plan meals for the week in minutes.',
        'Scan barcodes to add groceries.',
        'Share shopping lists with your family.',
        'Get reminders before food expires.',
        'Import recipes from any website.',
      ].join('\n'),
    });
    const p = refusal(features, { device: 'iphone-69', narrativeId: 'full-tour' });
    const { asked, supported, defaultStorySupported: offered } = p.extensions as Record<string, number>;
    expect(asked).toBe(10);
    expect(offered).toBeGreaterThanOrEqual(supported);
    expect(offered).toBeLessThan(asked);
    expect(p.extensions!.fixes).toEqual(['extraContext', 'slides', 'narrativeId']);
    expect(p.detail).toContain(`Or leave out narrativeId and ask for ${offered} slides: the default story fills that many.`);
    // Following the offer gives a set: the default story at that count is planned, not refused.
    const set = planScreenshotSet({
      listings: [features],
      extraContext: null,
      uploadedScreens: 1,
      request: { device: 'iphone-69', count: offered },
    });
    expect(set.slides).toHaveLength(offered);
  });

  it('says the default story fills them all when it does', () => {
    const p = cannotFillNarrative({ id: 'how-it-works', name: 'How it works' }, 5, [{ slide: 3, role: 'step' }], false, null, 5);
    expect(p.detail).toMatch(/Or leave out narrativeId: the default story fills all 5 slides\.$/);
    expect(p.extensions).toMatchObject({ asked: 5, supported: 4, defaultStorySupported: 5 });
  });

  it('offers no default story that would only praise the app', () => {
    const p = refusal(sampleListing({ description: 'The best free app. Download now!', subtitle: null }), {
      device: 'iphone-69',
      narrativeId: 'problem-solution',
    });
    expect(p.extensions).not.toHaveProperty('defaultStorySupported');
    expect(p.extensions!.fixes).toEqual(['extraContext', 'slides']);
  });

  it('offers no smaller count whose captions would only praise the app', () => {
    const p = refusal(sampleListing({ description: 'The best free app. Download now!', subtitle: null }), {
      device: 'iphone-69',
      count: 4,
    });
    expect(p.extensions).toEqual({ asked: 4, supported: 0, fixes: ['extraContext', 'slides'] });
  });

  it('tells praise and the app’s own name from a caption that says what the app does', () => {
    const listings = [sparse];
    const c = (headline: string) => ({ headline, subheadline: null, keywords: [] });
    expect(saysNothing([c('Use This Free App')], listings, 'en')).toBe(true);
    expect(saysNothing([c('The Best Free App'), c('Get Pantry Planner Today')], listings, 'en')).toBe(true);
    expect(saysNothing([c('Plan Meals for the Week')], listings, 'en')).toBe(false);
    expect(saysNothing([c('The Best Free App'), c('Scan Barcodes to Add Groceries')], listings, 'en')).toBe(false);
  });
});

describe('the longer length is offered only where it fills more (tenth read)', () => {
  const listing = (id: string) => corpus().find((e) => e.id === id)!.listing;
  const plans = (l: Listing, request: PlanRequest, count: number): boolean => {
    try {
      planScreenshotSet({ listings: [l], extraContext: null, uploadedScreens: 5, request: { ...request, count } });
      return true;
    } catch (error) {
      if (isProblem(error)) return false;
      throw error;
    }
  };

  it('names the count the long length fills, and that count is made at it', () => {
    const l = listing('wayfarer');
    const p = refusal(l, { device: 'iphone-69', captionStyle: 'minimal', captionLength: 'short', count: 8 });
    expect((p.extensions.fixes as string[])[0]).toBe('captionLength');
    const fills = Number(/it fills (\d+) slides/.exec(p.detail)?.[1]);
    expect(fills).toBeGreaterThan(p.extensions.supported as number);
    const long = { device: 'iphone-69' as const, captionStyle: 'minimal' as const, captionLength: 'long' as const };
    expect(plans(l, long, fills)).toBe(true);
    expect(plans(l, long, fills + 1)).toBe(false);
  });

  it('is not offered where the long length would fill no more slides than the short one', () => {
    // Its unsaid lines are over a short headline, but at the long length other slides go: 6 either way.
    const l = listing('routely');
    const p = refusal(l, { device: 'iphone-69', captionStyle: 'aso-expert', captionLength: 'short', count: 8 });
    expect(p.extensions.supported).toBe(6);
    expect(p.extensions.fixes).not.toContain('captionLength');
    expect(p.detail).not.toMatch(/captionLength/);
  });
});

describe('a count refusal that no smaller count fills', () => {
  it('offers no fewer slides: the fixes are words, not a count', () => {
    const none = cannotFillSet(3, 0, false);
    expect(none.extensions.fixes).toEqual(['extraContext', 'slides']);
    expect(none.detail).not.toMatch(/fewer slides/);
    const some = cannotFillSet(3, 2, false);
    expect(some.extensions.fixes).toEqual(['extraContext', 'slides', 'count']);
    expect(some.detail).toMatch(/or ask for fewer slides\.$/);
  });
});
