/**
 * A feature slide given to the store's rating or the download ask says why, truly (issue 33; read
 * 2026-11-28-second: "the listing names fewer features" was false on 5 of 6 sets): the listing
 * named no more features, or it named more that the rule writer could not say whole, quoted.
 */
import { describe, expect, it } from 'vitest';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import { corpus } from './corpus/index.ts';
import { sampleListing } from '../support/fixtures.ts';

const INSTEAD = /instead of (showing )?another feature/;

describe('why a slide shows the rating or the ask instead of a feature', () => {
  it('names the features the listing has that no caption could say whole', () => {
    const skycast = corpus().find((e) => e.id === 'skycast')!.listing;
    const r = planScreenshotSet({
      listings: [skycast],
      extraContext: null,
      uploadedScreens: 5,
      request: { device: 'iphone-69', captionStyle: 'aso-expert', captionLength: 'long', count: 5 },
    });
    const warning = r.warnings.find((w) => INSTEAD.test(w));
    expect(warning).toMatch(/^Slide 5 shows the app's rating instead of another feature: the listing names more \("Check the air quality/);
    expect(warning).not.toMatch(/fewer features/);
    // It is true: no slide says the air quality.
    expect(r.slides.some((s) => /air quality/i.test(`${s.headline} ${s.subheadline ?? ''}`))).toBe(false);
  });

  it('says the listing names fewer features when it has said them all', () => {
    const oneSentence = sampleListing({
      name: 'Cutwise',
      subtitle: null,
      category: 'Photo & Video',
      description: 'Trim clips and add music in seconds.',
      rating: 4.2,
      ratingCount: 640,
    });
    const r = planScreenshotSet({ listings: [oneSentence], extraContext: null, request: { device: 'iphone-69', count: 5 } });
    const warnings = r.warnings.filter((w) => INSTEAD.test(w));
    expect(warnings.length).toBeGreaterThan(0);
    for (const w of warnings) expect(w).toMatch(/the listing names fewer features than the set has slides for\.$/);
  });
});

describe("the listing's screenshot count", () => {
  it('is said when its screenshots are framed, never when uploaded screens replace them', () => {
    const listing = sampleListing();
    const shots = listing.screenshots.iphone.slice(0, 2);
    const plan = (uploadedScreens?: number) =>
      planScreenshotSet({
        listings: [{ ...listing, screenshots: { ...listing.screenshots, iphone: shots } }],
        extraContext: null,
        ...(uploadedScreens === undefined ? {} : { uploadedScreens }),
        request: { device: 'iphone-69', count: 5 },
      }).warnings.filter((w) => /appear twice/.test(w));
    expect(plan()).toEqual(['The listing has 2 screenshots for 5 slides, so some screenshots appear twice.']);
    expect(plan(5)).toEqual([]);
  });
});
