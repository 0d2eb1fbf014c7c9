/**
 * The brand's accent (issue 30, item 4): which word of a headline it marks, and how each theme
 * draws it, with contrast looked at only where text sits.
 */
import { describe, expect, it } from 'vitest';
import { contrastRatio } from '../../src/core/colour.ts';
import { THEME_IDS, THEMES } from '../../src/core/themes.ts';
import { createCanvas } from '@napi-rs/canvas';
import { accentOf, chromaOf, drawWithAccent, keyWord, MIN_ACCENT_CHROMA, swashBand } from '../../src/rendering/accent.ts';
import { lookOf } from '../../src/rendering/themes.ts';
import { arrange, composeRaw, drawText } from '../../src/rendering/compose.ts';
import { registerFonts, registerFontsFor, setFont } from '../../src/rendering/fonts.ts';
import { displayFor } from '../../src/rendering/frames.ts';
import { fitSet } from '../../src/rendering/layout.ts';
import type { SlideTask } from '../../src/rendering/types.ts';
import { layoutFor } from '../../src/planning/look.ts';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import { habitly } from '../planning/listings.ts';
import { markedScreen, THEME_BRAND } from './golden-cases.ts';

const PURPLE_AMBER = { primary: '#6B2FBF', secondary: '#4C1D95', accent: '#FFB300' };
const slide = { headline: 'Track Unlimited Habits', subheadline: null, layout: 'headline-top', background: { colors: [] }, textColor: '' };

describe('the key word', () => {
  it("is the longest word the slide's keywords name (stems too), else the longest word that is no minor word", () => {
    expect(keyWord('Track Unlimited Habits', ['habit', 'unlimited'])).toBe('Unlimited');
    expect(keyWord('Build Better Habits Daily', ['habit'])).toBe('Habits');
    expect(keyWord('Share Your Progress')).toBe('Progress');
    expect(keyWord('All in One')).toBeNull();
    expect(keyWord('Eat Up', ['eat'])).toBeNull();
  });
});

describe('the accent per theme', () => {
  it('draws one treatment per theme; the word always reads where text sits', () => {
    for (const theme of THEME_IDS) {
      const look = lookOf(theme, slide, PURPLE_AMBER);
      const accent = accentOf(theme, PURPLE_AMBER, look.text, look.stops)!;
      expect(accent, theme).not.toBeNull();
      const style = THEMES[theme].accent;
      if (style === 'marker') {
        // The word sits on the accent: its colour reaches AA there.
        expect(contrastRatio(accent.ink, accent.color)).toBeGreaterThanOrEqual(4.5);
        expect(accent.color).toBe('#FFB300');
      } else if (style === 'swash') {
        expect(contrastRatio(look.text, accent.color)).toBeGreaterThanOrEqual(4.5);
        expect(accent.ink).toBe(look.text);
      } else {
        // Amber on purple reads as large text: the word itself is amber.
        expect(accent, theme).toMatchObject({ style: 'word', color: '#FFB300', ink: '#FFB300' });
        for (const stop of look.stops) expect(contrastRatio(accent.color, stop)).toBeGreaterThanOrEqual(3);
      }
    }
  });

  it("keeps a kit's accent as it is: where it would not read as text it becomes an underline; a derived one moves to read", () => {
    const pale = { primary: '#F5F3FF', secondary: '#EDE9FE', accent: '#FDE68A' };
    const look = lookOf('full-bleed', slide, pale);
    expect(accentOf('full-bleed', pale, look.text, look.stops)).toMatchObject({ style: 'underline', color: '#FDE68A', ink: look.text });
    const derived = accentOf('full-bleed', { primary: '#0E9F6E', secondary: '#1E429F' }, '#FFFFFF', ['#0C835B', '#1E429F'])!;
    expect(derived.style).toBe('word');
    expect(Math.min(contrastRatio(derived.color, '#0C835B'), contrastRatio(derived.color, '#1E429F'))).toBeGreaterThanOrEqual(3);
    // On the brighter green no vivid hue reads as text: an underline, not a pale word.
    expect(accentOf('full-bleed', { primary: '#0E9F6E', secondary: '#1E429F' }, '#FFFFFF', ['#0E9F6E', '#1E429F'])!.style).toBe(
      'underline',
    );
    expect(accentOf('soft', undefined, '#111827', ['#FFFFFF', '#EEEEEE'])).toBeNull();
  });

  // The complement alone became a pale pink (#FCC0D4, chroma 0.23) for a green brand on the
  // full-bleed gradient, a pale peach for a sky blue, a near-black teal for a red.
  it.each(['#0E9F6E', '#0EA5E9', '#DC2626', '#F59E0B', '#4F46E5', '#111827', '#16A34A', '#7C3AED'])(
    'a derived accent stays vivid where it is drawn as the word (%s)',
    (primary) => {
      for (const theme of ['full-bleed', 'panoramic', 'dark'] as const) {
        const brand = { primary, secondary: '#1E429F' };
        const look = lookOf(theme, slide, brand);
        const accent = accentOf(theme, brand, look.text, look.stops)!;
        if (accent.style !== 'word') continue;
        for (const stop of look.stops) expect(contrastRatio(accent.color, stop)).toBeGreaterThanOrEqual(3);
        expect(chromaOf(accent.color), `${theme} ${accent.color}`).toBeGreaterThanOrEqual(MIN_ACCENT_CHROMA);
      }
    },
  );
});

describe('the swash', () => {
  it('sits under the lower part of the letters, never across their middle (a strike-through at thumbnail size)', () => {
    registerFontsFor(['Unlimited']);
    const ctx = createCanvas(10, 10).getContext('2d');
    for (const size of [60, 140, 220]) {
      setFont(ctx, 700, size, 'Unlimited');
      ctx.textBaseline = 'middle';
      const x = ctx.measureText('x');
      // The x-height's middle, below the line's middle (text is drawn with a middle baseline).
      const xMiddle = (x.actualBoundingBoxDescent - x.actualBoundingBoxAscent) / 2;
      const band = swashBand({ x: 0, width: 100, mid: 0, size });
      expect(band.y, `${size} px`).toBeGreaterThan(xMiddle);
      // Still a highlight, not a thin underline: it reaches past the baseline and covers letters.
      expect(band.y + band.h).toBeGreaterThan(x.actualBoundingBoxDescent);
      expect(band.y).toBeLessThan(x.actualBoundingBoxDescent);
    }
  });
});

describe('the marker', () => {
  // Measured on pixels, drawn as compose.ts draws a headline (drawWithAccent around drawText) on a
  // fresh canvas: the word's ink, the chip's colour, the line above's ink. The chip was placed with
  // the word's ascent measured from whatever baseline the context had (alphabetic on a fresh one)
  // but drawn about the line's middle: it sat a third of a line high, ran into the line above and
  // ended at the baseline (seen on every bold slide of the sheets).
  it('sits evenly around its word and clear of the line above', () => {
    registerFontsFor(['Track Unlimited Habits']);
    const size = 160;
    const [W, H] = [1400, 700];
    const ctx = createCanvas(W, H).getContext('2d');
    ctx.fillStyle = '#FFFFFF';
    ctx.fillRect(0, 0, W, H);
    const block = {
      headline: ['Track', 'Unlimited', 'Habits'],
      sub: [],
      headlineSize: size,
      headlineWeight: 900 as const,
      subSize: 60,
      height: 0,
    };
    const accent = { color: '#FF0000', style: 'marker' as const, ink: '#0000FF' };
    const look = { ...slide, headline: 'Track Unlimited Habits', keywords: ['unlimited'] };
    drawWithAccent(ctx, accent, look, block, W / 2, 40, () => drawText(ctx, look, block, '#000000', W / 2, 40));
    const px = ctx.getImageData(0, 0, W, H).data;
    /** The rows holding a pixel of this colour. */
    const rows = (is: (r: number, g: number, b: number) => boolean) => {
      const ys: number[] = [];
      for (let y = 0; y < H; y++)
        for (let x = 0; x < W; x++) {
          const i = (y * W + x) * 4;
          if (is(px[i], px[i + 1], px[i + 2])) {
            ys.push(y);
            break;
          }
        }
      return ys;
    };
    const chip = rows((r, g, b) => r > 240 && g < 15 && b < 15);
    const word = rows((r, g, b) => b > 200 && r < 40 && g < 40);
    const [chipTop, chipBottom, wordTop, wordBottom] = [chip[0], chip.at(-1)!, word[0], word.at(-1)!];
    // "Track", the line above (black ink, no descender): its last row is its baseline.
    const trackBottom = Math.max(...rows((r, g, b) => r < 40 && g < 40 && b < 40).filter((y) => y < wordTop));
    const [padTop, padBottom] = [wordTop - chipTop, chipBottom - wordBottom];
    expect(padTop).toBeGreaterThan(size * 0.04);
    expect(padBottom).toBeGreaterThan(size * 0.04);
    expect(Math.abs(padTop - padBottom)).toBeLessThan(size * 0.06);
    expect(chipTop).toBeGreaterThan(trackBottom);
  });
});

// A marker on a headline's last line reaches below the line's box (the word's descenders, then
// its padding): on the iPad bold sets ("Share Your / Progress", portrait and landscape) it ended
// 26 px over the device's rim, 1.3 % of the height, the shadow between them: a sticker touching
// the device. The block keeps room for it, so the gap under the text is the layout's own.
describe('the marker under the last line', () => {
  it.each(['portrait', 'landscape'] as const)('clears the device under it by the gap, iPad %s', async (orientation) => {
    registerFonts();
    const plan = planScreenshotSet({
      listings: [habitly],
      extraContext: null,
      request: { device: 'ipad-13', count: 5, orientation },
      uploadedScreens: 5,
      uploadedLandscape: orientation === 'landscape',
    });
    const slides = plan.slides.map((s, i) => ({ ...s, layout: s.layout === 'text-only' ? layoutFor(s.role, i, true) : s.layout }));
    const index = slides.findIndex((s) => s.headline === 'Share Your Progress');
    const c = createCanvas(1, 1).getContext('2d');
    const metrics = fitSet(c, 'ipad-13', slides, 'bold', orientation);
    const shot = orientation === 'landscape' ? [1376, 1032] : [1032, 1376];
    const task: SlideTask = {
      kind: 'slide',
      index,
      device: 'ipad-13',
      orientation,
      slide: slides[index],
      screen: await markedScreen(shot[0], shot[1], '#10B981'),
      metrics,
      panorama: null,
      theme: 'bold',
      brand: THEME_BRAND,
    };
    const { at, block } = arrange(c, task, displayFor('ipad-13', { width: shot[0], height: shot[1] }), false);
    expect(block.headline.at(-1)).toContain('Progress');
    const { data, width, height } = await composeRaw(task);
    const top = at.frame!.y;
    // The lowest row above the device holding ink or the marker: far from the flat background
    // (the device's antialiased rim, its top rows, left out).
    const bg = [data[0], data[1], data[2]];
    let lowest = -1;
    for (let y = at.textTop; y < top - 4; y++)
      for (let x = 0; x < width; x += 2) {
        const i = (y * width + x) * 4;
        if (Math.max(...bg.map((v, k) => Math.abs(data[i + k] - v))) > 90) {
          lowest = y;
          break;
        }
      }
    // Before: 26 px (1.3 % of the height) in landscape.
    expect((top - lowest) / height).toBeGreaterThanOrEqual(0.025);
  });
});

describe("the marker's reach", () => {
  // Counted under a bottom headline it sent the iPhone bold set's "Smart Reminders" to the top,
  // its device no longer fitting above: the set lost its alternating rhythm.
  it("leaves a bottom headline in its place (the iPhone bold set's slide 4)", () => {
    registerFonts();
    const plan = planScreenshotSet({
      listings: [habitly],
      extraContext: null,
      request: { device: 'iphone-69', count: 5 },
      uploadedScreens: 5,
    });
    const slides = plan.slides.map((s, i) => ({ ...s, layout: s.layout === 'text-only' ? layoutFor(s.role, i, true) : s.layout }));
    const c = createCanvas(1, 1).getContext('2d');
    const metrics = fitSet(c, 'iphone-69', slides, 'bold');
    // Slide 2's three lines left no room above them before either: its text is on top by design.
    const index = slides.findIndex((s) => s.headline === 'Smart Reminders');
    expect(slides[index].layout).toBe('headline-bottom');
    const task: SlideTask = {
      kind: 'slide',
      index,
      device: 'iphone-69',
      slide: slides[index],
      screen: new Uint8Array(1),
      metrics,
      panorama: null,
      theme: 'bold',
    };
    const { at } = arrange(c, task, displayFor('iphone-69', { width: 660, height: 1434 }), false);
    expect(at.textTop).toBeGreaterThan(2868 / 2);
  });
});
