import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { encodeRgbPng } from '../../src/rendering/png.ts';
import { checkStoreRules } from '../../src/rendering/store-rules.ts';

/** Pixels that change in every channel from pixel to pixel and row to row, alpha included (to be dropped). */
function pattern(width: number, height: number, seed: number): Uint8Array {
  const d = new Uint8Array(width * height * 4);
  let s = seed;
  for (let i = 0; i < d.length; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    d[i] = i % 4 === 3 ? 255 : (s >>> 16) & 0xff;
  }
  return d;
}

async function decoded(png: Buffer) {
  return sharp(png).raw().toBuffer({ resolveWithObject: true });
}

describe('encodeRgbPng', () => {
  // Widths with 0-3 pixels past the last group of four, a single row and a single column.
  it.each([
    [1, 1],
    [4, 3],
    [5, 7],
    [6, 2],
    [7, 9],
    [64, 1],
    [1, 40],
    [131, 17],
  ])('writes %i×%i pixels that decode to the same RGB', async (width, height) => {
    const rgba = pattern(width, height, width * 31 + height);
    const png = encodeRgbPng(rgba, width, height);
    const { data, info } = await decoded(png);
    expect([info.width, info.height, info.channels]).toEqual([width, height, 3]);
    const rgb = Buffer.alloc(width * height * 3);
    for (let i = 0; i < width * height; i++) rgb.set(rgba.subarray(i * 4, i * 4 + 3), i * 3);
    expect(data.equals(rgb)).toBe(true);
  });

  it('reads pixels from a view that does not start on a word boundary', async () => {
    const rgba = pattern(9, 5, 7);
    const backing = new Uint8Array(rgba.length + 1);
    backing.set(rgba, 1);
    const { data } = await decoded(encodeRgbPng(backing.subarray(1), 9, 5));
    expect(data[0]).toBe(rgba[0]);
    expect(data[data.length - 1]).toBe(rgba[rgba.length - 2]);
    expect(data.equals(await decoded(encodeRgbPng(rgba, 9, 5)).then((d) => d.data))).toBe(true);
  });

  it('gives the same pixels at a zlib level as with runs only', async () => {
    const rgba = pattern(300, 200, 3);
    const fast = await decoded(encodeRgbPng(rgba, 300, 200));
    const tight = await decoded(encodeRgbPng(rgba, 300, 200, 6));
    expect(fast.data.equals(tight.data)).toBe(true);
  });

  /** A slide's gradient: every column differs from its neighbour, rows change every fourth row. */
  function gradient(width: number, height: number): Uint8Array {
    const rgba = new Uint8Array(width * height * 4);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) rgba.set([x % 256, 80, Math.floor(y / 4) % 256, 255], (y * width + x) * 4);
    return rgba;
  }

  it('packs a gradient to a tenth of its raw size (the Up filter leaves runs of zeros)', () => {
    const [width, height] = [400, 800];
    expect(encodeRgbPng(gradient(width, height), width, height).length).toBeLessThan((width * height * 3) / 10);
  });

  it('writes a slide-sized picture the App Store takes', () => {
    expect(checkStoreRules(encodeRgbPng(gradient(1320, 2868), 1320, 2868), 'iphone-69')).toEqual([]);
  });

  it('refuses fewer bytes than the size says', () => {
    expect(() => encodeRgbPng(new Uint8Array(10), 2, 2)).toThrow(/RGBA/);
  });
});
