/**
 * The looks a set can take, shared by the API (`theme` on POST /screenshots and the brand kit), the
 * planner (which colours it picks) and the renderer (how it draws them). Kept apart from both so
 * neither imports the other for a name.
 */
export const THEME_IDS = ['bold', 'soft', 'dark', 'full-bleed', 'panoramic'] as const;
export type ThemeId = (typeof THEME_IDS)[number];

/** A set without a theme, and an app without a brand kit, gets this one. */
export const DEFAULT_THEME: ThemeId = 'soft';

export const THEME_NAMES: Record<ThemeId, string> = {
  bold: 'Bold: brand colour, big type',
  soft: 'Soft gradient',
  dark: 'Dark',
  'full-bleed': 'Full bleed, no frame',
  panoramic: 'Panoramic: one background across the set',
};

/** An app's brand colours (#RRGGBB), taken from its icon or set in its brand kit. */
export interface BrandColors {
  /** The dominant colour: backgrounds of the bold theme, accents elsewhere. */
  primary: string;
  /** A second colour that sits well beside it: gradients' other end. */
  secondary: string;
}

/**
 * The fonts a brand kit may name, each one of the renderer's bundled families (src/rendering/
 * font-sources.ts). A brand font draws the Latin text (Greek and Cyrillic where it has them); the other scripts of a
 * caption still fall back through the bundled Noto list.
 */
export const BRAND_FONTS = {
  'noto-sans': { family: 'sg-latin', name: 'Noto Sans', use: 'neutral and clear in every script; the default' },
  inter: { family: 'sg-brand-inter', name: 'Inter', use: 'a crisp UI sans for productivity, finance and developer tools' },
  poppins: { family: 'sg-brand-poppins', name: 'Poppins', use: 'geometric and bold for marketing-led, fitness and shopping apps' },
  'playfair-display': {
    family: 'sg-brand-playfair',
    name: 'Playfair Display',
    use: 'a high-contrast serif for lifestyle, food, travel, books and news',
  },
  nunito: { family: 'sg-brand-nunito', name: 'Nunito', use: 'rounded and friendly for kids, games, pets and casual apps' },
} as const;
export type BrandFontId = keyof typeof BRAND_FONTS;
export const BRAND_FONT_IDS = Object.keys(BRAND_FONTS) as BrandFontId[];
export const DEFAULT_BRAND_FONT: BrandFontId = 'noto-sans';
