/**
 * Every slide with a screen shows it (issue 30, item 1): an older iPhone's 9:16 screen in a phone
 * with a Home button, a phone's screen on a Play tablet slot in a phone, a marketing picture whole
 * and unframed, a landscape device on a portrait slide stood upright with its screen turned, and a portrait
 * one on a landscape slide beside its caption; landscape slides are the device's size turned.
 */
import sharp from 'sharp';
import { createCanvas } from '@napi-rs/canvas';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderPool } from '../support/render-pool.ts';
import { displayFor } from '../../src/core/displays.ts';
import { fitSet, scaleOf } from '../../src/rendering/layout.ts';
import { sideGeometry } from '../../src/rendering/unframed.ts';
import { arrange } from '../../src/rendering/compose.ts';
import { registerFonts } from '../../src/rendering/fonts.ts';
import { ratingRoom } from '../../src/rendering/rating.ts';
import { THEME_IDS, themeFor } from '../../src/core/themes.ts';
import type { SlideTask } from '../../src/rendering/types.ts';
import { checkStoreRules } from '../../src/rendering/store-rules.ts';
import { CORNER_MARKS, markedScreen, marketingPicture } from './golden-cases.ts';
import { slide } from './support.ts';

const pool = renderPool();
beforeAll(() => registerFonts());

/** How many pixels of each corner mark the slide shows: all four, or the screen is cut. */
async function marks(png: Buffer): Promise<number[]> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const rgb = CORNER_MARKS.map((h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16)));
  const counts = [0, 0, 0, 0];
  for (let i = 0; i < data.length; i += info.channels * 3)
    rgb.forEach((c, k) => {
      if (Math.abs(data[i] - c[0]) < 40 && Math.abs(data[i + 1] - c[1]) < 40 && Math.abs(data[i + 2] - c[2]) < 40) counts[k]++;
    });
  return counts;
}

describe('frames for screens of another shape', () => {
  it.each([
    ['an older iPhone’s 9:16 screen', 'iphone-69', [1242, 2208], 'iphone-home'],
    ['an iPhone 8’s 750×1334 screen', 'iphone-65', [750, 1334], 'iphone-home'],
    ['a phone’s screen on a Play tablet slot', 'android-tablet', [1080, 2400], 'android-phone'],
  ] as const)('%s on %s is framed whole', async (_, device, [w, h], frame) => {
    expect(displayFor(device, { width: w, height: h }).frame).toBe(frame);
    const [r] = await pool.renderSlides({ device, slides: [slide(0, 'Shown Whole', 'headline-top')], screens: [await markedScreen(w, h)] });
    expect(r.lint).toMatchObject({ marketingImage: null, screenCroppedPct: 0, problems: [] });
    // Nothing cut by the display's shape. A 20:9 phone on a 9:16 tablet slide is taller than the
    // slide: it bleeds off the bottom edge by design (6 % of the height at least, never a sliver:
    // docs/composition.md), counted apart, and its bottom marks go with it.
    const shown = await marks(r.bytes);
    for (const n of (r.lint.screenBleedPct ?? 0) > 0 ? shown.slice(0, 2) : shown) expect(n).toBeGreaterThan(5);
  });

  it('a marketing picture is shown whole and unframed, not as a text slide', async () => {
    const [r] = await pool.renderSlides({
      device: 'iphone-69',
      slides: [slide(0, 'Already Composed', 'headline-top')],
      screens: [await marketingPicture(1242, 2208)],
    });
    expect(r.lint.marketingImage).toMatch(/device frame/);
    expect(r.lint.screenCroppedPct).toBeLessThanOrEqual(0.5);
  });
});

describe('turned slides', () => {
  it.each([
    ['iphone-69', [2796, 1290], 2868, 1320],
    ['ipad-13', [2732, 2048], 2752, 2064],
    ['android-phone', [2400, 1080], 1920, 1080],
    ['android-tablet', [2560, 1600], 2560, 1600],
  ] as const)('%s landscape: %s screen on a %ix%i slide the store takes, shown whole', async (device, [w, h], width, height) => {
    const [r] = await pool.renderSlides({
      device,
      orientation: 'landscape',
      slides: [slide(0, 'Play It Wide', 'headline-top')],
      screens: [await markedScreen(w, h)],
    });
    const meta = await sharp(r.bytes).metadata();
    expect([meta.width, meta.height]).toEqual([width, height]);
    expect(checkStoreRules(r.bytes, device)).toEqual([]);
    expect(r.lint).toMatchObject({ marketingImage: null, screenCroppedPct: 0 });
    for (const n of await marks(r.bytes)) expect(n).toBeGreaterThan(5);
  });

  // The hero of a landscape set was a straight device 10 % larger than the features': it leans too
  // now; a frameless one stands (hm1: leaning, its square bottom corners cut the edge in a wedge).
  // The rating is beside a one-line headline where the pair fits (coverRatingRow), else under it.
  it.each(THEME_IDS)('a landscape hero on a landscape slide leans, clear of its text and rating and on the slide (%s)', (theme) => {
    const ctx = createCanvas(1, 1).getContext('2d');
    const slides = [slide(0, 'Play It Wide', 'hero-centered', { subheadline: 'Every level on the big screen' })];
    const sc = scaleOf('iphone-69', 'landscape');
    const metrics = fitSet(ctx, 'iphone-69', slides, theme, 'landscape');
    const rating = { value: 4.7, count: 1200 };
    const task: SlideTask = {
      kind: 'slide',
      index: 0,
      device: 'iphone-69',
      orientation: 'landscape',
      slide: slides[0],
      screen: new Uint8Array(1),
      metrics,
      panorama: null,
      theme,
      rating,
    };
    const { block, at, tilt, row } = arrange(ctx, task, displayFor('iphone-69', { width: 2796, height: 1290 }), false);
    if (theme === 'full-bleed') expect(tilt).toBe(0);
    else expect(Math.abs(tilt)).toBeGreaterThanOrEqual((2 * Math.PI) / 180);
    const b = at.frame ?? at.bleed!;
    const below = at.textTop + block.height + (row ? 0 : ratingRoom(ctx, rating, metrics, sc));
    const [cx, cy] = [b.x + b.width / 2, b.y + b.height / 2];
    for (const dx of [-b.width / 2, b.width / 2]) {
      const x = cx + dx * Math.cos(tilt) + (b.height / 2) * Math.sin(tilt);
      const y = cy + dx * Math.sin(tilt) - (b.height / 2) * Math.cos(tilt);
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThanOrEqual(sc.width);
      expect(y).toBeGreaterThanOrEqual(below);
    }
  });

  it('a portrait device on a landscape slide stands beside its caption, as tall as the slide allows', () => {
    const sc = scaleOf('iphone-69', 'landscape');
    const g = sideGeometry('iphone-69', displayFor('iphone-69', { width: 1290, height: 2796 }), sc);
    expect(g.frame!.height).toBeGreaterThanOrEqual(sc.height * 0.85);
    // The caption's column ends before the device begins.
    expect(g.textCx + g.textWidth / 2).toBeLessThanOrEqual(g.frame!.x);
  });

  // The largest band of the slide's height that holds neither text nor product: laid flat across
  // the width, a landscape phone left a third of an iPhone slide empty above and below its caption.
  it.each(
    THEME_IDS.flatMap((theme) => (['hero-centered', 'headline-top', 'headline-bottom'] as const).map((layout) => [theme, layout] as const)),
  )(
    'a landscape screen on a portrait slide (%s, %s): its device stood upright, big, no dead band, clear of the rating',
    (theme, layout) => {
      const ctx = createCanvas(1, 1).getContext('2d');
      const slides = [slide(0, 'Play It Wide', layout, { subheadline: 'Every level on the big screen' })];
      const sc = scaleOf('iphone-69');
      const metrics = fitSet(ctx, 'iphone-69', slides, theme);
      const rating = { value: 4.7, count: 1200 };
      const task: SlideTask = {
        kind: 'slide',
        index: 0,
        device: 'iphone-69',
        slide: slides[0],
        screen: new Uint8Array(1),
        metrics,
        panorama: null,
        theme,
        rating,
      };
      const { block, at, turned } = arrange(ctx, task, displayFor('iphone-69', { width: 2796, height: 1290 }), false);
      expect(turned).toBe(true);
      const box = at.frame ?? at.bleed!;
      const frameless = themeFor(theme).screen === 'bleed';
      expect(box.height).toBeGreaterThan(box.width);
      expect(box.width / sc.width).toBeGreaterThanOrEqual(frameless ? 0.88 : layout === 'hero-centered' ? 0.78 : 0.7);
      const textBottom = at.textTop + block.height + (layout === 'hero-centered' ? ratingRoom(ctx, rating, metrics, sc) : 0);
      // Clear of the text and of the hero's rating line.
      expect(box.y >= textBottom || box.y + box.height <= at.textTop).toBe(true);
      const filled = [
        [at.textTop, textBottom],
        [box.y, box.y + box.height],
      ].sort((p, q) => p[0] - q[0]);
      let band = 0;
      let edge = 0;
      for (const [top, bottom] of filled) {
        band = Math.max(band, top - edge);
        edge = Math.max(edge, bottom);
      }
      band = Math.max(band, sc.height - edge);
      expect(band / sc.height).toBeLessThan(0.1);
    },
  );
});
