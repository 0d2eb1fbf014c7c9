import sharp from 'sharp';
import { createCanvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { scaleOf } from '../../src/rendering/layout.ts';
import { drawBackground, lookOf } from '../../src/rendering/themes.ts';
import { DEVICE_IDS } from '../../src/core/devices.ts';
import { checkStoreRules } from '../../src/rendering/index.ts';
import { renderPool } from '../support/render-pool.ts';
import { screen, slide } from './support.ts';

const pool = renderPool();

describe('RenderPool.renderSet', () => {
  it.each(DEVICE_IDS)('renders %s at its exact size as store-ready PNGs', async (device) => {
    const shot = await screen();
    const slides = [slide(0, 'Track Every Habit in One Tap', 'hero-centered'), slide(1, 'No screen here', 'text-only')];
    const progress: number[] = [];
    const pngs = await pool.renderSet({ device, slides, screens: [shot, null] }, { onSlide: (done) => progress.push(done) });
    expect(pngs).toHaveLength(2);
    expect(progress).toEqual([1, 2]);
    for (const png of pngs) {
      expect(checkStoreRules(png, device)).toEqual([]);
      const meta = await sharp(png).metadata();
      expect([meta.format, meta.channels, meta.depth, meta.hasAlpha]).toEqual(['png', 3, 'uchar', false]);
    }
  });

  it('sets every headline of a set at one size: the largest at which the longest fits', async () => {
    const look = { background: { colors: ['#FFFFFF', '#FFFFFF'] }, textColor: '#000000' };
    const short = slide(0, 'Hello', 'headline-top', look);
    const long = slide(1, 'Plan your weekly meals and share every grocery list in one tap', 'headline-top', look);
    const [inSet, longOne] = await pool.renderSlides({ device: 'android-phone', slides: [short, long], screens: [null, null] });
    const [alone] = await pool.renderSlides({ device: 'android-phone', slides: [short], screens: [null] });
    // No subheadlines: the smallest font of a slide is its headline.
    expect(inSet.lint.minFontPx).toBe(longOne.lint.minFontPx);
    expect(inSet.lint.minFontPx).toBeLessThan(alone.lint.minFontPx);
    expect(inSet.lint.headlineSearchPt).toBe(longOne.lint.headlineSearchPt);
    expect(inSet.lint.warnings).toEqual([]);
    // Never below 8 % of the slide's width, even for a headline this long.
    expect(longOne.lint.minFontPx).toBeGreaterThanOrEqual(0.08 * 1080);
  });

  it('joins the slices of a panoramic set at their seams', async () => {
    const slides = [0, 1, 2].map((i) =>
      slide(i, `Slide ${i + 1}`, i === 1 ? 'headline-top' : 'text-only', { background: { colors: ['#0EA5E9', '#7C3AED'] } }),
    );
    const screens = [null, await screen(), null];
    const edges = async (pngs: Buffer[]) => {
      const raws = await Promise.all(pngs.map((p) => sharp(p).raw().toBuffer({ resolveWithObject: true })));
      const { width, height } = raws[0].info;
      const col = (i: number, x: number) =>
        Array.from({ length: height }, (_, y) => [...raws[i].data.subarray((y * width + x) * 3, (y * width + x) * 3 + 3)]);
      // Mean difference per channel between a slide's last column and the next slide's first.
      return [0, 1].map((i) => {
        const [a, b] = [col(i, width - 1), col(i + 1, 0)];
        return a.reduce((s, px, y) => s + px.reduce((t, v, k) => t + Math.abs(v - b[y][k]), 0), 0) / (height * 3);
      });
    };
    const pano = await pool.renderSet({ device: 'iphone-65', slides, screens, panoramic: true });
    const apart = await pool.renderSet({ device: 'iphone-65', slides, screens });
    for (const png of pano) expect(checkStoreRules(png, 'iphone-65')).toEqual([]);
    for (const d of await edges(pano)) expect(d).toBeLessThan(3);
    // Without the panorama each slide restarts its gradient: the seams show.
    for (const d of await edges(apart)) expect(d).toBeGreaterThan(8);
  });

  // The rings and ribbon that crossed the seams were a hairline and a faint band (~8 % of the seam's
  // height, 10-14 % white): the set read as five separate slides. A shape now sits on every seam.
  it.each(['#0EA5E9', '#FDE68A'])('puts a shape across every seam of a panorama, seen in its columns (%s)', (colour) => {
    const sc = scaleOf('iphone-69');
    const look = lookOf('panoramic', slide(0, 'x', 'headline-top', { background: { colors: [colour, '#7C3AED'] } }), undefined);
    const column = (ornament: boolean, index: number, x: number) => {
      const canvas = createCanvas(sc.width, sc.height);
      const ctx = canvas.getContext('2d');
      drawBackground(ctx, sc, ornament ? look : { ...look, ornament: null }, { index, count: 3 });
      const px = ctx.getImageData(x, 0, 1, sc.height).data;
      return Array.from({ length: sc.height }, (_, y) => 0.3 * px[y * 4] + 0.59 * px[y * 4 + 1] + 0.11 * px[y * 4 + 2]);
    };
    for (const i of [0, 1]) {
      const [drawn, bare, next] = [column(true, i, sc.width - 1), column(false, i, sc.width - 1), column(true, i + 1, 0)];
      const covered = drawn.filter((l, y) => Math.abs(l - bare[y]) >= 10).length / sc.height;
      expect(covered).toBeGreaterThanOrEqual(0.25);
      // The shape goes on across the seam: the next slide's first column shows it too.
      expect(drawn.reduce((s, l, y) => s + Math.abs(l - next[y]), 0) / sc.height).toBeLessThan(3);
    }
  });

  // Bold's faint disc of the text colour was mostly hidden by the device and showed beside it as a
  // darker slab, like a misplaced shadow: bold is its flat brand colour, every pixel of it.
  it.each(['#0EA5E9', '#FDE68A'])("paints bold's background one flat colour (%s)", (colour) => {
    const sc = scaleOf('iphone-69');
    const look = lookOf('bold', slide(0, 'x', 'headline-top'), { primary: colour, secondary: '#7C3AED' });
    const canvas = createCanvas(sc.width, sc.height);
    const ctx = canvas.getContext('2d');
    drawBackground(ctx, sc, look, null);
    const px = ctx.getImageData(0, 0, sc.width, sc.height).data;
    let off = 0;
    for (let i = 0; i < px.length; i += 4)
      off = Math.max(off, Math.abs(px[i] - px[0]), Math.abs(px[i + 1] - px[1]), Math.abs(px[i + 2] - px[2]));
    expect(off).toBeLessThanOrEqual(1);
  });

  it('rejects with the abort reason when the signal fires', async () => {
    const ctl = new AbortController();
    ctl.abort(new Error('job cancelled'));
    await expect(
      pool.renderSet({ device: 'iphone-69', slides: [slide(0, 'x', 'text-only')], screens: [null] }, { signal: ctl.signal }),
    ).rejects.toThrow('job cancelled');
  });

  it('rejects with the abort reason when the signal fires mid-set, and the pool keeps working', async () => {
    const ctl = new AbortController();
    const slides = Array.from({ length: 6 }, (_, i) => slide(i, `Slide ${i}`, 'headline-top'));
    const shot = await screen();
    const p = pool.renderSet(
      { device: 'android-phone', slides, screens: slides.map(() => shot) },
      { signal: ctl.signal, onSlide: () => ctl.abort(new Error('job timed out')) },
    );
    await expect(p).rejects.toThrow('job timed out');
    const [png] = await pool.renderSet({ device: 'android-phone', slides: [slide(0, 'Still here', 'text-only')], screens: [null] });
    expect(checkStoreRules(png, 'android-phone')).toEqual([]);
  });

  it('draws a transparent screen over black, an opaque one as it is', async () => {
    const device = 'android-phone';
    const clear = await sharp({ create: { width: 540, height: 960, channels: 4, background: { r: 255, g: 0, b: 0, alpha: 0 } } })
      .png()
      .toBuffer();
    const opaque = await sharp({ create: { width: 540, height: 960, channels: 3, background: '#FF0000' } })
      .png()
      .toBuffer();
    const slides = [slide(0, 'Clear', 'headline-top'), slide(1, 'Red', 'headline-top')];
    const pngs = await pool.renderSet({ device, slides, screens: [clear, opaque] });
    // The middle of the slide is inside the screen in this layout.
    const centre = async (png: Buffer) => [...(await sharp(png).extract({ left: 540, top: 1200, width: 1, height: 1 }).raw().toBuffer())];
    expect(await centre(pngs[0])).toEqual([0, 0, 0]);
    expect(await centre(pngs[1])).toEqual([255, 0, 0]);
  });

  it('names the slide whose screen is not an image', async () => {
    const slides = [slide(0, 'Fine', 'text-only'), slide(1, 'Broken screen', 'headline-top')];
    await expect(pool.renderSet({ device: 'iphone-69', slides, screens: [null, Buffer.from('not an image at all')] })).rejects.toThrow(
      'the screen of slide 1 is not a readable image',
    );
  });

  it('copes with extreme captions: never cut, never a crash', async () => {
    const long =
      'Everything you need to plan, track and share your shopping lists with family and friends, in real time, everywhere you go, every single day of the week';
    const slides = [
      slide(0, long, 'headline-top', { subheadline: long }),
      slide(1, '', 'hero-centered', { background: { colors: [] } }),
      slide(2, '😀', 'some-future-layout', { background: { colors: ['not-a-colour'] } }),
    ];
    const shot = await screen();
    const pngs = await pool.renderSet({ device: 'android-phone', slides, screens: [shot, shot, shot] });
    for (const png of pngs) expect(checkStoreRules(png, 'android-phone')).toEqual([]);
  });

  it('refuses a screens list that does not match the slides', async () => {
    await expect(pool.renderSet({ device: 'iphone-69', slides: [slide(0, 'x', 'text-only')], screens: [] })).rejects.toThrow(
      '1 slides but 0 screens',
    );
  });
});

describe("the brand kit's icon badge", () => {
  // A flat orange icon: easy to tell from the slide's indigo and the screen's blue.
  const icon = () =>
    sharp({ create: { width: 256, height: 256, channels: 3, background: '#F97316' } })
      .png()
      .toBuffer();
  const orange = [0xf9, 0x73, 0x16];
  const near = (got: number[], want: number[]) => got.every((v, i) => Math.abs(v - want[i]) < 12);

  /** The orange pixels: how many, and the box they span. */
  async function orangeArea(png: Buffer) {
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    let n = 0;
    const box = { x0: Infinity, y0: Infinity, x1: -1, y1: -1 };
    for (let p = 0, i = 0; p < data.length; p += info.channels, i++)
      if (near([data[p], data[p + 1], data[p + 2]], orange)) {
        n++;
        const [x, y] = [i % info.width, Math.floor(i / info.width)];
        Object.assign(box, { x0: Math.min(box.x0, x), y0: Math.min(box.y0, y), x1: Math.max(box.x1, x), y1: Math.max(box.y1, y) });
      }
    return { n, width: box.x1 - box.x0 + 1, height: box.y1 - box.y0 + 1, box };
  }

  it('is a legible sticker (12 % of the width) on the device’s top-right corner, on every slide with a device, never on a text slide', async () => {
    const W = 1320;
    const size = Math.round(W * 0.12);
    const slides = [
      slide(0, 'Text at the Top', 'headline-top'),
      slide(1, 'Text at the Bottom', 'headline-bottom'),
      slide(2, 'A Text Slide', 'text-only'),
    ];
    const shot = await screen();
    const input = { device: 'iphone-69' as const, slides, screens: [shot, shot, null] };
    const [top, bottom, text] = await pool.renderSet({ ...input, badge: await icon() });
    const [plainTop, plainBottom] = await pool.renderSet(input);
    for (const png of [top, bottom]) {
      const a = await orangeArea(png);
      // The whole icon, at its size (a rounded square: a little under size²), in the slide's right half.
      expect(a.width).toBeGreaterThanOrEqual(size - 2);
      expect(a.height).toBeGreaterThanOrEqual(size - 2);
      expect(a.n).toBeGreaterThan(size * size * 0.85);
      expect(a.box.x0).toBeGreaterThan(W / 2);
    }
    for (const png of [plainTop, plainBottom, text]) expect((await orangeArea(png)).n).toBe(0);
    for (const png of [top, bottom, text]) expect(checkStoreRules(png, 'iphone-69')).toEqual([]);
  });
});
