/**
 * Where things go on a slide. Sizes derive from the slide's size so every device looks alike; the
 * text block of a set is as tall as its tallest, so devices sit at the same height on every slide.
 */
import type { SKRSContext2D } from '@napi-rs/canvas';
import { themeFor, type ThemeId } from '../core/themes.ts';
import { DEVICES, type Device } from '../core/devices.ts';
import { isHero } from '../core/set.ts';
import { frameBox, frameOf, frameWidthFor, type Display, type FrameBox } from './frames.ts';
import type { Weight } from './font-sources.ts';
import { drawnLines, fitSize, HEADLINE_LINE_HEIGHT, linesAt, MAX_LINES, SUB_LINE_HEIGHT } from './text.ts';
import type { SetMetrics, SlideLook } from './types.ts';

export interface Scale {
  width: number;
  height: number;
  /** The width of a phone-shaped slide of this height: tablets get phone-like type sizes. */
  base: number;
  margin: number;
  textWidth: number;
  padTop: number;
  gap: number;
}

export function scaleOf(device: Device): Scale {
  const { width, height } = DEVICES[device];
  const base = Math.min(width, height * 0.56);
  const margin = Math.round(width * 0.07);
  return { width, height, base, margin, textWidth: width - 2 * margin, padTop: Math.round(height * 0.055), gap: Math.round(height * 0.03) };
}

/**
 * The smallest text that stays legible where shoppers decide: in App Store and Play search results
 * a portrait screenshot is shown about 110 pt wide, and 5 pt is the least a phone's text can be
 * there and still be read. A slide as wide as `base` shows at 110 pt, so: base × 5 / 110.
 */
export const THUMBNAIL_PT = 110;
export const MIN_LEGIBLE_PT = 5;
export const minLegiblePx = (sc: Scale): number => Math.ceil((sc.base * MIN_LEGIBLE_PT) / THUMBNAIL_PT);

/** One step of the headline ladder: neighbouring slides differ by at most one (8 %). */
export const HEADLINE_STEP = 0.92;

export interface TypeScale {
  /** Headline sizes from largest to smallest, one step apart. */
  ladder: number[];
  subMin: number;
  subMax: number;
}

/** The theme's headline weight (THEMES[…].headline): the bold theme's are Black. */
export const headlineWeight = (theme: ThemeId | undefined): Weight => themeFor(theme).headline.weight;

export function typeScale(sc: Scale, theme: ThemeId | undefined): TypeScale {
  const max = Math.round(sc.base * themeFor(theme).headline.size);
  const subMin = minLegiblePx(sc);
  const min = Math.max(Math.round(subMin * 1.2), Math.round(sc.base * 0.05));
  const ladder: number[] = [];
  for (let s = max; s > min; s *= HEADLINE_STEP) ladder.push(Math.round(s));
  ladder.push(min);
  return { ladder, subMin, subMax: Math.max(subMin, Math.round(max * 0.55)) };
}

export interface TextBlock {
  headline: string[];
  sub: string[];
  headlineSize: number;
  headlineWeight: Weight;
  subSize: number;
  height: number;
}

export function textBlock(
  ctx: SKRSContext2D,
  slide: SlideLook,
  headlineSize: number,
  subSize: number,
  sc: Scale,
  theme?: ThemeId,
): TextBlock {
  const weight = headlineWeight(theme);
  const headline = drawnLines(ctx, slide.headline, weight, headlineSize, sc.textWidth);
  const sub = slide.subheadline ? drawnLines(ctx, slide.subheadline, 400, subSize, sc.textWidth) : [];
  const subHeight = sub.length ? headlineSize * 0.35 + sub.length * subSize * SUB_LINE_HEIGHT : 0;
  return {
    headline,
    sub,
    headlineSize,
    headlineWeight: weight,
    subSize,
    height: Math.ceil(headline.length * headlineSize * HEADLINE_LINE_HEIGHT + subHeight),
  };
}

function fitsAt(ctx: SKRSContext2D, text: string, size: number, width: number, weight: Weight): boolean {
  const w = linesAt(ctx, text, weight, size, width);
  return w.fits && w.lines.length <= MAX_LINES;
}

/**
 * Each headline at the largest size of the ladder at which it fits, then brought within one step
 * of its neighbours (only ever down: a larger size would not fit), so one long headline shrinks
 * its neighbours a little, not the whole set. One subheadline size for the set, never below the
 * legible minimum.
 */
export function fitSet(ctx: SKRSContext2D, device: Device, slides: SlideLook[], theme?: ThemeId): SetMetrics {
  const sc = scaleOf(device);
  const t = typeScale(sc, theme);
  const steps = slides.map((s) => {
    const k = t.ladder.findIndex((size) => fitsAt(ctx, s.headline, size, sc.textWidth, headlineWeight(theme)));
    return k < 0 ? t.ladder.length - 1 : k;
  });
  for (let changed = true; changed;) {
    changed = false;
    for (let i = 0; i < steps.length; i++) {
      const floor = Math.max(steps[i - 1] ?? 0, steps[i + 1] ?? 0) - 1;
      if (steps[i] < floor) {
        steps[i] = floor;
        changed = true;
      }
    }
  }
  const headlineSizes = steps.map((k) => t.ladder[k]);
  const subs = slides.flatMap((s) => (s.subheadline ? [s.subheadline] : []));
  const subSize = fitSize(ctx, subs, 400, sc.textWidth, t.subMin, Math.max(t.subMin, Math.round(Math.min(...headlineSizes) * 0.6)));
  const blockHeight = Math.max(0, ...slides.map((s, i) => textBlock(ctx, s, headlineSizes[i], subSize, sc, theme).height));
  return { headlineSizes, subSize, blockHeight };
}

/** A slide with no screen is a poster: its headline as large as fits, up to 1.6 × the ladder's top. */
export function posterBlock(ctx: SKRSContext2D, slide: SlideLook, m: SetMetrics, sc: Scale, theme?: ThemeId): TextBlock {
  const top = typeScale(sc, theme).ladder[0];
  const size = fitSize(ctx, [slide.headline], headlineWeight(theme), sc.textWidth, top, Math.round(top * 1.6));
  return textBlock(ctx, slide, size, Math.max(m.subSize, Math.round(size * 0.42)), sc, theme);
}

export interface Placement {
  /** Top of the text block. */
  textTop: number;
  frame: FrameBox | null;
  /** Full bleed: the screen without a frame, whole (see bleedBox). */
  bleed: Bleed | null;
}

/** A screen drawn without a frame; `radii` are its corners: top-left, top-right, bottom-right, bottom-left. */
export interface Bleed {
  x: number;
  y: number;
  width: number;
  height: number;
  radii: [number, number, number, number];
}

/**
 * A `bleed` theme's screen (full-bleed): no frame, under the text (`top`), `share` of the slide's
 * width. A portrait screen (or a window on a landscape slide) taller than the room bleeds off the
 * bottom edge; one that fits rises from the bottom edge. Its top corners are rounded like its
 * display's. A landscape screen on a portrait slide spans the slide's width, centred in the room.
 */
export function bleedBox(device: Device, d: Display, sc: Scale, top: number, share: number): Bleed {
  const { width: W, height: H } = sc;
  const room = H - top;
  const r = (w: number, h: number) => Math.round(Math.min(w, h) * frameOf(device).radius);
  if (d.landscape && W < H) {
    const w = Math.min(W, Math.floor(room * d.aspect));
    const h = Math.round(w / d.aspect);
    const k = w < W ? r(w, h) : 0;
    return { x: Math.round((W - w) / 2), y: Math.round(top + (room - h) / 2), width: w, height: h, radii: [k, k, k, k] };
  }
  const w = Math.round(W * share);
  const h = Math.round(d.landscape ? w / d.aspect : w * d.aspect);
  const k = r(w, h);
  return { x: Math.round((W - w) / 2), y: h > room ? Math.round(top) : H - h, width: w, height: h, radii: [k, k, 0, 0] };
}

export { isHero };

/** The device's share of the slide's width for a layout in a theme (THEMES[…].product). */
export const productShare = (layout: string, theme?: ThemeId): number => {
  const p = themeFor(theme).product;
  return isHero(layout) ? p.hero : p.feature;
};

/**
 * Where the text and the product go. `extraTop`: room the hero keeps between its text and its
 * device (the store's rating). A portrait device (and a window on a landscape slide) is
 * productShare of the slide's width, whatever its height: under the text it bleeds off the bottom
 * edge, over a bottom headline off the top edge, never over the text. A landscape device on a
 * portrait slide is as wide as the slide allows, centred in the space left.
 */
export function place(
  device: Device,
  layout: string,
  m: SetMetrics,
  own: TextBlock,
  sc: Scale,
  d: Display,
  theme?: ThemeId,
  extraTop = 0,
): Placement {
  const { width: W, height: H, padTop, gap } = sc;
  const cx = W / 2;
  const bottomPad = Math.round(H * 0.045);
  if (layout === 'text-only') return { textTop: Math.round((H - own.height) / 2), frame: null, bleed: null };
  const share = productShare(layout, theme);
  // The hero is a composition of its own: its device follows its own text, not the set's tallest.
  const below = padTop + (isHero(layout) ? own.height : m.blockHeight) + gap + extraTop;
  if (themeFor(theme).screen === 'bleed') return { textTop: padTop, frame: null, bleed: bleedBox(device, d, sc, below, share) };
  if (d.landscape && W < H) {
    const maxW = W * 0.9;
    const centred = (top: number, bottom: number) => {
      const w = frameWidthFor(device, d, maxW, bottom - top);
      return frameBox(device, d, cx, top + (bottom - top - heightOf(device, d, w)) / 2, w);
    };
    if (layout === 'headline-bottom') {
      const textTop = H - padTop - m.blockHeight;
      return { textTop, frame: centred(bottomPad, textTop - gap), bleed: null };
    }
    return { textTop: padTop, frame: centred(below, H - bottomPad), bleed: null };
  }
  const w = W * share;
  const h = heightOf(device, d, w);
  if (layout === 'headline-bottom') {
    // The text sits on the bottom margin; the device hangs above it.
    const textTop = H - padTop - own.height;
    const bottom = textTop - gap;
    // Centred in the room above the text when it fits there, else hanging from the top edge.
    const y = h <= bottom - bottomPad ? bottomPad + (bottom - bottomPad - h) / 2 : bottom - h;
    return { textTop, frame: frameBox(device, d, cx, y, w), bleed: null };
  }
  // headline-top, hero-centered and any layout this renderer does not know yet: under the text,
  // raised from the bottom edge when it fits, else bleeding off it.
  const room = H - bottomPad - below;
  return { textTop: padTop, frame: frameBox(device, d, cx, h <= room ? below + (room - h) / 2 : below, w), bleed: null };
}

function heightOf(device: Device, d: Display, outerWidth: number): number {
  return frameBox(device, d, 0, 0, outerWidth).height;
}
