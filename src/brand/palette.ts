/**
 * Brand colours made into what a slide needs: both colours readable under one text colour (WCAG
 * AA), moved in lightness only so the brand's hue stays. No image code here: the planner's
 * threads load this file.
 */
import { hash } from '../core/hash.ts';
import { fromHex, hslToRgb, MIN_CONTRAST, rgbToHsl, textColorFor, toHex, withContrast } from '../core/colour.ts';
import type { BrandColors } from '../core/themes.ts';

/** Brand colours with the text colour that passes AA on both. */
export interface BrandPalette extends BrandColors {
  textColor: string;
}

/** Both colours made readable under the same text colour. */
export function accessible(primary: string, secondary: string): BrandPalette {
  let { textColor } = textColorFor([primary, secondary]);
  let p = withContrast(primary, textColor);
  let s = withContrast(secondary, textColor);
  // The other text colour may need a smaller change of the brand; keep whichever moves it least.
  const other = textColor === '#FFFFFF' ? '#111827' : '#FFFFFF';
  const p2 = withContrast(primary, other);
  const s2 = withContrast(secondary, other);
  const moved = (a: string, b: string) => Math.abs(rgbToHsl(fromHex(a))[2] - rgbToHsl(fromHex(b))[2]);
  const cost = (a: string, b: string, text: string) =>
    // A saturated mid-tone under white text is how brands usually look (a red button, a blue bar);
    // lightening it for dark text washes it out: white text wins a near tie.
    moved(primary, a) + moved(secondary, b) + (text === '#FFFFFF' ? 0 : 0.06);
  if (cost(p2, s2, other) < cost(p, s, textColor)) [p, s, textColor] = [p2, s2, other];
  return { primary: p, secondary: s, textColor };
}

/**
 * When the icon cannot be had: colours from the app's name, the same for the same name every
 * time, and as readable as the icon's would be.
 */
export function fallbackPalette(name: string): BrandPalette {
  const h = hash(name) % 360;
  return accessible(toHex(hslToRgb(h, 0.62, 0.42)), toHex(hslToRgb((h + 32) % 360, 0.58, 0.34)));
}

/** Brand colours someone chose (the brand kit): made into a palette, or null when no text colour reaches AA on both. */
export function paletteFromColors(colors: BrandColors): BrandPalette | null {
  const { textColor, contrast } = textColorFor([colors.primary, colors.secondary]);
  return contrast >= MIN_CONTRAST ? { ...colors, textColor } : null;
}

/**
 * A neighbour of a colour on the colour wheel: the gradient's other end when a brand names one
 * colour (a kit without `secondary`, a one-colour icon). Reds, oranges and yellows turn towards
 * red and magenta (a yellow into lime, a red into brown look wrong), every other hue turns cooler.
 */
export function companion(hex: string): string {
  const [h, s, l] = rgbToHsl(fromHex(hex));
  const hue = h <= 100 || h >= 330 ? (h + 336) % 360 : (h + 28) % 360;
  return toHex(hslToRgb(hue, Math.min(1, s * 0.9 + 0.05), l > 0.5 ? l - 0.1 : l + 0.08));
}

/**
 * An accent for a brand that names none: the primary's complement, vivid and light enough to
 * stand out beside it (blue → orange, purple → amber, green → pink, red → teal). The
 * yellow-greens a complement can land on look like a warning, not a brand: they become amber.
 */
export function derivedAccent(primary: string): string {
  const [h] = rgbToHsl(fromHex(primary));
  let hue = (h + 180) % 360;
  if (hue >= 58 && hue < 100) hue = 42;
  return toHex(hslToRgb(hue, 0.9, 0.56));
}

/**
 * The background's other end for a kit that names only its primary: the companion's hue, moved
 * away from the text colour the primary takes (deeper under white text, lighter under ink), so the
 * gradient has depth and text reads along all of it, and an accent that reads on the primary
 * reads on the whole background (a purple goes into a deep violet, never towards the amber).
 */
export function kitSecondary(primary: string): string {
  const [h, s] = rgbToHsl(fromHex(companion(primary)));
  const [, , l] = rgbToHsl(fromHex(primary));
  const deeper = textColorFor([primary]).textColor === '#FFFFFF';
  return toHex(hslToRgb(h, s, Math.max(0.08, Math.min(0.92, deeper ? l - 0.12 : l + 0.12))));
}
