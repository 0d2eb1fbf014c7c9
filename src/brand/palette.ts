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
