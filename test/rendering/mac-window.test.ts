/**
 * A Mac slide's window and type (design read 2026-11-28, "left"): the window had no macOS chrome,
 * and the headline sat at the 8 % floor in every theme, so bold's big type did not show on Mac.
 */
import { createCanvas } from '@napi-rs/canvas';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { contrastRatio, toHex } from '../../src/core/colour.ts';
import { arrange, composeRaw } from '../../src/rendering/compose.ts';
import { registerFonts } from '../../src/rendering/fonts.ts';
import { displayFor, drawFrameBody, frameBox, TRAFFIC_LIGHTS } from '../../src/rendering/frames.ts';
import { BOTTOM_PAD, fitSet, MIN_WINDOW_SHARE, scaleOf, typeScale, WINDOW_MIN_BLEED } from '../../src/rendering/layout.ts';
import { THEME_IDS, themeFor } from '../../src/core/themes.ts';
import { GOLDEN_CASES } from './golden-cases.ts';
import type { SlideTask } from '../../src/rendering/types.ts';
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

/** A Mac app's window content, 1440 × 900: a toolbar of `top` over a sidebar and a list on `page`. */
function macScreen(top: string, page: string): Promise<Buffer> {
  const rows = [0, 1, 2, 3, 4, 5].map((i) => `<rect x="25%" y="${14 + i * 13}%" width="73%" height="6%" rx="8" fill="#6B7280"/>`);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1440" height="900">
    <rect width="100%" height="100%" fill="${page}"/><rect width="100%" height="52" fill="${top}"/>
    <rect y="52" width="22%" height="100%" fill="${top}"/>${rows.join('')}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

describe("the Mac window's title bar", () => {
  // Design read 2026-11-28, hd2's notes: a light grey bar over a dark app's window looked pasted
  // on; macOS draws a window's title bar in the app's appearance, dark over a dark app.
  async function bar(top: string, page: string): Promise<{ bar: string; lights: string[] }> {
    const ctx = createCanvas(1, 1).getContext('2d');
    const slides = [slide(0, 'Build Better Habits', 'hero-centered'), slide(1, 'Track Your Habits', 'headline-top')];
    const metrics = fitSet(ctx, 'mac', slides, 'soft');
    const bytes = await macScreen(top, page);
    const task: SlideTask = {
      kind: 'slide',
      index: 1,
      device: 'mac',
      slide: slides[1],
      screen: bytes,
      metrics,
      panorama: null,
      theme: 'soft',
    };
    const { at } = arrange(ctx, task, displayFor('mac', { width: 1440, height: 900 }), false);
    const box = at.frame!;
    const { data, width, lint } = await composeRaw(task);
    // An app's own window, framed (not taken for a marketing picture and shown as a card).
    expect(lint.marketingImage).toBeNull();
    const hex = (x: number, y: number) => {
      const i = (Math.round(y) * width + Math.round(x)) * 4;
      return toHex([data[i], data[i + 1], data[i + 2]]);
    };
    const inset = box.screen.x - box.x;
    const [y, h] = [box.y + inset + (box.screen.y - box.y - inset) / 2, box.screen.y - box.y - inset];
    return { bar: hex(box.x + box.width / 2, y), lights: TRAFFIC_LIGHTS.map((_, i) => hex(box.x + inset + ((i + 1) * h * 20) / 28, y)) };
  }

  it("is dark over a dark app's window, at one with its toolbar", async () => {
    const dark = await bar('#1C1C1F', '#111114');
    // Before: #ECECEE over #1C1C1F, a contrast of 14.
    expect(contrastRatio(dark.bar, '#1C1C1F')).toBeLessThan(1.6);
    expect(dark.lights).toEqual([...TRAFFIC_LIGHTS]);
  });

  it("stays light over a light app's window, and over a brand's coloured toolbar", async () => {
    const light = await bar('#F5F5F7', '#FFFFFF');
    expect(light.bar).toBe('#ECECEE');
    expect(light.lights).toEqual([...TRAFFIC_LIGHTS]);
    // A purple toolbar is not a dark app: its bar stays with the set's light ones.
    expect((await bar('#8B5CF6', '#FFFFFF')).bar).toBe('#ECECEE');
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

// Design read 2026-11-28 (left by hd2): under a two-line headline with a subheadline the golden's
// window lost its bottom fifth past the edge, and the hero its bottom 8 %: neither whole nor
// plainly cropped, a window that almost fits reads as a crop that slipped. A window is whole
// (clear of the bottom margin) or at least WINDOW_MIN_BLEED of it lies past the bottom edge; its
// top (the title bar) always shows, under its text.
describe('the Mac window is whole, or plainly bleeds off the bottom', () => {
  const golden = GOLDEN_CASES.find((c) => c.name === 'mac-headline-top')!.slides.filter((s) => s.layout !== 'text-only');
  const long = [
    slide(0, 'Track Every Habit in One Tap', 'hero-centered'),
    slide(1, 'Smart Reminders That Adapt to Your Week', 'headline-top', { subheadline: 'Plan your week and see how far you have come' }),
    slide(2, 'Beautiful Charts & Streaks', 'headline-bottom'),
  ];
  const short = [
    slide(0, 'Build Better Habits', 'hero-centered'),
    slide(1, 'Track Your Habits', 'headline-top'),
    slide(2, 'Smart Reminders', 'headline-bottom'),
  ];
  const sets = { golden, long, short };
  const d = displayFor('mac', { width: 1440, height: 900 });
  const rows = THEME_IDS.filter((t) => themeFor(t).screen === 'framed').flatMap((theme) =>
    Object.entries(sets).flatMap(([name, slides]) => [false, true].map((badge) => [name, theme, badge, slides] as const)),
  );

  it.each(rows)('%s set, %s, badge %s', (_, theme, badge, slides) => {
    const ctx = createCanvas(1, 1).getContext('2d');
    const sc = scaleOf('mac');
    const metrics = fitSet(ctx, 'mac', slides, theme);
    slides.forEach((s, index) => {
      const task: SlideTask = {
        kind: 'slide',
        index,
        device: 'mac',
        slide: s,
        screen: new Uint8Array(1),
        metrics,
        panorama: null,
        theme,
        // The hero's task carries the store's rating (sets/render.ts), the others none.
        rating: index === 0 ? { value: 4.8, count: 5000 } : null,
        ...(badge ? { badge: new Uint8Array(1) } : {}),
      };
      const { at, block } = arrange(ctx, task, d, false);
      const w = at.frame!;
      const past = (w.y + w.height - sc.height) / w.height;
      const whole = w.y + w.height <= sc.height - Math.round(sc.height * BOTTOM_PAD);
      expect(whole || past >= WINDOW_MIN_BLEED - 0.002, `slide ${index + 1}: ${Math.round(past * 100)} % past the edge`).toBe(true);
      expect(w.y).toBeGreaterThanOrEqual(0);
      // Under its text, or over a bottom headline: never across it.
      expect(w.y >= at.textTop + block.height || w.y + w.height <= at.textTop, `slide ${index + 1} crosses its text`).toBe(true);
    });
  });

  it("draws the golden's windows so (the screen's share past the edge, read from the drawing)", async () => {
    const ctx = createCanvas(1, 1).getContext('2d');
    const metrics = fitSet(ctx, 'mac', golden, 'soft');
    const screen = await macScreen('#F5F5F7', '#FFFFFF');
    for (const [index, s] of golden.entries()) {
      const { lint } = await composeRaw({ kind: 'slide', index, device: 'mac', slide: s, screen, metrics, panorama: null, theme: 'soft' });
      // Before: 20 % (the feature), 7.7 % (the hero).
      expect(
        lint.screenBleedPct === 0 || lint.screenBleedPct! >= 100 * WINDOW_MIN_BLEED,
        `slide ${index + 1}: ${lint.screenBleedPct} %`,
      ).toBe(true);
    }
  });
});
