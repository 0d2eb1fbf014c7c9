/**
 * The store's rating on the hero slide: "★★★★★ 4.8 · 12K ratings" under the headline, in the text
 * colour, set at the subheadline's size or a little above. The stars are filled to the value, as the
 * stores draw them (4.7 fills four and seven tenths), over a faint row of five: whole stars for the
 * rounded value put five full stars beside "4.7", a claim the figure beside it contradicts. Shown only where it sells: 50 ratings
 * or more and 4.0 or better (set by the caller, RenderInput.rating; checked again here).
 */
import type { SKRSContext2D } from '@napi-rs/canvas';
import { setFont } from './fonts.ts';
import type { Scale } from './layout.ts';
import type { SetMetrics, StoreRating } from './types.ts';

export const MIN_RATINGS = 50;
export const MIN_RATING = 4;

export const shownRating = (r: StoreRating | null | undefined): StoreRating | null =>
  r && r.count >= MIN_RATINGS && r.value >= MIN_RATING && r.value <= 5 ? r : null;

const compact = new Intl.NumberFormat('en', {
  notation: 'compact',
  maximumFractionDigits: 1,
  roundingMode: 'floor',
} as Intl.NumberFormatOptions);

const STARS = '★★★★★';
/** The share of the five stars lit: the value as the line prints it (floored to a tenth), over 5. */
export const starsFilled = (r: StoreRating): number => Math.floor(r.value * 10) / 50;

/** The line as laid out: five stars (lit to the value when drawn), the value with one decimal, the count. */
export function ratingLine(r: StoreRating): string {
  const value = (Math.floor(r.value * 10) / 10).toFixed(1);
  const count = r.count < 1000 ? String(r.count) : `${compact.format(r.count)}+`;
  return `${STARS}  ${value} · ${count} ratings`;
}

/**
 * The line's size and drawn width: the subheadline's size or a little above, but never wider than
 * the text's column (the bold theme's large subheadline size ran it past both edges of the slide).
 */
export function ratingFit(ctx: SKRSContext2D, r: StoreRating, m: SetMetrics, sc: Scale): { size: number; width: number } {
  const line = ratingLine(r);
  setFont(ctx, 700, 100, line);
  const per = ctx.measureText(line).width / 100;
  const size = Math.floor(Math.min(Math.max(m.subSize * 1.05, sc.base * 0.04), sc.textWidth / per));
  return { size, width: size * per };
}

/** The room the line takes under the headline, its gap included. */
export const ratingRoom = (ctx: SKRSContext2D, r: StoreRating, m: SetMetrics, sc: Scale): number =>
  Math.round(ratingFit(ctx, r, m, sc).size * 1.4 + sc.gap * 0.4);

export function drawRating(ctx: SKRSContext2D, r: StoreRating, m: SetMetrics, sc: Scale, color: string, top: number): void {
  const { size } = ratingFit(ctx, r, m, sc);
  const line = ratingLine(r);
  setFont(ctx, 700, size, line);
  ctx.direction = 'ltr';
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  ctx.fillStyle = color;
  const y = top + sc.gap * 0.4 + (size * 1.4) / 2;
  const left = (sc.width - ctx.measureText(line).width) / 2;
  const stars = ctx.measureText(STARS).width;
  ctx.fillText(line.slice(STARS.length), left + stars, y);
  // The unlit part faint, then the lit part clipped to the value's share of the row.
  ctx.save();
  ctx.globalAlpha = 0.3;
  ctx.fillText(STARS, left, y);
  ctx.restore();
  ctx.save();
  ctx.beginPath();
  ctx.rect(left, y - size, stars * starsFilled(r), size * 2);
  ctx.clip();
  ctx.fillText(STARS, left, y);
  ctx.restore();
}
