/**
 * An app's brand kit and its icon's colours, stored with the app (apps.brand_kit, apps.icon_colors).
 * Every query names the account: another account's app reads as missing.
 */
import type { Queryable } from '../db/pool.ts';
import type { FieldError } from '../core/problem.ts';
import { HEX_COLOR, MIN_CONTRAST, textColorFor } from '../core/colour.ts';
import { fallbackPalette, kitSecondary, type BrandPalette } from './palette.ts';
import { BRAND_FONT_IDS, DEFAULT_BRAND_FONT, DEFAULT_THEME, THEME_IDS, type BrandFontId, type ThemeId } from '../core/themes.ts';

/** A kit's colours as the owner gave them: `secondary` and `accent` may be left to shotgen. */
export interface KitColors {
  primary: string;
  /** The background gradient's other end; absent: a deeper (or lighter) neighbour of the primary (kitSecondary). */
  secondary?: string;
  /** What marks each headline's key word; absent: derived from the primary by the renderer. */
  accent?: string;
}

export interface BrandKit {
  /** The owner's colours; null: the icon's. */
  colors: KitColors | null;
  font: BrandFontId;
  /** Whether slides carry the app's icon as a small badge. */
  iconBadge: boolean;
  /** The theme of a set that names none. */
  defaultTheme: ThemeId;
}

export const DEFAULT_BRAND_KIT: BrandKit = { colors: null, font: DEFAULT_BRAND_FONT, iconBadge: false, defaultTheme: DEFAULT_THEME };

/** Where a set's colours came from. */
export type BrandSource = 'brand-kit' | 'icon' | 'app-name';

export interface AppBrand {
  appName: string;
  /** The store's icon; null for an app made from its own listing. */
  artworkUrl: string | null;
  /** Where the owner's uploaded icon is kept; it outranks the store's. */
  iconKey: string | null;
  kit: BrandKit;
  /** Null until a set has fetched the icon. */
  iconColors: BrandPalette | null;
}

/** The colours a set of this app gets, and where they came from. */
export function effectiveBrand(brand: AppBrand): { palette: BrandPalette; source: BrandSource } {
  if (brand.kit.colors) {
    const { primary, accent } = brand.kit.colors;
    const secondary = brand.kit.colors.secondary ?? kitSecondary(primary);
    const { textColor } = textColorFor([primary, secondary]);
    return { palette: { primary, secondary, ...(accent ? { accent } : {}), textColor }, source: 'brand-kit' };
  }
  if (brand.iconColors) return { palette: brand.iconColors, source: 'icon' };
  return { palette: fallbackPalette(brand.appName), source: 'app-name' };
}

export async function findAppBrand(db: Queryable, accountId: string, appId: string): Promise<AppBrand | null> {
  const { rows } = await db.query<{
    name: string;
    artwork_url: string | null;
    icon_key: string | null;
    brand_kit: Partial<BrandKit> | null;
    icon_colors: BrandPalette | null;
  }>(`SELECT name, artwork_url, icon->>'objectKey' AS icon_key, brand_kit, icon_colors FROM apps WHERE id = $1 AND account_id = $2`, [
    appId,
    accountId,
  ]);
  const r = rows[0];
  if (!r) return null;
  return {
    appName: r.name,
    artworkUrl: r.artwork_url,
    iconKey: r.icon_key,
    kit: { ...DEFAULT_BRAND_KIT, ...r.brand_kit },
    iconColors: r.icon_colors,
  };
}

/**
 * Keep the icon's colours, once: a concurrent set that computed them too finds them stored and
 * leaves them (the same icon gives the same colours anyway). Returns the stored colours.
 */
export async function saveIconColors(db: Queryable, accountId: string, appId: string, colors: BrandPalette): Promise<BrandPalette | null> {
  const { rows } = await db.query<{ icon_colors: BrandPalette }>(
    `UPDATE apps SET icon_colors = COALESCE(icon_colors, $3::jsonb) WHERE id = $1 AND account_id = $2 RETURNING icon_colors`,
    [appId, accountId, JSON.stringify(colors)],
  );
  return rows[0]?.icon_colors ?? null;
}

/** Replace the app's kit; false when the app is not this account's. */
export async function saveBrandKit(db: Queryable, accountId: string, appId: string, kit: BrandKit): Promise<boolean> {
  const { rowCount } = await db.query('UPDATE apps SET brand_kit = $3::jsonb WHERE id = $1 AND account_id = $2', [
    appId,
    accountId,
    JSON.stringify(kit),
  ]);
  return rowCount === 1;
}

export interface BrandKitInput {
  colors?: { primary: string; secondary?: string; accent?: string } | null;
  font?: string;
  iconBadge?: boolean;
  defaultTheme?: string;
}

/**
 * Every problem with a kit, as field errors (the schema checks the shapes; this, what a schema
 * cannot). Contrast is checked only where text sits: on the background, which is the primary and
 * the secondary (when given; shotgen's own neighbour of the primary otherwise). The accent carries
 * no text as it is given (the renderer puts on it only a text colour that reads: accent.ts), so
 * any accent is taken: a purple primary with an amber accent is a kit. Colours come back in upper case.
 */
export function checkBrandKit(input: BrandKitInput): { errors: FieldError[]; kit: BrandKit } {
  const errors: FieldError[] = [];
  let colors: KitColors | null = null;
  if (input.colors) {
    const given = (['primary', 'secondary', 'accent'] as const)
      .filter((field) => input.colors![field] !== undefined)
      .map((field) => [field, input.colors![field]!.toUpperCase()] as const);
    for (const [field, value] of given)
      if (!HEX_COLOR.test(value)) errors.push({ field: `colors/${field}`, message: 'must be a colour #RRGGBB' });
    if (errors.length === 0) {
      const c = Object.fromEntries(given) as unknown as KitColors;
      const { textColor, contrast } = textColorFor(c.secondary ? [c.primary, c.secondary] : [c.primary]);
      if (contrast < MIN_CONTRAST) {
        const hint = c.secondary
          ? c.accent
            ? 'pick background colours closer in lightness'
            : `pick colours closer in lightness, or, if ${c.secondary} is meant to stand out rather than to be the background's other end, send it as colors.accent (and leave secondary out)`
          : 'pick a darker or a lighter primary';
        errors.push({
          field: 'colors',
          message: `text sits on the background (${c.secondary ? 'primary to secondary' : 'the primary'}) and no text colour reads there: the best, ${textColor}, reaches ${contrast.toFixed(2)}:1 where WCAG AA needs ${MIN_CONTRAST}:1; ${hint}`,
        });
      }
      colors = c;
    }
  }
  const font = (input.font ?? DEFAULT_BRAND_FONT) as BrandFontId;
  if (!BRAND_FONT_IDS.includes(font)) errors.push({ field: 'font', message: `must be one of ${BRAND_FONT_IDS.join(', ')}` });
  const defaultTheme = (input.defaultTheme ?? DEFAULT_THEME) as ThemeId;
  if (!THEME_IDS.includes(defaultTheme)) errors.push({ field: 'defaultTheme', message: `must be one of ${THEME_IDS.join(', ')}` });
  return { errors, kit: { colors, font, iconBadge: input.iconBadge ?? false, defaultTheme } };
}

/** The kit as GET and PUT /apps/{appId}/brand answer it. */
export function brandKitView(appId: string, brand: AppBrand) {
  const { palette, source } = effectiveBrand(brand);
  const icon = brand.iconColors;
  return {
    appId,
    colors: brand.kit.colors,
    font: brand.kit.font,
    iconBadge: brand.kit.iconBadge,
    defaultTheme: brand.kit.defaultTheme,
    iconColors: icon
      ? { primary: icon.primary, secondary: icon.secondary, ...(icon.accent ? { accent: icon.accent } : {}), textColor: icon.textColor }
      : null,
    effective: {
      primary: palette.primary,
      secondary: palette.secondary,
      ...(palette.accent ? { accent: palette.accent } : {}),
      textColor: palette.textColor,
      source,
    },
  };
}
