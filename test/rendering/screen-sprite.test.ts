/**
 * A screen that several slides of a set show is scaled into its display once per thread and
 * copied onto each (screen-sprite.ts): a slide's pixels are the same whether the copy was kept or
 * drawn anew, and within a rounding step of drawing the screen in place.
 */
import { createCanvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { composeRaw, screenSprite } from '../../src/rendering/compose.ts';
import { registerFonts } from '../../src/rendering/fonts.ts';
import { fitSet } from '../../src/rendering/layout.ts';
import { sharedScreens } from '../../src/rendering/pool.ts';
import type { SlideTask } from '../../src/rendering/types.ts';
import { screen, slide } from './support.ts';

registerFonts();
const layouts = ['headline-top', 'headline-bottom', 'headline-top'];
const slides = layouts.map((l, i) => ({ ...slide(i, `Plan every meal ${i}`, l), screenshotUrl: null }));
const metrics = fitSet(createCanvas(1, 1).getContext('2d'), 'iphone-69', slides);
const task = (i: number, shown: Buffer, shared: boolean): SlideTask => ({
  kind: 'slide',
  index: i,
  device: 'iphone-69',
  slide: slides[i],
  screen: shown,
  metrics,
  panorama: null,
  ...(shared ? { screenShared: true } : {}),
});
const pixels = async (t: SlideTask) => Buffer.from((await composeRaw(t)).data);

describe('a screen several slides show', () => {
  it('is drawn once for the slides of one size, and a slide comes out the same whether it was kept or not', async () => {
    // Screens no other test draws: the files of a worker share its module cache, the kept copy included.
    const [blue, green] = [await screen(1320, 2868, '#1D4ED9'), await screen(1320, 2868, '#0F9D58')];
    const before = screenSprite.painted;
    const first = await pixels(task(0, blue, true));
    await pixels(task(1, blue, true));
    const kept = await pixels(task(0, blue, true));
    expect(screenSprite.painted - before).toBe(1);
    await pixels(task(2, green, true));
    const anew = await pixels(task(0, blue, true));
    expect(screenSprite.painted - before).toBe(3);
    expect(kept.equals(first)).toBe(true);
    expect(anew.equals(first)).toBe(true);
  });

  it('looks as the screen drawn in place, to a rounding step on its edges', async () => {
    const blue = await screen(1320, 2868, '#1D4ED9');
    const [copied, inPlace] = [await pixels(task(1, blue, true)), await pixels(task(1, blue, false))];
    let off = 0;
    let far = 0;
    for (let i = 0; i < copied.length; i += 4)
      for (let c = 0; c < 3; c++) {
        const d = Math.abs(copied[i + c] - inPlace[i + c]);
        if (d) off++;
        if (d > 2) far++;
      }
    const pixelCount = copied.length / 4;
    expect(off / pixelCount).toBeLessThan(0.005);
    expect(far / pixelCount).toBeLessThan(0.0001);
  });

  it("is one that half the set's framed slides show, told apart by the set's buffers", () => {
    const [a, b, c] = [Buffer.from('a'), Buffer.from('a'), Buffer.from('c')];
    expect(sharedScreens([a, b, a, null, null])).toEqual([true, false, true, false, false]);
    // Two screens on alternate slides: a thread draws one of them each time.
    expect(sharedScreens([a, c, a, c])).toEqual([true, true, true, true]);
    // Five over ten: each comes back to a thread after others.
    const five = [a, b, c, Buffer.from('d'), Buffer.from('e')];
    expect(sharedScreens([...five, ...five]).some((x) => x)).toBe(false);
  });
});
