/**
 * The looks of THEME_IDS in pixels: each theme's background, the text colour (the more legible of
 * the slide's own and white or ink, by WCAG contrast) and whether the screen is framed. Colours
 * come from the app's brand when the set has one, else from the slide's planned colours.
 */
import type { SKRSContext2D } from '@napi-rs/canvas';
import { withContrast } from '../core/colour.ts';
import { DEFAULT_THEME, type BrandColors, type ThemeId } from '../core/themes.ts';
import type { Scale } from './layout.ts';
import type { SlideLook } from './types.ts';

const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;
const INK = '#111827';
const WHITE = '#FFFFFF';
const DARK = ['#0B0D12', '#171B24'];

function rgb(hex: string): [number, number, number] {
  const h = hex.length === 4 ? [...hex.slice(1)].map((c) => c + c).join('') : hex.slice(1);
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as [number, number, number];
}

const channel = (c: number) => (c / 255 <= 0.04045 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);

/** WCAG 2 relative luminance of #RGB / #RRGGBB. */
export function luminance(hex: string): number {
  const [r, g, b] = rgb(hex).map(channel);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio, 1..21. */
export function contrast(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

/** Mixes a colour toward another (t = 0: a, 1: b), in sRGB. */
export function mix(a: string, b: string, t: number): string {
  const [p, q] = [rgb(a), rgb(b)];
  return `#${p
    .map((c, i) =>
      Math.round(c + (q[i] - c) * t)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')
    .toUpperCase()}`;
}

/** Text at the subheadline's size is normal text for WCAG: AA asks 4.5:1. */
export const MIN_CONTRAST = 4.5;

export interface Look {
  theme: ThemeId;
  /** Gradient stops of the background, top-left to bottom-right. */
  stops: string[];
  text: string;
  /** The text colour's lowest contrast against the background under it. */
  contrast: number;
  /** A glow of the brand colour behind the device (the dark theme). */
  glow: string | null;
  framed: boolean;
}

const lowest = (text: string, stops: string[]) => Math.min(...stops.map((s) => contrast(text, s)));

/** The slide's own text colour when it is legible enough, else whichever of white and ink reads better. */
function textFor(stops: string[], wanted: string | undefined): string {
  if (wanted && HEX.test(wanted) && lowest(wanted, stops) >= MIN_CONTRAST) return wanted;
  return lowest(WHITE, stops) >= lowest(INK, stops) ? WHITE : INK;
}

export function lookOf(theme: ThemeId | undefined, slide: SlideLook, brand: BrandColors | undefined, panoramaColors?: string[]): Look {
  const t = theme ?? DEFAULT_THEME;
  const own = (panoramaColors ?? slide.background.colors).filter((c) => HEX.test(c));
  const primary = brand && HEX.test(brand.primary) ? brand.primary : (own[0] ?? '#4F46E5');
  const secondary = brand && HEX.test(brand.secondary) ? brand.secondary : (own[1] ?? mix(primary, '#000000', 0.25));
  // The slide's text colour was chosen for the slide's colours; with the brand's it is chosen anew.
  const wanted = brand ? undefined : slide.textColor;
  let stops: string[];
  let glow: string | null = null;
  switch (t) {
    case 'bold':
      stops = [primary];
      break;
    case 'dark':
      stops = DARK;
      glow = primary;
      break;
    case 'soft':
      // Light, airy ends of the brand colours; the planned colours are already a gradient.
      stops = brand ? [mix(primary, WHITE, 0.55), mix(secondary, WHITE, 0.3)] : own.length ? own : [primary, secondary];
      break;
    case 'panoramic':
      stops = own.length && !brand ? own : [primary, secondary];
      break;
    case 'full-bleed':
      stops = [primary, secondary];
      break;
  }
  if (stops.length === 1) stops = [stops[0], stops[0]];
  const text = t === 'dark' ? '#F5F7FA' : textFor(stops, wanted);
  // A gradient of a light and a dark brand colour (a green to a navy) may let neither white nor
  // ink reach AA on both ends: the ends that fall short get darker (or lighter) in lightness only,
  // hue kept, until the text reads everywhere. Every slide of a panorama does the same: seams meet.
  if (lowest(text, stops) < MIN_CONTRAST) stops = stops.map((s) => withContrast(mix(s, s, 0), text));
  return { theme: t, stops, text, contrast: Math.round(lowest(text, stops) * 100) / 100, glow, framed: t !== 'full-bleed' };
}

/**
 * The background. In a panorama every slide draws the same wide picture shifted by its index, so
 * slide i holds exactly the i-th slice and the edges of neighbours meet.
 */
export function drawBackground(ctx: SKRSContext2D, sc: Scale, look: Look, panorama: { index: number; count: number } | null): void {
  const W = sc.width;
  const H = sc.height;
  const count = panorama?.count ?? 1;
  const total = W * count;
  ctx.save();
  if (panorama) ctx.translate(-panorama.index * W, 0);
  const g = ctx.createLinearGradient(0, 0, total, H);
  look.stops.forEach((c, i) => g.addColorStop(i / (look.stops.length - 1), c));
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, total, H);
  if (panorama) {
    // A ribbon and rings that cross the seams: swiping shows one continuous picture.
    ctx.fillStyle = 'rgba(255, 255, 255, 0.10)';
    ctx.beginPath();
    ctx.moveTo(0, H * 0.62);
    for (let x = 0; x <= total; x += W / 16) ctx.lineTo(x, H * (0.62 + 0.08 * Math.sin((x / W) * Math.PI)));
    for (let x = total; x >= 0; x -= W / 16) ctx.lineTo(x, H * (0.74 + 0.08 * Math.sin((x / W) * Math.PI + 0.8)));
    ctx.closePath();
    ctx.fill();
    ctx.strokeStyle = 'rgba(255, 255, 255, 0.14)';
    ctx.lineWidth = W * 0.02;
    for (let i = 1; i < count; i++) {
      ctx.beginPath();
      ctx.arc(i * W, H * (i % 2 ? 0.3 : 0.5), W * 0.22, 0, Math.PI * 2);
      ctx.stroke();
    }
  } else if (look.theme === 'bold') {
    // One large disc of the text colour, faint: the flat brand colour gets depth, not noise.
    ctx.fillStyle = look.text === WHITE ? 'rgba(255, 255, 255, 0.08)' : 'rgba(17, 24, 39, 0.06)';
    ctx.beginPath();
    ctx.arc(W * 0.95, H * 0.62, W * 0.75, 0, Math.PI * 2);
    ctx.fill();
  } else if (look.glow) {
    const r = ctx.createRadialGradient(W / 2, H * 0.62, 0, W / 2, H * 0.62, W * 0.8);
    r.addColorStop(0, `${look.glow}8C`);
    r.addColorStop(1, `${look.glow}00`);
    ctx.fillStyle = r;
    ctx.fillRect(0, 0, W, H);
  }
  ctx.restore();
}
