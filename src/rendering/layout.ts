/**
 * Where things go on a slide. Sizes derive from the slide's size so every device looks alike; the
 * text block of a set is as tall as its tallest, so devices sit at the same height on every slide.
 */
import type { SKRSContext2D } from '@napi-rs/canvas';
import { DEVICES, type Device } from '../planning/types.ts';
import { frameBox, frameWidthFor, type FrameBox } from './frames.ts';
import { drawnLines, fitSize, HEADLINE_LINE_HEIGHT, SUB_LINE_HEIGHT } from './text.ts';
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

export interface TextBlock {
  headline: string[];
  sub: string[];
  height: number;
}

export function textBlock(ctx: SKRSContext2D, slide: SlideLook, m: SetMetrics, sc: Scale): TextBlock {
  const headline = drawnLines(ctx, slide.headline, 700, m.headlineSize, sc.textWidth);
  const sub = slide.subheadline ? drawnLines(ctx, slide.subheadline, 400, m.subSize, sc.textWidth) : [];
  const subHeight = sub.length ? m.headlineSize * 0.35 + sub.length * m.subSize * SUB_LINE_HEIGHT : 0;
  return { headline, sub, height: Math.ceil(headline.length * m.headlineSize * HEADLINE_LINE_HEIGHT + subHeight) };
}

/** One headline size and one subheadline size for the whole set: the largest that fit every slide. */
export function fitSet(ctx: SKRSContext2D, device: Device, slides: SlideLook[]): SetMetrics {
  const sc = scaleOf(device);
  const headlineSize = fitSize(
    ctx,
    slides.map((s) => s.headline),
    700,
    sc.textWidth,
    Math.round(sc.base * 0.04),
    Math.round(sc.base * 0.09),
  );
  const subs = slides.flatMap((s) => (s.subheadline ? [s.subheadline] : []));
  const subSize = fitSize(ctx, subs, 400, sc.textWidth, Math.round(sc.base * 0.026), Math.round(headlineSize * 0.52));
  const partial: SetMetrics = { headlineSize, subSize, blockHeight: 0 };
  const blockHeight = Math.max(0, ...slides.map((s) => textBlock(ctx, s, partial, sc).height));
  return { ...partial, blockHeight };
}

export interface Placement {
  /** Top of the text block. */
  textTop: number;
  frame: FrameBox | null;
}

export function place(device: Device, layout: string, m: SetMetrics, own: TextBlock, sc: Scale): Placement {
  const { width: W, height: H, padTop, gap } = sc;
  const cx = W / 2;
  const bottomPad = Math.round(H * 0.045);
  switch (layout) {
    case 'text-only':
      return { textTop: Math.round((H - own.height) / 2), frame: null };
    case 'headline-bottom': {
      const textTop = H - padTop - m.blockHeight;
      const maxH = textTop - gap - bottomPad;
      const w = frameWidthFor(device, W * 0.8, maxH);
      return { textTop, frame: frameBox(device, cx, bottomPad + (maxH - heightOf(device, w)) / 2, w) };
    }
    case 'hero-centered': {
      // The hero device is larger and runs off the bottom edge; at most a fifth of it is hidden.
      const top = padTop + m.blockHeight + gap;
      const w = frameWidthFor(device, W * 0.88, (H - top) / 0.8);
      return { textTop: padTop, frame: frameBox(device, cx, top, w) };
    }
    default: {
      // headline-top, and any layout this renderer does not know yet.
      const top = padTop + m.blockHeight + gap;
      const maxH = H - top - bottomPad;
      const w = frameWidthFor(device, W * 0.8, maxH);
      return { textTop: padTop, frame: frameBox(device, cx, top, w) };
    }
  }
}

function heightOf(device: Device, outerWidth: number): number {
  return frameBox(device, 0, 0, outerWidth).height;
}
