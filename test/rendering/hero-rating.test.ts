/** The hero's store rating: drawn under its headline from 50 ratings at 4.0 or better, on the hero only. */
import { createCanvas } from '@napi-rs/canvas';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_IDS } from '../../src/core/devices.ts';
import { THEME_IDS } from '../../src/core/themes.ts';
import { registerFonts, setFont } from '../../src/rendering/fonts.ts';
import { renderPool } from '../support/render-pool.ts';
import { fitSet, RATING_ROW_PT, scaleOf, textBlock, THUMBNAIL_PT } from '../../src/rendering/layout.ts';
import { drawRating, ratingFit, ratingLine, ratingRow, ROW_REACH, shownRating, starFills, starsLit } from '../../src/rendering/rating.ts';
import { HEADLINE_LINE_HEIGHT } from '../../src/rendering/text.ts';
import type { StoreRating } from '../../src/rendering/types.ts';
import { markedScreen } from './golden-cases.ts';
import { slide } from './support.ts';

const pool = renderPool();
beforeAll(() => registerFonts());

describe("the hero's rating", () => {
  it('is shown from 50 ratings at 4.0 or better, as stars, the value and the count', () => {
    expect(shownRating({ value: 4.8, count: 49 })).toBeNull();
    expect(shownRating({ value: 3.9, count: 5000 })).toBeNull();
    expect(shownRating({ value: 4.8, count: 50 })).toEqual({ value: 4.8, count: 50 });
    expect(ratingLine({ value: 4.76, count: 12840 })).toBe('★★★★★  4.7 · 12.8K+ ratings');
    expect(ratingLine({ value: 4.2, count: 50 })).toBe('★★★★★  4.2 · 50 ratings');
    // Lit to the value floored to a half star, as the stores draw them: five full stars (or four
    // and 94 % of a row of glyphs) beside "4.7" claimed more than the figure.
    expect(starsLit({ value: 4.78, count: 12840 })).toBe(4.5);
    expect(starFills({ value: 4.78, count: 12840 })).toEqual([1, 1, 1, 1, 0.5]);
    expect(starsLit({ value: 4.49, count: 50 })).toBe(4);
    expect(starFills({ value: 4.2, count: 50 })).toEqual([1, 1, 1, 1, 0]);
    expect(starFills({ value: 5, count: 50 })).toEqual([1, 1, 1, 1, 1]);
  });

  it('lights the stars to the floored half star: a 4.78 lights half the fifth star, a 4.2 none of it', () => {
    const device = 'android-phone';
    const sc = scaleOf(device);
    const ctx0 = createCanvas(1, 1).getContext('2d');
    const m = fitSet(ctx0, device, [slide(0, 'Track Every Habit', 'hero-centered')], 'dark');
    // The fifth star's ink, white on black, summed over its cell's left and right halves, found
    // from the line's own metrics (the line is centred; the stars lead it).
    const fifth = (value: number) => {
      const r = { value, count: 5000 };
      const canvas = createCanvas(sc.width, 400);
      const ctx = canvas.getContext('2d');
      ctx.fillStyle = '#000';
      ctx.fillRect(0, 0, sc.width, 400);
      drawRating(ctx, r, m, sc, '#fff', 0);
      const { size } = ratingFit(ctx, r, m, sc);
      setFont(ctx, 700, size, ratingLine(r));
      const left = (sc.width - ctx.measureText(ratingLine(r)).width) / 2;
      const star = ctx.measureText('★★★★★').width / 5;
      const ink = (from: number) => {
        const px = ctx.getImageData(Math.round(from), 0, Math.floor(star / 2), 400).data;
        let sum = 0;
        for (let i = 0; i < px.length; i += 4) sum += px[i];
        return sum;
      };
      return [ink(left + star * 4), ink(left + star * 4.5)];
    };
    const [fullLeft, fullRight] = fifth(5);
    expect(fullLeft).toBeGreaterThan(0);
    expect(fullRight).toBeGreaterThan(0);
    // 4.78: the left half lit, the right half faint (Before: 94 % of the row lit the star almost whole.)
    const [l478, r478] = fifth(4.78);
    expect(l478 / fullLeft).toBeGreaterThan(0.95);
    expect(r478 / fullRight).toBeLessThan(0.4);
    // 4.99 is still four and a half: never more than the store's figure.
    expect(fifth(4.99)[1] / fullRight).toBeLessThan(0.4);
    const [l42, r42] = fifth(4.2);
    expect(l42 / fullLeft).toBeLessThan(0.4);
    expect(r42 / fullRight).toBeLessThan(0.4);
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
    // An Android tablet: its cover leads its features by more than COVER_LEAD with or without
    // the rating, so the feature's device does not move either (on an Android phone the rating
    // lowers the cover, and the features yield to it: cover-lead.ts).
    const screen = await markedScreen(800, 1280);
    const draw = async (rating?: StoreRating) =>
      (await pool.renderSlides({ device: 'android-tablet', slides, screens: [screen, screen], ...(rating ? { rating } : {}) })).map(
        (s) => s.bytes,
      );
    const [none, few, enough] = await Promise.all([draw(), draw({ value: 4.8, count: 49 }), draw({ value: 4.8, count: 50 })]);
    expect(few[0].equals(none[0])).toBe(true);
    expect(enough[0].equals(none[0])).toBe(false);
    expect(enough[1].equals(none[1])).toBe(true);
  });

  // Beside a landscape cover's one-line headline, bound to its line box, the rating was 5.8 pt at
  // store size on iPhone landscape's regular themes (50 px), the smallest of any set (design read
  // 2026-11-29-design-second). Its two lines may stand up to ROW_REACH × the line box, centred on
  // it, to reach the portrait sets' 6.4 pt.
  it.each(['soft', 'dark', 'panoramic', 'full-bleed'] as const)('beside the headline on iPhone landscape, %s: at least 6.4 pt', (theme) => {
    const ctx = createCanvas(1, 1).getContext('2d');
    const sc = scaleOf('iphone-69', 'landscape');
    const cover = slide(0, 'Build Better Habits Daily', 'hero-centered');
    const m = fitSet(ctx, 'iphone-69', [cover], theme, 'landscape');
    const block = textBlock(ctx, cover, m.headlineSizes[0], m.subSize, sc, theme);
    const wanted = Math.ceil((sc.base * RATING_ROW_PT) / THUMBNAIL_PT);
    const row = ratingRow(ctx, { value: 4.78, count: 12840 }, block, sc, 0, wanted)!;
    expect((row.size * THUMBNAIL_PT) / sc.base).toBeGreaterThanOrEqual(RATING_ROW_PT);
    expect(row.size * 2 * 1.25).toBeLessThanOrEqual(block.headlineSize * HEADLINE_LINE_HEIGHT * ROW_REACH);
  });
});
