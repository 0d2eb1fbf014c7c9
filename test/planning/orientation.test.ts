/**
 * A set's orientation (CONTRACT, fourth milestone): asked for, or landscape when every screen the
 * set frames is; landscape slides are the device's size turned, never past Play's 2:1. Shots of
 * the other orientation are kept, after the matching ones, so a landscape game is never refused.
 */
import { describe, expect, it } from 'vitest';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import { assignScreens, screensFor } from '../../src/planning/screens.ts';
import { slideSize } from '../../src/core/orientation.ts';
import { DEVICE_IDS } from '../../src/core/devices.ts';
import { isProblem } from '../../src/core/problem.ts';
import type { PlanRequest } from '../../src/core/set.ts';
import type { Listing, Screenshot } from '../../src/core/listing.ts';
import { sampleListing } from '../support/fixtures.ts';

const shot = (name: string, width: number, height: number): Screenshot => ({
  url: `https://is1-ssl.mzstatic.com/image/thumb/${name}/${width}x${height}bb.png`,
  width,
  height,
});

/** An App Store listing whose iPhone shots are these. */
function listingWith(iphone: Screenshot[]): Listing {
  const l = sampleListing();
  return { ...l, screenshots: { ...l.screenshots, iphone } };
}

const game = () => listingWith([shot('g1', 2796, 1290), shot('g2', 2796, 1290), shot('g3', 2796, 1290)]);
const plan = (
  listing: Listing,
  request: Partial<PlanRequest> = {},
  extra: { uploadedScreens?: number; uploadedLandscape?: boolean } = {},
) => planScreenshotSet({ listings: [listing], extraContext: null, request: { device: 'iphone-69', count: 3, ...request }, ...extra });

describe('slide sizes turned', () => {
  it('are the store sizes CONTRACT names, and never past 2:1 on Google Play', () => {
    expect(slideSize('iphone-69', 'landscape')).toEqual({ width: 2868, height: 1320 });
    expect(slideSize('ipad-13', 'landscape')).toEqual({ width: 2752, height: 2064 });
    expect(slideSize('android-phone', 'landscape')).toEqual({ width: 1920, height: 1080 });
    expect(slideSize('android-tablet', 'landscape')).toEqual({ width: 2560, height: 1600 });
    expect(slideSize('mac', 'landscape')).toEqual({ width: 2880, height: 1800 });
    for (const d of DEVICE_IDS) {
      const { width, height } = slideSize(d, 'landscape');
      expect(width, d).toBeGreaterThan(height);
      if (d.startsWith('android')) expect(width / height, d).toBeLessThanOrEqual(2);
    }
  });
});

describe('a landscape-only listing', () => {
  it('plans landscape slides framing its shots, with nothing refused even when the app has no uploads', () => {
    const r = plan(game(), {}, { uploadedScreens: 0 });
    expect(r).toMatchObject({ width: 2868, height: 1320 });
    expect(r.slides.every((s) => s.layout !== 'text-only' && /\/g[123]\//.test(s.screenshotUrl ?? ''))).toBe(true);
    expect(r.warnings.join(' ')).not.toMatch(/landscape|text-only/);
  });

  it('plans portrait slides, still showing every shot, when portrait is asked, and says so', () => {
    const r = plan(game(), { orientation: 'portrait' }, { uploadedScreens: 0 });
    expect(r).toMatchObject({ width: 1320, height: 2868 });
    expect(r.slides.every((s) => s.screenshotUrl !== null && s.layout !== 'text-only')).toBe(true);
    expect(r.warnings).toContainEqual(expect.stringMatching(/all landscape and the iphone-69 slides portrait \(as asked\)/));
  });

  it('is landscape on Google Play too: 1920×1080 phone slides', () => {
    const l = sampleListing({ store: 'google-play', storeId: 'com.example.game' });
    const r = planScreenshotSet({
      listings: [
        { ...l, screenshots: { ...l.screenshots, iphone: [], 'android-phone': [shot('p1', 2400, 1080), shot('p2', 2400, 1080)] } },
      ],
      extraContext: null,
      request: { device: 'android-phone', count: 2 },
    });
    expect(r).toMatchObject({ width: 1920, height: 1080 });
  });
});

describe('mixed and uploaded screens', () => {
  it('keeps a portrait set for mixed shots, the landscape ones after the portrait ones (before any repeats)', () => {
    const mixed = listingWith([shot('l1', 2796, 1290), shot('p1', 1290, 2796), shot('p2', 1290, 2796)]);
    const s = screensFor([mixed], 'iphone-69');
    expect(s.orientation).toBe('portrait');
    expect(s.urls.map((u) => u.split('/')[5])).toEqual(['p1', 'p2', 'l1']);
    expect(s.warnings).toContainEqual(expect.stringMatching(/^1 of the listing's iPhone screenshots are landscape/));
    expect(assignScreens(['hero', 'feature', 'feature'], s.urls).map((u) => u?.split('/')[5])).toEqual(['p1', 'p2', 'l1']);
  });

  it('follows the uploads when the app has some: all landscape uploads make a landscape set, whatever the listing', () => {
    expect(plan(sampleListing(), {}, { uploadedScreens: 2, uploadedLandscape: true })).toMatchObject({ width: 2868, height: 1320 });
    expect(plan(game(), {}, { uploadedScreens: 2, uploadedLandscape: false })).toMatchObject({ width: 1320, height: 2868 });
  });

  it('turns a set when landscape is asked or a turned size is', () => {
    expect(plan(sampleListing(), { orientation: 'landscape' })).toMatchObject({ width: 2868, height: 1320 });
    expect(plan(sampleListing(), { size: '2868x1320' })).toMatchObject({ width: 2868, height: 1320 });
    expect(plan(game(), { size: '1320x2868' })).toMatchObject({ width: 1320, height: 2868 });
  });
});

describe('orientation is checked', () => {
  it('refuses portrait for a Mac and an unknown value, naming the field', () => {
    for (const request of [
      { device: 'mac' as const, orientation: 'portrait' as const },
      { orientation: 'sideways' as unknown as 'portrait' },
    ]) {
      let thrown: unknown;
      try {
        plan(sampleListing(), request);
      } catch (error) {
        thrown = error;
      }
      expect(isProblem(thrown) && thrown.code).toBe('validation_failed');
      expect(JSON.stringify((thrown as { extensions: unknown }).extensions)).toMatch(/"field":"orientation"/);
    }
  });
});
