/**
 * The store's rating on the hero slide: "★★★★★ 4.8 · 12K ratings" under the headline, in the text
 * colour, set at the subheadline's size or a little above. The stars are drawn as shapes lit to the
 * value floored to a half star, as Play draws them (4.78: four and a half), over a faint row of
 * five: five full stars beside "4.7" claimed more than the figure, and a row of glyphs clipped at
 * 94 % of its width lit the fifth star's ink almost whole (the glyphs' side bearings). Shown only where it sells: 50 ratings
 * or more and 4.0 or better (set by the caller, RenderInput.rating; checked again here).
 */
import type { SKRSContext2D } from '@napi-rs/canvas';
import { setFont } from './fonts.ts';
import type { Scale, TextBlock } from './layout.ts';
import { HEADLINE_LINE_HEIGHT } from './text.ts';
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
/** How many of the five stars are lit: the value floored to a half star, never more than the store's. */
export const starsLit = (r: StoreRating): number => Math.min(5, Math.floor(r.value * 2) / 2);

/** Each star's lit share (1, ½ or 0), as drawn. */
export const starFills = (r: StoreRating): number[] => [0, 1, 2, 3, 4].map((i) => Math.max(0, Math.min(1, starsLit(r) - i)));

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
  drawStars(ctx, r, left, y, stars / 5, Math.min(stars / 10, size * 0.46));
}

/**
 * Each star a shape in its cell (the line's layout is the glyphs'): faint whole, then lit to its
 * share, a half star clipped at its own middle.
 */
function drawStars(ctx: SKRSContext2D, r: StoreRating, left: number, y: number, cell: number, radius: number): void {
  starFills(r).forEach((fill, i) => {
    const cx = left + cell * (i + 0.5);
    ctx.save();
    ctx.globalAlpha = 0.3;
    starPath(ctx, cx, y, radius);
    ctx.fill();
    ctx.restore();
    if (!fill) return;
    ctx.save();
    ctx.beginPath();
    ctx.rect(cx - radius, y - radius, 2 * radius * fill, 2 * radius);
    ctx.clip();
    starPath(ctx, cx, y, radius);
    ctx.fill();
    ctx.restore();
  });
}

/** The rating set beside a one-line headline: where the headline's centre and the two lines go. */
export interface RatingRow {
  /** The two lines' size: the stars over "4.7 · 12.8K+ ratings". */
  size: number;
  /** The headline's centre, moved left of the slide's to make room. */
  headlineCx: number;
  /** The lines' left edge. */
  left: number;
}

/** Line pitch of the two lines beside the headline, per pixel of their size. */
const ROW_PITCH = 1.25;
/**
 * The two lines may stand up to this many times the headline's line box, centred on it, to reach
 * the size the caller wants: bound to the line box they were 5.8 pt at store size on iPhone
 * landscape's regular themes (50 px on a 2868 px slide), the smallest rating of any set (design
 * read 2026-11-29-design-second). Their reach past the line (at most 9 % of the line box each
 * way) lies in the top padding and the gap under the text: the product keeps its height.
 */
export const ROW_REACH = 1.18;

/**
 * The rating beside the headline, as a block of two lines (the stars over the value and the
 * count) as tall as the headline's line, the pair centred on the slide: on a landscape cover the
 * line under the headline took 8-9 % of the short slide's height, and the product under it went a
 * fifth or more past the bottom edge (design read 2026-11-29). Null where the headline has more
 * than one line, the two lines would be under `least` px, or the pair is wider than the column.
 */
export function ratingRow(
  ctx: SKRSContext2D,
  r: StoreRating,
  block: TextBlock,
  sc: Scale,
  least: number,
  wanted = least,
): RatingRow | null {
  if (block.headline.length !== 1) return null;
  const line = block.headlineSize * HEADLINE_LINE_HEIGHT;
  const own = Math.floor(line / (2 * ROW_PITCH));
  if (own < least) return null;
  setFont(ctx, block.headlineWeight, block.headlineSize, block.headline[0]);
  const headline = ctx.measureText(block.headline[0]).width;
  const text = ratingLine(r).slice(STARS.length).trim();
  // Half the headline's size apart: clear of a marker's padding round the last word (0.14 of it).
  const gap = block.headlineSize * 0.5;
  const placed = (size: number): RatingRow | null => {
    setFont(ctx, 700, size, text);
    const total = headline + gap + Math.max(ctx.measureText(text).width, 5 * size * STAR_CELL);
    if (total > sc.textWidth) return null;
    const left = (sc.width - total) / 2;
    return { size, headlineCx: left + headline / 2, left: left + headline + gap };
  };
  // Taller than the line box only where that makes the pair no narrower than the column allows.
  const tall = Math.min(Math.floor((line * ROW_REACH) / (2 * ROW_PITCH)), Math.max(own, wanted));
  return (tall > own && placed(tall)) || placed(own);
}

/** A star's cell in the row beside the headline, per pixel of the lines' size. */
const STAR_CELL = 1.1;

/** Draws the rating beside the headline (ratingRow), `top` the headline's top and `lineBox` its line's height. */
export function drawRatingRow(ctx: SKRSContext2D, r: StoreRating, row: RatingRow, color: string, top: number, lineBox: number): void {
  const mid = top + lineBox / 2;
  const pitch = row.size * ROW_PITCH;
  const text = ratingLine(r).slice(STARS.length).trim();
  ctx.fillStyle = color;
  drawStars(ctx, r, row.left, mid - pitch / 2, row.size * STAR_CELL, row.size * 0.46);
  setFont(ctx, 700, row.size, text);
  ctx.direction = 'ltr';
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  ctx.fillText(text, row.left, mid + pitch / 2);
}

/** A five-pointed star about (cx, cy), a point up, its inner radius 0.4 of its outer (a store's star). */
export function starPath(ctx: SKRSContext2D, cx: number, cy: number, r: number): void {
  ctx.beginPath();
  for (let k = 0; k < 10; k++) {
    const a = -Math.PI / 2 + (k * Math.PI) / 5;
    const d = k % 2 ? r * 0.4 : r;
    // Centred on its box: a star's points reach r above its centre but only cos(36°) r below.
    const [x, yy] = [cx + d * Math.cos(a), cy + d * Math.sin(a) + (r * (1 - Math.cos(Math.PI / 5))) / 2];
    if (k) ctx.lineTo(x, yy);
    else ctx.moveTo(x, yy);
  }
  ctx.closePath();
}
