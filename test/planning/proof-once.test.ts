/**
 * A proof slide states the store's rating once (read 2026-11-28-second: "4.6 STARS." // "4.6 out of
 * 5 from 91K+ ratings." on 6 of 9 proof slides is an echo a copywriter rejects): the writer puts
 * the rating in the headline and how many rated under it, and the checker finds the figure said twice.
 */
import { describe, expect, it } from 'vitest';
import { checkCaptions, type CheckContext } from '../../src/captions/checker/check.ts';
import { ratingTwice } from '../../src/captions/checker/proof.ts';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import { CAPTION_STYLE_IDS } from '../../src/core/set.ts';
import { sampleListing } from '../support/fixtures.ts';

const listing = sampleListing({ rating: 4.68, ratingCount: 91200 });
const ctx: CheckContext = {
  listings: [listing],
  extraContext: null,
  device: 'iphone-69',
  captionLength: 'long',
  captionStyle: 'bold',
  screenText: [],
};

describe('the rating said once a slide', () => {
  it('the checker finds the rating stated again under its headline', () => {
    expect(ratingTwice('4.6 STARS.', '4.6 out of 5 from 91K+ ratings.')).toMatch(/states the rating 4.6/);
    expect(ratingTwice('Rated 4.6★ From 91K+ Ratings', 'Rated 4.6 out of 5 from 91K+ ratings.')).not.toBeNull();
    expect(ratingTwice('4.6 STARS.', 'From 91K+ ratings.')).toBeNull();
    expect(ratingTwice('4.6 STARS.', null)).toBeNull();
    const [found] = checkCaptions(
      [{ headline: '4.6 STARS.', subheadline: '4.6 out of 5 from 91K+ ratings.', role: 'social-proof', index: 4 }],
      ctx,
    );
    expect(found.map((f) => f.id)).toContain('echo-pair');
    const [clean] = checkCaptions([{ headline: '4.6 STARS.', subheadline: 'From 91K+ ratings.', role: 'social-proof', index: 4 }], ctx);
    expect(clean.map((f) => f.id)).not.toContain('echo-pair');
  });

  for (const captionStyle of CAPTION_STYLE_IDS)
    it(`${captionStyle}/long: the proof slide says the rating in one line and the count in the other`, () => {
      const r = planScreenshotSet({
        listings: [listing],
        extraContext: null,
        request: { device: 'iphone-69', captionStyle, captionLength: 'long', narrativeId: 'problem-solution' },
      });
      const proof = r.slides.find((s) => s.role === 'social-proof')!;
      expect(proof.subheadline).toBeTruthy();
      expect(ratingTwice(proof.headline, proof.subheadline), `${proof.headline} // ${proof.subheadline}`).toBeNull();
      expect(proof.headline).toContain('4.6');
      expect(proof.subheadline).toContain('91K+');
    });
});
