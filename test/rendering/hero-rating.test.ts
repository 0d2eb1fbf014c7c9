/** The hero's store rating: drawn under its headline from 50 ratings at 4.0 or better, on the hero only. */
import { afterAll, describe, expect, it } from 'vitest';
import { RenderPool } from '../../src/rendering/index.ts';
import { ratingLine, shownRating } from '../../src/rendering/rating.ts';
import type { StoreRating } from '../../src/rendering/types.ts';
import { markedScreen } from './golden-cases.ts';
import { slide } from './support.ts';

const pool = new RenderPool({ threads: 1 });
afterAll(() => pool.close());

describe("the hero's rating", () => {
  it('is shown from 50 ratings at 4.0 or better, as stars, the value and the count', () => {
    expect(shownRating({ value: 4.8, count: 49 })).toBeNull();
    expect(shownRating({ value: 3.9, count: 5000 })).toBeNull();
    expect(shownRating({ value: 4.8, count: 50 })).toEqual({ value: 4.8, count: 50 });
    expect(ratingLine({ value: 4.76, count: 12840 })).toBe('★★★★★  4.7 · 12.8K+ ratings');
    expect(ratingLine({ value: 4.2, count: 50 })).toBe('★★★★☆  4.2 · 50 ratings');
  });

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
