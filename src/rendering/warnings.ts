/**
 * The lint's findings a person should read, as the set's warnings: what was drawn differently from
 * what was asked (a screen not framed, characters without a glyph) or is weaker than it should be
 * (low contrast, a cropped or enlarged screen). Store-rule breaks are not warnings: they fail the job.
 */
import type { SlideLint } from './types.ts';
import { MIN_CONTRAST } from '../core/colour.ts';

/** Beyond this the screen is visibly soft. */
const MAX_UPSCALE_PCT = 50;
/** Beyond this a screen is not "whole", framed or full-bleed. */
const MAX_CROP_PCT = 5;

export function lintWarnings(indexes: number[], lints: SlideLint[]): string[] {
  const out: string[] = [];
  lints.forEach((l, i) => {
    const n = indexes[i];
    if (l.marketingImage)
      out.push(`Slide ${n}: its screen was not framed because ${l.marketingImage}; it is shown whole, without a frame.`);
    if (l.missingGlyphs.length) out.push(`Slide ${n}: no bundled font draws ${l.missingGlyphs.join(' ')}; those characters are left out.`);
    if (l.contrast < MIN_CONTRAST) out.push(`Slide ${n}: the text's contrast is ${l.contrast}:1, under WCAG AA's ${MIN_CONTRAST}:1.`);
    if ((l.screenUpscaledPct ?? 0) > MAX_UPSCALE_PCT)
      out.push(`Slide ${n}: the screen is enlarged by ${l.screenUpscaledPct}%, so it looks soft; upload a larger screenshot.`);
    if ((l.screenCroppedPct ?? 0) > MAX_CROP_PCT) out.push(`Slide ${n}: ${l.screenCroppedPct}% of the screen is cut off.`);
    for (const w of l.warnings ?? []) out.push(`Slide ${n}: ${w}`);
  });
  return out;
}
