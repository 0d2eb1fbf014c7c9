/**
 * The one home of colour arithmetic, for the brand and the renderer alike: hex <-> RGB <-> HSL,
 * mixing, WCAG 2.x relative luminance and contrast, the text colour (white or near-black) that reads
 * best, and the one rule every brand colour obeys: some text colour reaches AA on it, so a slide in
 * the brand's colours is always readable.
 */

/** WCAG 2.x AA for normal-size text: a slide's subheadline is normal text, so every slide is held to it. */
export const MIN_CONTRAST = 4.5;
export const LIGHT_TEXT = '#FFFFFF';
export const DARK_TEXT = '#111827';
export const HEX_COLOR = /^#[0-9A-F]{6}$/;
/** What the renderer accepts as a colour (a plan file may hold any of these): #RGB or #RRGGBB, either case. */
export const ANY_HEX = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;

export type Rgb = [number, number, number];

export const toHex = ([r, g, b]: Rgb): string =>
  `#${[r, g, b]
    .map((c) =>
      Math.round(Math.max(0, Math.min(255, c)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`.toUpperCase();

/** #RRGGBB, or #RGB (each digit doubled), in either case. */
export function fromHex(hex: string): Rgb {
  const h = hex.length === 4 ? [...hex.slice(1)].map((c) => c + c).join('') : hex.slice(1);
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as Rgb;
}

/** A colour mixed toward another (t = 0: a, 1: b) in sRGB, as #RRGGBB. */
export function mix(a: string, b: string, t: number): string {
  const [p, q] = [fromHex(a), fromHex(b)];
  return toHex(p.map((c, i) => c + (q[i] - c) * t) as Rgb);
}

/** h in degrees, s and l in 0..1. */
export function rgbToHsl([r, g, b]: Rgb): [number, number, number] {
  const [rn, gn, bn] = [r / 255, g / 255, b / 255];
  const max = Math.max(rn, gn, bn);
  const min = Math.min(rn, gn, bn);
  const l = (max + min) / 2;
  if (max === min) return [0, 0, l];
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  const h = max === rn ? (gn - bn) / d + (gn < bn ? 6 : 0) : max === gn ? (bn - rn) / d + 2 : (rn - gn) / d + 4;
  return [h * 60, s, l];
}

export function hslToRgb(h: number, s: number, l: number): Rgb {
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => 255 * (l - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1)));
  return [f(0), f(8), f(4)];
}

/** WCAG 2 relative luminance, 0..1. */
export function luminance(hex: string): number {
  const [r, g, b] = fromHex(hex)
    .map((c) => c / 255)
    .map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio, 1..21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** The text colour that reads best on every one of these backgrounds (its worst contrast highest). */
export function textColorFor(backgrounds: string[]): { textColor: string; contrast: number } {
  const worst = (text: string) => Math.min(...backgrounds.map((b) => contrastRatio(b, text)));
  const light = worst(LIGHT_TEXT);
  const dark = worst(DARK_TEXT);
  return light >= dark ? { textColor: LIGHT_TEXT, contrast: light } : { textColor: DARK_TEXT, contrast: dark };
}

/**
 * The colour moved in lightness only (hue and saturation kept, so a green stays the same green)
 * until `text` reaches AA on it: darker under white text, lighter under dark text.
 */
export function withContrast(hex: string, text: string): string {
  if (contrastRatio(hex, text) >= MIN_CONTRAST) return hex;
  const [h, s, l0] = rgbToHsl(fromHex(hex));
  const darker = text === LIGHT_TEXT;
  for (let step = 1; step <= 100; step++) {
    const l = darker ? l0 - step / 100 : l0 + step / 100;
    if (l < 0 || l > 1) break;
    const candidate = toHex(hslToRgb(h, s, l));
    if (contrastRatio(candidate, text) >= MIN_CONTRAST) return candidate;
  }
  return darker ? '#000000' : '#FFFFFF';
}
