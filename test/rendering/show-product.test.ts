/**
 * Every slide with a screen shows it (issue 30, item 1): an older iPhone's 9:16 screen in a phone
 * with a Home button, a phone's screen on a Play tablet slot in a phone, a marketing picture whole
 * and unframed, a landscape device on a portrait slide across the slide's width, and a portrait
 * one on a landscape slide beside its caption; landscape slides are the device's size turned.
 */
import sharp from 'sharp';
import { createCanvas } from '@napi-rs/canvas';
import { afterAll, describe, expect, it } from 'vitest';
import { RenderPool } from '../../src/rendering/pool.ts';
import { displayFor } from '../../src/core/displays.ts';
import { fitSet, scaleOf, textBlock } from '../../src/rendering/layout.ts';
import { sideGeometry, widePlacement } from '../../src/rendering/unframed.ts';
import { checkStoreRules } from '../../src/rendering/store-rules.ts';
import { CORNER_MARKS, markedScreen, marketingPicture } from './golden-cases.ts';
import { slide } from './support.ts';

const pool = new RenderPool({ threads: 1 });
afterAll(() => pool.close());

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
    for (const n of await marks(r.bytes)) expect(n).toBeGreaterThan(5);
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

  it('a portrait device on a landscape slide stands beside its caption, as tall as the slide allows', () => {
    const sc = scaleOf('iphone-69', 'landscape');
    const g = sideGeometry('iphone-69', displayFor('iphone-69', { width: 1290, height: 2796 }), sc);
    expect(g.frame!.height).toBeGreaterThanOrEqual(sc.height * 0.85);
    // The caption's column ends before the device begins.
    expect(g.textCx + g.textWidth / 2).toBeLessThanOrEqual(g.frame!.x);
  });

  it('a landscape device on a portrait slide spans the width, its caption right on it, the pair centred', () => {
    const ctx = createCanvas(1, 1).getContext('2d');
    const s = slide(0, 'Play It Wide', 'headline-top');
    const sc = scaleOf('iphone-69');
    const m = fitSet(ctx, 'iphone-69', [s]);
    const own = textBlock(ctx, s, m.headlineSizes[0], m.subSize, sc);
    const at = widePlacement('iphone-69', displayFor('iphone-69', { width: 2796, height: 1290 }), 'headline-top', m, own, sc);
    expect(at.frame!.width).toBeGreaterThanOrEqual(sc.width * 0.94);
    expect(at.frame!.y - (at.textTop + own.height)).toBe(sc.gap);
    const [above, below] = [at.textTop, sc.height - (at.frame!.y + at.frame!.height)];
    expect(Math.abs(above - below)).toBeLessThan(sc.height * 0.02);
  });
});
