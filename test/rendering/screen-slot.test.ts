/**
 * A rendering thread decodes each screen into one kept skia Image (ScreenSlot): the pixels drawn
 * must always be those of the screen asked for, whatever was decoded before, whether the caller
 * reuses its buffer, and when two slides of one thread draw at once.
 */
import { createCanvas } from '@napi-rs/canvas';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { composeRaw } from '../../src/rendering/compose.ts';
import { fitSet } from '../../src/rendering/layout.ts';
import { decodeScreen, ScreenSlot, type ScreenImage } from '../../src/rendering/screen-image.ts';
import type { SlideTask } from '../../src/rendering/types.ts';
import { markedScreen } from './golden-cases.ts';
import { screen as appScreen, slide } from './support.ts';

const solid = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();

/** The colour skia draws at the middle of the screen. */
function centre(screen: ScreenImage): number[] {
  const ctx = createCanvas(8, 8).getContext('2d');
  ctx.drawImage(screen.image, 0, 0, 8, 8);
  return [...ctx.getImageData(4, 4, 1, 1).data.slice(0, 3)];
}

describe('ScreenSlot', () => {
  it('gives each screen its own size and pixels, one after another', async () => {
    const slot = new ScreenSlot();
    const red = await solid(300, 650, '#FF0000');
    const blue = await solid(400, 300, '#0000FF');
    for (const [png, size, rgb] of [
      [red, [300, 650], [255, 0, 0]],
      [blue, [400, 300], [0, 0, 255]],
      [red, [300, 650], [255, 0, 0]],
    ] as const) {
      const { screen, release } = await slot.take(png);
      expect([screen.width, screen.height]).toEqual(size);
      expect(centre(screen)).toEqual(rgb);
      release();
    }
  });

  it('decodes the same bytes once, but a reused buffer holding new bytes again', async () => {
    const slot = new ScreenSlot();
    const red = await solid(300, 650, '#FF0000');
    const first = await slot.take(red);
    first.release();
    const again = await slot.take(Buffer.from(red));
    again.release();
    expect(again.screen).toBe(first.screen);

    // The caller's buffer rewritten in place with another picture
    // (the same length, so the test's colour is whichever of a few encodes to it).
    const candidates = await Promise.all(['#0000FF', '#00FF00', '#00FFFF', '#FFFF00'].map((c) => solid(300, 650, c)));
    const green = candidates.find((png) => png.length === red.length)!;
    expect(green).toBeDefined();
    const reused = Buffer.from(red);
    const before = await slot.take(reused);
    before.release();
    green.copy(reused);
    const after = await slot.take(reused);
    after.release();
    expect(centre(after.screen)).toEqual(centre(await decodeScreen(green)));
    expect(centre(after.screen)).not.toEqual([255, 0, 0]);
  });

  it('decodes apart while its screen is still held', async () => {
    const slot = new ScreenSlot();
    const held = await slot.take(await solid(300, 650, '#FF0000'));
    const other = await slot.take(await solid(300, 650, '#0000FF'));
    expect(centre(held.screen)).toEqual([255, 0, 0]);
    expect(centre(other.screen)).toEqual([0, 0, 255]);
    other.release();
    held.release();
  });

  it('a refused picture leaves the slot usable', async () => {
    const slot = new ScreenSlot();
    await expect(slot.take(Buffer.from('not an image'))).rejects.toThrow();
    const { screen, release } = await slot.take(await solid(300, 650, '#0000FF'));
    expect(centre(screen)).toEqual([0, 0, 255]);
    release();
  });
});

describe('composeRaw through the slot', () => {
  it('draws the same pixels as with each screen decoded afresh, in any order and at once', async () => {
    const device = 'iphone-69' as const;
    const slides = [slide(0, 'Plan your week', 'headline-top'), slide(1, 'Share with family', 'headline-bottom')];
    const metrics = fitSet(createCanvas(1, 1).getContext('2d'), device, slides);
    const screens = [await markedScreen(1320, 2868), await appScreen(1320, 2868, '#2E7D32')];
    const task = (i: number): SlideTask => ({
      kind: 'slide',
      index: i,
      device,
      slide: slides[i],
      screen: screens[i],
      metrics,
      panorama: null,
    });
    const fresh = [];
    for (const i of [0, 1]) fresh.push((await composeRaw(task(i), await decodeScreen(screens[i]))).data);
    for (const i of [0, 1, 0, 1]) expect((await composeRaw(task(i))).data.equals(fresh[i]), `slide ${i}`).toBe(true);
    const both = await Promise.all([composeRaw(task(1)), composeRaw(task(0))]);
    expect(both[0].data.equals(fresh[1])).toBe(true);
    expect(both[1].data.equals(fresh[0])).toBe(true);
  });
});
