/**
 * A thread paints a set's plates (background and device) once and copies them: a planned set has
 * three (the hero's, the device under the text, the device over it), whose slides reach a thread
 * in any order, so all three stay kept from one set to the next.
 */
import { createCanvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { composeRaw } from '../../src/rendering/compose.ts';
import { registerFonts } from '../../src/rendering/fonts.ts';
import { fitSet } from '../../src/rendering/layout.ts';
import { PlateCache, plates } from '../../src/rendering/plates.ts';
import type { SlideTask } from '../../src/rendering/types.ts';
import { screen, slide } from './support.ts';

describe('PlateCache', () => {
  it('keeps the most recently used plates and paints the others again', () => {
    const cache = new PlateCache(2);
    const paint = () => {};
    for (const key of ['a', 'b', 'a', 'c', 'a', 'b']) cache.get(key, 2, 2, paint);
    // a, b painted; a kept over b when c came; b painted again.
    expect(cache.painted).toBe(4);
  });

  it("paints a planned set's three plates once across two sets, whatever the slides' order", async () => {
    registerFonts();
    const layouts = ['hero-centered', 'headline-bottom', 'headline-top', 'headline-bottom', 'headline-top', 'headline-bottom'];
    // Colours no other test draws: the files of a worker share its module cache, plates included.
    const background = { colors: ['#2D6A4F', '#1B4332'] };
    const slides = layouts.map((l, i) => ({ ...slide(i, `Headline number ${i}`, l, { background }), screenshotUrl: null }));
    const metrics = fitSet(createCanvas(1, 1).getContext('2d'), 'iphone-69', slides);
    const shown = await screen(1320, 2868);
    const before = plates.painted;
    for (const order of [
      [0, 1, 2, 3, 4, 5],
      [5, 2, 0, 3, 1, 4],
    ])
      for (const i of order) {
        const task: SlideTask = { kind: 'slide', index: i, device: 'iphone-69', slide: slides[i], screen: shown, metrics, panorama: null };
        await composeRaw(task);
      }
    expect(plates.painted - before).toBe(3);
  });
});
