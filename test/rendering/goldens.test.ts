import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { THEME_IDS } from '../../src/core/themes.ts';
import { DEVICES } from '../../src/core/devices.ts';
import { checkStoreRules } from '../../src/rendering/index.ts';
import { renderPool } from '../support/render-pool.ts';
import { CORNER_MARKS, GOLDEN_CASES, GOLDEN_DIR, renderCase, small, themeCases, themeSheet } from './golden-cases.ts';
import { compareWithGolden } from './golden-diff.ts';

// Anti-aliasing may shift between skia builds; a changed layout, frame or colour moves far more.
const MAX_DIFF_SHARE = 0.01;

const pool = renderPool();
const render = renderCase(pool);

function matches(got: { data: Buffer; width: number; height: number }, name: string): number {
  const file = fileURLToPath(new URL(`${name}.png`, GOLDEN_DIR));
  expect(existsSync(file), `missing golden ${file}: run npm run render:goldens and review it`).toBe(true);
  // A failure writes the picture it got and the diff beside the golden, to be looked at.
  const { share, sameSize, written } = compareWithGolden(file, got, MAX_DIFF_SHARE);
  expect(sameSize, `got written to ${written.join(' and ')}`).toBe(true);
  if (share >= MAX_DIFF_SHARE)
    console.error(`${name}: ${(share * 100).toFixed(2)} % differs; got and diff written to ${written.join(' and ')}`);
  return share;
}

/**
 * Per channel value, which corner marks it is within 7 of (one bit per mark): a pixel is a mark's
 * when all three of its channels carry that mark's bit.
 */
const MARK_BITS = [0, 1, 2].map((channel) => {
  const bits = new Uint8Array(256);
  CORNER_MARKS.forEach((hex, i) => {
    const mark = parseInt(hex.slice(1 + 2 * channel, 3 + 2 * channel), 16);
    for (let v = 0; v < 256; v++) if (Math.abs(v - mark) < 8) bits[v] |= 1 << i;
  });
  return bits;
});

/** How many pixels of each corner mark colour the full-size picture shows. */
async function markPixels(png: Buffer): Promise<number[]> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const [red, green, blue] = MARK_BITS;
  const counts = CORNER_MARKS.map(() => 0);
  // Plain loops and three table look-ups a pixel: ~40 full-size pictures are scanned (the four
  // comparisons of each mark per pixel took 2.6 of the file's CPU seconds).
  for (let p = 0; p < data.length; p += info.channels) {
    const hit = red[data[p]] & green[data[p + 1]] & blue[data[p + 2]];
    if (hit !== 0) for (let i = 0; i < counts.length; i++) if (hit & (1 << i)) counts[i]++;
  }
  return counts;
}

describe('golden images (small scale, perceptual tolerance)', () => {
  it.each(GOLDEN_CASES.map((c) => [c.name, c] as const))('%s matches its golden', async (name, c) => {
    const slides = await render(c);
    // The slides drawn: the ones some case looks at (golden-cases.ts setRenderer).
    for (const s of Object.values(slides)) expect(checkStoreRules(s.bytes, c.device)).toEqual([]);
    expect(matches(await small(slides[c.index].bytes), name)).toBeLessThan(MAX_DIFF_SHARE);
  });

  it.each(THEME_IDS)('theme %s on every device matches its sheet', async (theme) => {
    const cases = themeCases(theme);
    const slides = await Promise.all(cases.map(async (c) => (await render(c))[c.index]));
    for (const [i, s] of slides.entries()) expect(checkStoreRules(s.bytes, cases[i].device)).toEqual([]);
    expect(matches(await themeSheet(slides.map((s) => s.bytes)), `theme-${theme}`)).toBeLessThan(MAX_DIFF_SHARE);
  });
});

/**
 * The screen whole, or (a device larger than the room beside its text) bleeding off one edge of
 * the slide by design: then the two marks on the other edge still show, and the lint says how
 * much is past the edge. Nothing is cut to fit a display of another shape.
 */
function expectShown(
  counts: number[],
  lint: { screenCroppedPct: number | null; screenBleedPct?: number | null },
  what: string,
  turned = false,
): void {
  const [tl, tr, bl, br] = counts.map((n) => n > 20);
  if (!lint.screenBleedPct) expect([tl, tr, bl, br], what).toEqual([true, true, true, true]);
  // A landscape screen turned in an upright device has its left edge at the device's top.
  else if (turned) expect((tl && bl) || (tr && br), what).toBe(true);
  else expect((tl && tr) || (bl && br), what).toBe(true);
  // Half the device at most: bold on a Play phone hides ~49 % since the set's one headline size grew (8 % of the width).
  expect(lint.screenBleedPct ?? 0, what).toBeLessThan(50);
  expect(lint.screenCroppedPct, what).toBeLessThanOrEqual(5);
}

describe('screens shown whole, or bleeding off one edge', () => {
  const framed = GOLDEN_CASES.filter((c) => c.screen && !c.marketing && c.slides[c.index].layout !== 'text-only');
  it.each(framed.map((c) => [c.name, c] as const))('%s: the corner marks on the slide are visible', async (name, c) => {
    const s = (await render(c))[c.index];
    const { width, height } = DEVICES[c.device];
    expectShown(await markPixels(s.bytes), s.lint, name, !!c.screen && c.screen[0] > c.screen[1] && width < height);
    expect(s.lint.marketingImage).toBeNull();
  });

  it.each(THEME_IDS)(
    'theme %s: every device shows its screen',
    async (theme) => {
      for (const c of themeCases(theme)) {
        const s = (await render(c))[c.index];
        expectShown(await markPixels(s.bytes), s.lint, c.device);
      }
      // Seven full-size pictures scanned pixel by pixel: slow on a busy machine, not a timing test.
    },
    120_000,
  );

  it('a listing picture that is already a composition is not framed again, but shown whole', async () => {
    const c = GOLDEN_CASES.find((g) => g.marketing)!;
    const s = (await render(c))[c.index];
    expect(s.lint.marketingImage).toMatch(/aspect|device frame/);
    // Whole: the card has the picture's own shape, up to a pixel's rounding.
    expect(s.lint.screenCroppedPct).toBeLessThanOrEqual(0.5);
  });
});
