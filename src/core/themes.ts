/**
 * The looks a set can take, shared by the API (`theme` on POST /screenshots and the brand kit), the
 * planner, the renderer (how it draws them) and the documentation (scripts/theme-docs.ts writes the
 * table of docs/brand.md and the README from THEMES). Kept apart from all of them so none imports
 * another for a name, and so a theme is one record to read rather than a `switch` to find.
 */
export const THEME_IDS = ['bold', 'soft', 'dark', 'full-bleed', 'panoramic'] as const;
export type ThemeId = (typeof THEME_IDS)[number];

/** A set without a theme, and an app without a brand kit, gets this one. */
export const DEFAULT_THEME: ThemeId = 'soft';

/** How a theme paints the slide's background, as gradient stops from top-left to bottom-right. */
export type ThemeBackground =
  /**
   * The set's colours: the brand's (its kit's or its icon's) when the set has them, else the
   * slide's planned ones. `colours`: the primary alone (flat) or primary to secondary.
   * `towardWhite`: how far each brand colour is mixed toward white (a light, airy gradient; the
   * planned colours are left as they are). `planned`: a set without brand colours keeps the slide's
   * planned colours, all of them, rather than taking the first two.
   */
  | { kind: 'colours'; colours: 'primary' | 'both'; towardWhite?: readonly [number, number]; planned: boolean }
  /** The same stops whatever the brand. */
  | { kind: 'fixed'; stops: readonly string[] };

/** One theme, read by the renderer (src/rendering/themes.ts, layout.ts) and the docs. */
export interface Theme {
  /** What the dashboard's menus and the API's descriptions call it. */
  name: string;
  background: ThemeBackground;
  /**
   * `legible`: the slide's own text colour when it reaches WCAG AA on every stop (never with brand
   * colours: it was chosen for the planned ones), else white or ink, whichever reads better. Or one
   * fixed colour. Either way a stop the text does not reach AA on moves in lightness until it does.
   */
  text: 'legible' | { fixed: string };
  /**
   * What is drawn over the background: a glow of the primary colour behind the device, or a
   * ribbon and a disc on every seam of a panorama, half on each slide. (Bold had a faint disc of
   * the text colour: mostly hidden by the device, it showed as a darker slab beside it, read as
   * a misplaced shadow; its flat brand colour is the look.)
   */
  ornament: 'glow' | 'ribbon' | null;
  /**
   * `framed`: the screen in its device's frame, placed by the slide's layout. `bleed`: no frame,
   * the text on top and the screen whole in the room below, rising from the bottom edge (a
   * landscape one stood upright, turned in its place); a slide planned with a screen that has none becomes a
   * text slide rather than show an empty screen.
   */
  screen: 'framed' | 'bleed';
  /** The headline ladder's top size, as a share of the slide's base width, and the headlines' weight. */
  headline: { size: number; weight: 700 | 900 };
  /** One wide background across the set: slide i shows its slice, neighbours meet at the seams. */
  acrossSet: boolean;
  /**
   * How the brand's accent colour marks each headline's key word (src/rendering/accent.ts), the
   * same way on every slide of a set. `marker`: a block of the accent behind the word, the word in
   * whichever of white and ink reads on it (a sticker on a flat brand colour). `swash`: a
   * highlighter stroke of the accent under the lower half of the word, the text colour over it.
   * `word`: the word itself in the accent, where it reaches 3:1 (AA for large text) on the
   * background; where it does not, an underline of the accent instead, which carries no text.
   */
  accent: 'marker' | 'swash' | 'word';
  /**
   * How big the product is, as shares of the slide's width (a frame's outer width, a frameless
   * screen's width): the hero's (slide 1), a feature slide's. Fixed, never fitted to the room: a
   * device taller than the room beside the text bleeds off the slide's far edge (the bottom, or the
   * top when the headline is at the bottom), so a tall 20:9 phone is as big as a 19.5:9 one. The
   * best store pages show the product at 75-90 % of the width.
   */
  product: { hero: number; feature: number };
}

/** The regular themes' headline ladder top (a share of the slide's base) and weight. */
export const REGULAR_TYPE = { size: 0.09, weight: 700 } as const;

/** A framed device: the hero larger than the features, so slide 1 reads as the cover. */
const FRAMED_PRODUCT = { hero: 0.86, feature: 0.76 } as const;

export const THEMES: Readonly<Record<ThemeId, Theme>> = {
  // Big, heavy type is the point: Black headlines that start 40 % larger, on the flat brand colour.
  bold: {
    name: 'Bold: brand colour, big type',
    background: { kind: 'colours', colours: 'primary', planned: false },
    text: 'legible',
    ornament: null,
    screen: 'framed',
    headline: { size: 0.126, weight: 900 },
    acrossSet: false,
    accent: 'marker',
    product: FRAMED_PRODUCT,
  },
  soft: {
    name: 'Soft gradient',
    background: { kind: 'colours', colours: 'both', towardWhite: [0.55, 0.3], planned: true },
    text: 'legible',
    ornament: null,
    screen: 'framed',
    headline: REGULAR_TYPE,
    acrossSet: false,
    accent: 'swash',
    product: FRAMED_PRODUCT,
  },
  dark: {
    name: 'Dark',
    background: { kind: 'fixed', stops: ['#0B0D12', '#171B24'] },
    text: { fixed: '#F5F7FA' },
    ornament: 'glow',
    screen: 'framed',
    headline: REGULAR_TYPE,
    acrossSet: false,
    accent: 'word',
    product: FRAMED_PRODUCT,
  },
  'full-bleed': {
    name: 'Full bleed, no frame',
    background: { kind: 'colours', colours: 'both', planned: false },
    text: 'legible',
    ornament: null,
    screen: 'bleed',
    headline: REGULAR_TYPE,
    acrossSet: false,
    accent: 'word',
    product: { hero: 0.94, feature: 0.9 },
  },
  panoramic: {
    name: 'Panoramic: one background across the set',
    background: { kind: 'colours', colours: 'both', planned: true },
    text: 'legible',
    ornament: 'ribbon',
    screen: 'framed',
    headline: REGULAR_TYPE,
    acrossSet: true,
    accent: 'word',
    product: FRAMED_PRODUCT,
  },
};

/** A set's theme record; absent (or a stored id no longer known): DEFAULT_THEME's. */
export const themeFor = (id: ThemeId | undefined): Theme => THEMES[id ?? DEFAULT_THEME] ?? THEMES[DEFAULT_THEME];

/**
 * The theme whose look a set drawn as one panorama takes, whatever its own theme's type and screen
 * (RenderInput.panoramic, the render CLI's --panoramic).
 */
export const PANORAMA_THEME: ThemeId = 'panoramic';

/** An app's brand colours (#RRGGBB), taken from its icon or set in its brand kit. */
export interface BrandColors {
  /** The dominant colour: backgrounds of the bold theme, accents elsewhere. */
  primary: string;
  /** A second colour that sits well beside it: gradients' other end. */
  secondary: string;
  /**
   * The brand's accent (a brand kit's, or a second hue of the icon): what marks each headline's
   * key word, as the theme says (Theme.accent). Absent: one is derived from the primary.
   */
  accent?: string;
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
