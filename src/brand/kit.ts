/**
 * An app's brand kit and its icon's colours, stored with the app (apps.brand_kit, apps.icon_colors).
 * Every query names the account: another account's app reads as missing.
 */
import type { Queryable } from '../db/pool.ts';
import type { FieldError } from '../core/problem.ts';
import { HEX_COLOR, MIN_CONTRAST, textColorFor } from '../core/colour.ts';
import { fallbackPalette, type BrandPalette } from './palette.ts';
import {
  BRAND_FONT_IDS,
  DEFAULT_BRAND_FONT,
  DEFAULT_THEME,
  THEME_IDS,
  type BrandColors,
  type BrandFontId,
  type ThemeId,
} from '../core/themes.ts';

export interface BrandKit {
  /** The owner's colours; null: the icon's. */
  colors: BrandColors | null;
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
    const { textColor } = textColorFor([brand.kit.colors.primary, brand.kit.colors.secondary]);
    return { palette: { ...brand.kit.colors, textColor }, source: 'brand-kit' };
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
  colors?: { primary: string; secondary: string } | null;
  font?: string;
  iconBadge?: boolean;
  defaultTheme?: string;
}

/**
 * Every problem with a kit, as field errors (the schema checks the shapes; this, what a schema
 * cannot: that one text colour reads on both colours). Colours come back in upper case.
 */
export function checkBrandKit(input: BrandKitInput): { errors: FieldError[]; kit: BrandKit } {
  const errors: FieldError[] = [];
  let colors: BrandColors | null = null;
  if (input.colors) {
    const primary = input.colors.primary.toUpperCase();
    const secondary = input.colors.secondary.toUpperCase();
    for (const [field, value] of [
      ['primary', primary],
      ['secondary', secondary],
    ] as const) {
      if (!HEX_COLOR.test(value)) errors.push({ field: `colors/${field}`, message: 'must be a colour #RRGGBB' });
    }
    if (errors.length === 0) {
      const { textColor, contrast } = textColorFor([primary, secondary]);
      if (contrast < MIN_CONTRAST) {
        errors.push({
          field: 'colors',
          message: `no text colour reads on both colours: the best, ${textColor}, reaches ${contrast.toFixed(2)}:1 where WCAG AA needs ${MIN_CONTRAST}:1; pick colours closer in lightness`,
        });
      }
      colors = { primary, secondary };
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
    iconColors: icon ? { primary: icon.primary, secondary: icon.secondary, textColor: icon.textColor } : null,
    effective: { primary: palette.primary, secondary: palette.secondary, textColor: palette.textColor, source },
  };
}
