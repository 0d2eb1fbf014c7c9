/**
 * A store rating under 4.0 reads as a warning, not proof (issue 33, seventh held-out read: "3.9 stars!
 * 140 ratings, and we're blushing" was M). The set never leads with it nor counts on it: a named
 * story's proof slide shows a feature and says why, a short set ends on the ask instead, the model is
 * not given it, and the checker finds it (soft from slide 2, the planner's warned last resort where a
 * default set of five has nothing else; hard as the opening slide). On listings written for the test.
 */
import { describe, expect, it } from 'vitest';
import { checkCaptions, type CheckContext } from '../../src/captions/checker/check.ts';
import { captionRequest } from '../../src/captions/model/request.ts';
import { draftScreenshotSet } from '../../src/planning/plan.ts';
import { CAPTION_LENGTH_IDS, CAPTION_STYLE_IDS } from '../../src/core/set.ts';
import { devicesFor } from './corpus/measure.ts';
import { planOrNull as plan } from './plan-or-null.ts';
import { listingOf } from './remaining-listings.ts';

/** A one-line audio app rated 3.8 by 300 people. */
const looper = listingOf({
  name: 'Loopwise',
  category: 'Music',
  subtitle: null,
  rating: 3.8,
  ratingCount: 300,
  description: 'Record loops and stack beats in moments.',
});

/** A fuller listing, the same rating: a named story's proof slide has features to give way to. */
const planner = listingOf({
  name: 'Tidy Week',
  category: 'Productivity',
  subtitle: 'Plan your week in minutes',
  rating: 3.7,
  ratingCount: 4100,
  description: [
    'Drag tasks between days to balance your week.',
    '- Colour-code projects',
    '- Share boards with your team',
    '- Get a nudge before each deadline',
    '- Export your week to PDF',
  ].join('\n'),
});

const RATING = /\b3[.,][78]\b/;

describe('a store rating under 4.0', () => {
  it('is no proof slide of a named story: a feature instead, and the warning names the rating', () => {
    let made = 0;
    for (const style of CAPTION_STYLE_IDS)
      for (const length of CAPTION_LENGTH_IDS)
        for (const narrativeId of ['problem-solution', 'social-proof-first'] as const) {
          const r = plan(planner, style, length, { narrativeId });
          if (!r) continue;
          made++;
          const at = `${style}/${length} ${narrativeId}: ${r.slides.map((s) => s.headline).join(' | ')}`;
          expect(
            r.slides.filter((s) => s.role === 'social-proof'),
            at,
          ).toEqual([]);
          expect(
            r.slides.filter((s) => RATING.test(`${s.headline} ${s.subheadline ?? ''}`)),
            at,
          ).toEqual([]);
          expect(r.warnings.join(' '), at).toMatch(/rating \(3\.7\) is under 4\.0/);
        }
    expect(made).toBeGreaterThan(0);
  });

  it('gives way to the ask in a short set where that fills it; where shown, it is said plainly and warned', () => {
    let asked = 0;
    for (const style of CAPTION_STYLE_IDS)
      for (const length of CAPTION_LENGTH_IDS)
        for (const shape of [{ count: 3 }, {}]) {
          const r = plan(looper, style, length, shape);
          if (!r) continue;
          const proof = r.slides.find((s) => s.role === 'social-proof');
          if (shape.count === 3 && !proof) asked++;
          if (!proof) continue;
          const at = `${style}/${length} ${JSON.stringify(shape)}: ${proof.headline} // ${proof.subheadline}`;
          expect(`${proof.headline} ${proof.subheadline ?? ''}`, at).not.toMatch(/counting|blushing/i);
          expect(r.warnings.join(' '), at).toMatch(new RegExp(`Slide ${proof.index} has a weaker caption.*under 4\\.0`));
        }
    expect(asked).toBeGreaterThan(0);
  });

  it('is not given to the model', () => {
    const input = { listings: [looper], extraContext: null, uploadedScreens: 5, request: { device: devicesFor(looper)[0] } };
    const user = JSON.parse(captionRequest(draftScreenshotSet(input))[1].content as string) as { storeRating: unknown };
    expect(user.storeRating).toBeNull();
  });

  it('is found by the checker on a proof slide: soft after the hero, hard as the opening slide', () => {
    const ctx: CheckContext = {
      listings: [looper],
      extraContext: null,
      device: devicesFor(looper)[0],
      captionLength: 'short',
      captionStyle: 'minimal',
    };
    const late = checkCaptions(
      [
        { headline: 'Record loops', subheadline: null, role: 'hero' },
        { headline: '3.8 stars, 300 ratings', subheadline: null, role: 'social-proof' },
      ],
      ctx,
    )[1];
    expect(late.map((f) => [f.id, f.soft])).toEqual([['generic', true]]);
    const first = checkCaptions([{ headline: '3.8 stars, 300 ratings', subheadline: null, role: 'social-proof' }], ctx)[0];
    expect(first.some((f) => f.id === 'generic')).toBe(true);
  });
});
