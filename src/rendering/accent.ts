/**
 * The brand's accent on a slide: each headline's key word marked the way the theme says
 * (THEMES[…].accent), the same on every slide of a set, as the best store pages mark the one word
 * a shopper should take away. Contrast is looked at only where text sits: a marker's word gets
 * whichever of white and ink reads on the accent, a swash is lightened (or darkened) until the
 * text colour reads on it, a word drawn in the accent must reach 3:1 on the background (WCAG AA
 * for large text: headlines are) or the accent becomes an underline, which carries no text.
 */
import type { SKRSContext2D } from '@napi-rs/canvas';
import { contrastRatio, fromHex, hslToRgb, luminance, rgbToHsl, textColorFor, toHex, withContrast } from '../core/colour.ts';
import { themeFor, type BrandColors, type ThemeId } from '../core/themes.ts';
import { derivedAccent } from '../brand/palette.ts';
import { setFont } from './fonts.ts';
import type { TextBlock } from './layout.ts';
import { directionOf, HEADLINE_LINE_HEIGHT } from './text.ts';

export type AccentStyle = 'marker' | 'swash' | 'word' | 'underline';

export interface Accent {
  /** The accent as drawn (moved in lightness only where text sits on it). */
  color: string;
  style: AccentStyle;
  /** The key word's colour: the accent for `word`, the colour that reads on the marker for `marker`, else the text's. */
  ink: string;
}

/** Large text (WCAG: ≥ 24 px, or ≥ 18.66 px bold) reads at 3:1; every headline is that large. */
const LARGE_TEXT_CONTRAST = 3;

/**
 * The set's accent with this theme and these colours: null without brand colours (a set without
 * them keeps each slide's planned colours, and no accent belongs to them).
 */
export function accentOf(theme: ThemeId | undefined, brand: BrandColors | undefined, text: string, stops: string[]): Accent | null {
  if (!brand) return null;
  // A brand's own accent is drawn as it is; one derived here may move in lightness to read.
  const derived = !brand.accent;
  const base = (brand.accent ?? derivedAccent(brand.primary)).toUpperCase();
  const style = themeFor(theme).accent;
  if (style === 'marker') {
    const { textColor } = textColorFor([base]);
    const color = withContrast(base, textColor);
    return { color, style, ink: textColor };
  }
  if (style === 'swash') return { color: withContrast(base, text), style, ink: text };
  if (derived) {
    const word = vividWord(brand.primary, stops);
    return word ? { color: word, style: 'word', ink: word } : { color: base, style: 'underline', ink: text };
  }
  const reads = lowest(base, stops) >= LARGE_TEXT_CONTRAST;
  return reads ? { color: base, style: 'word', ink: base } : { color: base, style: 'underline', ink: text };
}

/** HSL chroma: how vivid a colour looks (0 grey, white or black; 1 a pure hue). */
export function chromaOf(color: string): number {
  const [, s, l] = rgbToHsl(fromHex(color));
  return s * (1 - Math.abs(2 * l - 1));
}

/** The least chroma a derived accent's word keeps: below it the word reads as pale or muddy text, not as the brand's accent. */
export const MIN_ACCENT_CHROMA = 0.45;

/**
 * A derived accent for a word drawn in it: the primary's complement, or a hue near it (up to 60°
 * either way, or amber), whichever reads at 3:1 on every stop while staying the most vivid. The
 * complement alone had to be lightened to a pale pink on a green-to-navy background (chroma 0.23)
 * or darkened to a near-black teal on a red-to-amber one; amber keeps its colour there. Null
 * when none stays vivid: the accent is then an underline.
 */
function vividWord(primary: string, stops: string[]): string | null {
  const [h] = rgbToHsl(fromHex(derivedAccent(primary)));
  const hues = [0, 30, -30, 60, -60].map((d) => (h + d + 360) % 360).filter((x) => x < 58 || x >= 100);
  let best: { color: string; score: number } | null = null;
  for (const [i, hue] of [...hues, 42].entries()) {
    const color = readable(toHex(hslToRgb(hue, 0.9, 0.56)), stops);
    if (lowest(color, stops) < LARGE_TEXT_CONTRAST) continue;
    // Nearer the complement wins a tie: the brand's own derivation first.
    const score = chromaOf(color) - i * 0.01;
    if (chromaOf(color) >= MIN_ACCENT_CHROMA && (!best || score > best.score)) best = { color, score };
  }
  return best?.color ?? null;
}

const lowest = (color: string, stops: string[]) => Math.min(...stops.map((s) => contrastRatio(color, s)));

/** The colour moved in lightness (hue and saturation kept) until it reads as large text on every stop, or as it is. */
function readable(color: string, stops: string[]): string {
  const [h, s, l0] = rgbToHsl(fromHex(color));
  const lighter = stops.reduce((n, stop) => n + luminance(stop), 0) / stops.length < 0.18;
  for (let step = 0; step <= 60; step++) {
    const l = lighter ? l0 + step / 100 : l0 - step / 100;
    if (l < 0 || l > 1) break;
    const candidate = toHex(hslToRgb(h, s, l));
    if (lowest(candidate, stops) >= LARGE_TEXT_CONTRAST) return candidate;
  }
  return color;
}

/** Words that never carry a caption's point. */
const MINOR = new Set(
  'the a an and or of to in on for with your you our my at by from into it its is are be all any more most every each this that these those than then just'.split(
    ' ',
  ),
);
const SEGMENTER = new Intl.Segmenter(undefined, { granularity: 'word' });

/**
 * The headline's key word: of its words the slide's keywords name (a keyword may be a word's
 * stem: `habit` finds `Habits`), the longest, the later one of equals (the app's own subject,
 * named on every slide, is short next to the feature a slide is about: "Track Unlimited Habits"
 * marks Unlimited); without one, the longest word of four letters or more that is no minor word.
 * Null when there is none.
 */
export function keyWord(headline: string, keywords: readonly string[] = []): string | null {
  const words = [...SEGMENTER.segment(headline)].filter((s) => s.isWordLike).map((s) => s.segment);
  // Short Latin keywords ("eat", "day") are no point to mark; a two-character Japanese one may be.
  const wanted = keywords
    .map((k) => k.toLocaleLowerCase())
    .filter((k) => [...k].length >= 4 || (k.length >= 2 && /[^\u0020-\u024F]/u.test(k)));
  const named = (w: string) => {
    const lower = w.toLocaleLowerCase();
    return wanted.some((k) => lower === k || (lower.startsWith(k) && lower.length - k.length <= 3));
  };
  const longest = (ws: string[]) => ws.reduce<string | null>((best, w) => (!best || [...w].length >= [...best].length ? w : best), null);
  return longest(words.filter(named)) ?? longest(words.filter((w) => [...w].length >= 4 && !MINOR.has(w.toLocaleLowerCase())));
}

interface Placed {
  x: number;
  width: number;
  /** The middle of the word's line (text is drawn with a middle baseline). */
  mid: number;
  ascent: number;
  descent: number;
  size: number;
}

/**
 * Where the key word is drawn: found whole on one of the block's lines (centred at `cx`, from
 * `top`, as compose.ts draws them). Null when it is not (broken across lines) or the headline runs
 * right to left (a highlight there is left for later rather than drawn in the wrong place).
 */
function place(ctx: SKRSContext2D, headline: string, block: TextBlock, word: string, cx: number, top: number): Placed | null {
  if (directionOf(headline) === 'rtl') return null;
  const size = block.headlineSize;
  const lineHeight = size * HEADLINE_LINE_HEIGHT;
  setFont(ctx, block.headlineWeight, size, headline);
  // The word's ascent and descent from the line's middle, where it is drawn: measured from the
  // context's baseline of the moment (alphabetic on a fresh canvas), the marker sat a third of a
  // line high, over the line above, and ended at the baseline.
  ctx.textBaseline = 'middle';
  for (const [i, line] of block.headline.entries()) {
    const at = wordIndex(line, word);
    if (at < 0) continue;
    const lineWidth = ctx.measureText(line).width;
    const m = ctx.measureText(word);
    return {
      x: cx - lineWidth / 2 + ctx.measureText(line.slice(0, at)).width,
      width: m.width,
      mid: top + i * lineHeight + lineHeight / 2,
      ascent: Math.max(m.actualBoundingBoxAscent, size * 0.36),
      descent: Math.max(m.actualBoundingBoxDescent, size * 0.3),
      size,
    };
  }
  return null;
}

/** The word in the line where it stands alone (not inside a longer word). */
function wordIndex(line: string, word: string): number {
  const letter = /[\p{L}\p{N}]/u;
  for (let at = line.indexOf(word); at >= 0; at = line.indexOf(word, at + 1)) {
    const before = line[at - 1];
    const after = line[at + word.length];
    if ((!before || !letter.test(before)) && (!after || !letter.test(after))) return at;
  }
  return -1;
}

/**
 * Draws the headline with its key word marked: what goes under the text (marker, swash,
 * underline), the text (`drawText`, without the key word where it changes colour), then the word
 * in its own colour. Without an accent or a key word on a line, just `drawText`.
 */
export function drawWithAccent(
  ctx: SKRSContext2D,
  accent: Accent | null,
  slide: { headline: string; keywords?: readonly string[] },
  block: TextBlock,
  cx: number,
  top: number,
  drawText: () => void,
): void {
  const word = accent ? keyWord(slide.headline, slide.keywords) : null;
  const at = accent && word ? place(ctx, slide.headline, block, word, cx, top) : null;
  if (!accent || !word || !at) return drawText();
  const pad = at.size * 0.14;
  ctx.save();
  ctx.fillStyle = accent.color;
  ctx.beginPath();
  if (accent.style === 'marker')
    ctx.roundRect(at.x - pad, at.mid - at.ascent - pad * 0.8, at.width + 2 * pad, at.ascent + at.descent + pad * 1.6, at.size * 0.14);
  else if (accent.style === 'swash') {
    const band = swashBand(at);
    ctx.roundRect(band.x, band.y, band.w, band.h, at.size * 0.1);
  } else if (accent.style === 'underline') {
    const h = Math.max(4, at.size * 0.12);
    ctx.roundRect(at.x, at.mid + at.size * 0.42, at.width, h, h / 2);
  }
  ctx.fill();
  ctx.restore();
  if (accent.style !== 'marker' && accent.style !== 'word') return drawText();
  // The text everywhere but the word; then the word alone, in its colour (drawing it twice would
  // leave a fringe of the first colour around the second).
  const lineHeight = at.size * HEADLINE_LINE_HEIGHT;
  ctx.save();
  ctx.beginPath();
  ctx.rect(-1e5, -1e5, 2e5, 2e5);
  ctx.rect(at.x, at.mid - lineHeight / 2, at.width, lineHeight);
  ctx.clip('evenodd');
  drawText();
  ctx.restore();
  drawWord(ctx, accent.ink, slide.headline, block, word, at);
}

/**
 * A highlighter's stroke under the lower part of the letters, past the baseline and a little past
 * the word at both ends. Its top stays below the line's middle: a band whose top crossed the middle
 * of the lower-case letters read as a strike-through on the store's thumbnails (seen on the sheets).
 */
export function swashBand(at: Pick<Placed, 'x' | 'width' | 'mid' | 'size'>): { x: number; y: number; w: number; h: number } {
  const pad = at.size * 0.14;
  return { x: at.x - pad * 0.5, y: at.mid + at.size * 0.16, w: at.width + pad, h: at.size * 0.34 };
}

function drawWord(ctx: SKRSContext2D, color: string, headline: string, block: TextBlock, word: string, at: Placed): void {
  ctx.save();
  setFont(ctx, block.headlineWeight, at.size, headline);
  ctx.fillStyle = color;
  ctx.textAlign = 'left';
  ctx.direction = 'ltr';
  ctx.textBaseline = 'middle';
  ctx.fillText(word, at.x, at.mid);
  ctx.restore();
}
