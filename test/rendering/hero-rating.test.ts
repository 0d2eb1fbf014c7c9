/** The hero's store rating: drawn under its headline from 50 ratings at 4.0 or better, on the hero only. */
import { createCanvas } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_IDS } from '../../src/core/devices.ts';
import { THEME_IDS } from '../../src/core/themes.ts';
import { registerFonts } from '../../src/rendering/fonts.ts';
import { RenderPool } from '../../src/rendering/index.ts';
import { fitSet, scaleOf } from '../../src/rendering/layout.ts';
import { ratingFit, ratingLine, shownRating } from '../../src/rendering/rating.ts';
import type { StoreRating } from '../../src/rendering/types.ts';
import { markedScreen } from './golden-cases.ts';
import { slide } from './support.ts';

const pool = new RenderPool({ threads: 1 });
afterAll(() => pool.close());
beforeAll(() => registerFonts());

describe("the hero's rating", () => {
  it('is shown from 50 ratings at 4.0 or better, as stars, the value and the count', () => {
    expect(shownRating({ value: 4.8, count: 49 })).toBeNull();
    expect(shownRating({ value: 3.9, count: 5000 })).toBeNull();
    expect(shownRating({ value: 4.8, count: 50 })).toEqual({ value: 4.8, count: 50 });
    expect(ratingLine({ value: 4.76, count: 12840 })).toBe('★★★★★  4.7 · 12.8K+ ratings');
    expect(ratingLine({ value: 4.2, count: 50 })).toBe('★★★★☆  4.2 · 50 ratings');
  });

  // The bold theme's subheadline size (a 1.6th of its Black headline) set the line at 108 px on an
  // iPhone: 1,580 px wide on a 1,320 px slide, cut at both edges.
  it.each(THEME_IDS.flatMap((theme) => DEVICE_IDS.map((device) => [theme, device] as const)))(
    'fits the text column in %s on %s',
    (theme, device) => {
      const ctx = createCanvas(1, 1).getContext('2d');
      const sc = scaleOf(device);
      const slides = [slide(0, 'Track Every Habit', 'hero-centered', { subheadline: 'Plan your week' })];
      const m = fitSet(ctx, device, slides, theme);
      const fit = ratingFit(ctx, { value: 4.76, count: 12840 }, m, sc);
      expect(fit.width).toBeLessThanOrEqual(sc.textWidth);
      expect(fit.size).toBeGreaterThanOrEqual(Math.min(m.subSize, sc.base * 0.04) * 0.8);
    },
  );

  it('is drawn on the hero slide only', async () => {
    const slides = [slide(0, 'Track Every Habit', 'hero-centered'), slide(1, 'Smart Reminders', 'headline-top')];
    const screen = await markedScreen(660, 1434);
    const draw = async (rating?: StoreRating) =>
      (await pool.renderSlides({ device: 'android-phone', slides, screens: [screen, screen], ...(rating ? { rating } : {}) })).map(
        (s) => s.bytes,
      );
    const [none, few, enough] = await Promise.all([draw(), draw({ value: 4.8, count: 49 }), draw({ value: 4.8, count: 50 })]);
    expect(few[0].equals(none[0])).toBe(true);
    expect(enough[0].equals(none[0])).toBe(false);
    expect(enough[1].equals(none[1])).toBe(true);
  });
});
