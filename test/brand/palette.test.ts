/** Brand colours from generated icons: the icon's colour is the brand's, and text on it always reaches AA. */
import fc from 'fast-check';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { contrastRatio, fromHex, MIN_CONTRAST, rgbToHsl } from '../../src/core/colour.ts';
import { paletteFromIcon } from '../../src/brand/icon-colors.ts';
import { fallbackPalette, paletteFromColors } from '../../src/brand/palette.ts';

const hue = (hex: string) => rgbToHsl(fromHex(hex))[0];
const sat = (hex: string) => rgbToHsl(fromHex(hex))[1];
const near = (a: number, b: number, within: number) => Math.min(Math.abs(a - b), 360 - Math.abs(a - b)) <= within;

/** A 512×512 icon: a plate of one colour with a disc of another in the middle. */
async function icon(plate: string, disc: string | null, opts: { alpha?: boolean } = {}): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512">
    ${opts.alpha ? '' : `<rect width="512" height="512" rx="110" fill="${plate}"/>`}
    ${disc ? `<circle cx="256" cy="256" r="150" fill="${disc}"/>` : ''}
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

function readable(p: { primary: string; secondary: string; textColor: string }) {
  expect(contrastRatio(p.primary, p.textColor)).toBeGreaterThanOrEqual(MIN_CONTRAST);
  expect(contrastRatio(p.secondary, p.textColor)).toBeGreaterThanOrEqual(MIN_CONTRAST);
}

describe('colours from the icon', () => {
  it('a green icon gives a green brand', async () => {
    const p = await paletteFromIcon(await icon('#1DB954', '#FFFFFF'));
    expect(near(hue(p.primary), 141, 10)).toBe(true);
    readable(p);
  });

  it('a red glyph on a white plate gives red, not white', async () => {
    const p = await paletteFromIcon(await icon('#FFFFFF', '#E53935'));
    expect(near(hue(p.primary), 1, 10)).toBe(true);
    expect(sat(p.primary)).toBeGreaterThan(0.4);
    readable(p);
  });

  it('a two-colour icon gives both colours', async () => {
    const p = await paletteFromIcon(await icon('#1E63E9', '#7B3FE4'));
    const hues = [hue(p.primary), hue(p.secondary)];
    expect(hues.some((h) => near(h, 220, 12))).toBe(true);
    expect(hues.some((h) => near(h, 262, 12))).toBe(true);
    readable(p);
  });

  it('a complementary second colour is no gradient end: blue and orange give blue and a neighbour of blue', async () => {
    const p = await paletteFromIcon(await icon('#1E63E9', '#FF9F0A'));
    expect(near(hue(p.primary), 220, 12)).toBe(true);
    expect(near(hue(p.secondary), 220, 40)).toBe(true);
    expect(p.textColor).toBe('#FFFFFF');
    readable(p);
  });

  it('a saturated red takes white text and stays red, a yellow gets an orange neighbour, not lime', async () => {
    const red = await paletteFromIcon(await icon('#FFFFFF', '#E53935'));
    expect(red.textColor).toBe('#FFFFFF');
    expect(near(hue(red.secondary), hue(red.primary), 40)).toBe(true);
    const yellow = await paletteFromIcon(await icon('#FFD43B', null));
    expect(hue(yellow.secondary)).toBeLessThan(hue(yellow.primary));
  });

  it('a one-colour icon gets a neighbouring hue as its secondary', async () => {
    const p = await paletteFromIcon(await icon('#8E44AD', null));
    expect(near(hue(p.primary), 282, 10)).toBe(true);
    expect(p.secondary).not.toBe(p.primary);
    expect(near(hue(p.secondary), hue(p.primary), 45)).toBe(true);
    readable(p);
  });

  it('ignores transparent pixels', async () => {
    const p = await paletteFromIcon(await icon('#000000', '#F4C20D', { alpha: true }));
    expect(near(hue(p.primary), 46, 10)).toBe(true);
  });

  it('a light yellow brand stays yellow and takes dark text', async () => {
    const p = await paletteFromIcon(await icon('#FFE14D', '#FFFFFF'));
    expect(near(hue(p.primary), 50, 10)).toBe(true);
    expect(p.textColor).toBe('#111827');
    readable(p);
  });

  it('refuses bytes that are not an image', async () => {
    await expect(paletteFromIcon(Buffer.from('<html>consent</html>'))).rejects.toThrow();
  });
});

describe('fallback and chosen colours', () => {
  it('the fallback is the same for the same name, and readable', () => {
    expect(fallbackPalette('Pantry Planner')).toEqual(fallbackPalette('Pantry Planner'));
    expect(fallbackPalette('Pantry Planner')).not.toEqual(fallbackPalette('Trail Finder'));
    fc.assert(
      fc.property(fc.string(), (name) => readable(fallbackPalette(name))),
      { numRuns: 300 },
    );
  });

  it('chosen colours are kept as they are when one text colour reads on both, refused otherwise', () => {
    expect(paletteFromColors({ primary: '#0B3D91', secondary: '#1F6FEB' })).toEqual({
      primary: '#0B3D91',
      secondary: '#1F6FEB',
      textColor: '#FFFFFF',
    });
    // Navy and yellow: white fails on yellow, dark fails on navy.
    expect(paletteFromColors({ primary: '#000080', secondary: '#FFFF00' })).toBeNull();
  });
});
