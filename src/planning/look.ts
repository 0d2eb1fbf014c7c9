/** Colours and layouts: the app's brand gradient and a text colour that passes WCAG AA on it. */
import { accessible, fallbackPalette } from '../brand/palette.ts';
import type { BrandColors } from '../core/themes.ts';
import type { Role } from '../core/narratives.ts';

export const LAYOUTS = ['hero-centered', 'headline-top', 'headline-bottom', 'text-only'] as const;
export type Layout = (typeof LAYOUTS)[number];

export { contrastRatio, MIN_CONTRAST } from '../core/colour.ts';

export interface Palette {
  colors: string[];
  textColor: string;
}

/**
 * The slides' colours: the app's brand (its icon's colours or its brand kit, resolved by the
 * worker), else colours from the app's name. Either way both stops pass AA under the text colour.
 */
export function paletteFor(brand: BrandColors | null | undefined, name: string): Palette {
  const p = brand ? accessible(brand.primary, brand.secondary) : fallbackPalette(name);
  return { colors: [p.primary, p.secondary], textColor: p.textColor };
}

/**
 * A slide's composition follows its position, not its story role: the first slide (the one the
 * store's search results show first) is the hero, the others alternate the headline's side. So
 * when slides are reordered the rhythm stays: whichever slide comes first gets the cover.
 */
export function layoutFor(_role: Role, index: number, hasScreenshot: boolean): Layout {
  if (!hasScreenshot) return 'text-only';
  if (index === 0) return 'hero-centered';
  return index % 2 === 0 ? 'headline-top' : 'headline-bottom';
}
