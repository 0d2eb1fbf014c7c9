/**
 * A Mac slide's window and type (design read 2026-11-28, "left"): the window had no macOS chrome,
 * and the headline sat at the 8 % floor in every theme, so bold's big type did not show on Mac.
 */
import { createCanvas } from '@napi-rs/canvas';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerFonts } from '../../src/rendering/fonts.ts';
import { displayFor, drawFrameBody, frameBox, TRAFFIC_LIGHTS } from '../../src/rendering/frames.ts';
import { BOTTOM_PAD, fitSet, MIN_WINDOW_SHARE, scaleOf, typeScale } from '../../src/rendering/layout.ts';
import { slide } from './support.ts';

beforeAll(() => registerFonts());

describe('the Mac window', () => {
  it('has a title bar above its content with the three traffic lights', () => {
    const d = displayFor('mac', { width: 2880, height: 1800 });
    const box = frameBox('mac', d, 1440, 200, 2200);
    const bar = box.screen.y - box.y;
    // 28 pt on a 900 pt high window, plus the hairline edge.
    expect(bar / box.screen.height).toBeGreaterThan(0.028);
    expect(bar / box.screen.height).toBeLessThan(0.036);
    const canvas = createCanvas(2880, 1800);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#FFFFFF';
    ctx.fillRect(0, 0, 2880, 1800);
    drawFrameBody(ctx, 'mac', box);
    const inset = box.screen.x - box.x;
    const h = bar - inset;
    const hex = (x: number, y: number) => {
      const p = ctx.getImageData(Math.round(x), Math.round(y), 1, 1).data;
      return `#${[p[0], p[1], p[2]].map((v) => v.toString(16).padStart(2, '0')).join('')}`.toUpperCase();
    };
    TRAFFIC_LIGHTS.forEach((colour, i) => expect(hex(box.x + inset + ((i + 1) * h * 20) / 28, box.y + inset + h / 2)).toBe(colour));
    // Between the lights and at the bar's far end: the bar's grey, not the background.
    expect(hex(box.x + box.width / 2, box.y + inset + h / 2)).toBe('#ECECEE');
  });
});

describe("the Mac's type", () => {
  const short = [
    slide(0, 'Build Better Habits', 'hero-centered'),
    slide(1, 'Track Your Habits', 'headline-top'),
    slide(2, 'Smart Reminders', 'headline-bottom'),
  ];

  it("takes each theme's ratio above the floor: bold is larger than soft", () => {
    const ctx = createCanvas(1, 1).getContext('2d');
    const sc = scaleOf('mac');
    const { min } = typeScale(sc, 'soft');
    const soft = fitSet(ctx, 'mac', short, 'soft').headlineSizes[0];
    const bold = fitSet(ctx, 'mac', short, 'bold').headlineSizes[0];
    expect(soft).toBe(min);
    // Before: both 144 (the floor). Bold's ladder is 1.4 × the regular one.
    expect(bold / soft).toBeGreaterThanOrEqual(1.3);
  });

  it("grows only as far as a feature's window stays whole under the set's text", () => {
    const ctx = createCanvas(1, 1).getContext('2d');
    const sc = scaleOf('mac');
    const long = [
      ...short,
      slide(3, 'Smart Reminders That Adapt to Your Week', 'headline-top', { subheadline: 'Plan your week and see how far you have come' }),
    ];
    const d = displayFor('mac', { width: 2880, height: 1800 });
    for (const set of [short, long]) {
      const m = fitSet(ctx, 'mac', set, 'bold');
      const window = frameBox('mac', d, 0, 0, sc.width * MIN_WINDOW_SHARE).height;
      const floor = typeScale(sc, 'bold').min;
      if (m.headlineSizes[0] > floor)
        expect(sc.padTop + m.blockHeight + sc.gap + window).toBeLessThanOrEqual(sc.height - Math.round(sc.height * BOTTOM_PAD));
    }
    expect(fitSet(ctx, 'mac', long, 'bold').headlineSizes[0]).toBeLessThan(fitSet(ctx, 'mac', short, 'bold').headlineSizes[0]);
  });
});
