/**
 * Whether a caption can be drawn on its slide at all: the renderer shrinks a set's type until every
 * caption fits in MAX_LINES lines, down to a floor; a caption that does not fit even there would run
 * over the device or the slide's edge, which no store accepts. This asks the renderer's own fitting
 * (the functions its threads use), so the answer cannot drift from what a render would do.
 */
import type { SKRSContext2D } from '@napi-rs/canvas';
import { skia } from '../../rendering/canvas.ts';
import type { Device } from '../../core/devices.ts';
import type { BrandFontId } from '../../core/themes.ts';
import { registerFontsFor, useBrandFont } from '../../rendering/fonts.ts';
import { fitSet, scaleOf } from '../../rendering/layout.ts';
import { linesAt, MAX_LINES } from '../../rendering/text.ts';
import type { SetMetrics, SlideLook } from '../../rendering/types.ts';

export interface CaptionFit {
  headline: { fits: boolean; lines: number };
  subheadline: { fits: boolean; lines: number } | null;
}

let ctx: SKRSContext2D | null = null;

/** How the caption wraps at the size the renderer would give it alone, the largest it can have. */
export function captionFit(device: Device, headline: string, subheadline: string | null, font?: BrandFontId): CaptionFit {
  registerFontsFor([headline, subheadline]);
  ctx ??= skia().createCanvas(1, 1).getContext('2d');
  useBrandFont(ctx, font);
  const look = { headline, subheadline, layout: 'headline-top', background: { colors: ['#000000'] }, textColor: '#FFFFFF' };
  const m = fitSet(ctx, device, [look]);
  const width = scaleOf(device).textWidth;
  const h = linesAt(ctx, headline, 700, m.headlineSizes[0], width);
  const s = subheadline ? linesAt(ctx, subheadline, 400, m.subSize, width) : null;
  return {
    headline: { fits: h.fits && h.lines.length <= MAX_LINES, lines: h.lines.length },
    subheadline: s ? { fits: s.fits && s.lines.length <= MAX_LINES, lines: s.lines.length } : null,
  };
}

/** The set's shared type sizes, as the render threads compute them (the same function), in the captions' language. */
export function setMetrics(device: Device, slides: SlideLook[], font?: BrandFontId, locale?: string): SetMetrics {
  registerFontsFor(slides.flatMap((s) => [s.headline, s.subheadline]));
  ctx ??= skia().createCanvas(1, 1).getContext('2d');
  useBrandFont(ctx, font);
  return fitSet(
    ctx,
    device,
    slides.map((s) => (locale ? { ...s, lang: locale } : s)),
  );
}
