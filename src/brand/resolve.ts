/**
 * A set's look, decided by the worker before planning: the theme (the request's, else the brand
 * kit's default, else DEFAULT_THEME) and the colours (the kit's, else the icon's, computed from the
 * icon the first time a set can fetch it and then kept, else the app name's, said in a warning).
 */
import type { Queryable } from '../db/pool.ts';
import { paletteFromIcon } from './icon-colors.ts';
import { effectiveBrand, findAppBrand, saveIconColors, type AppBrand, type BrandKit, type BrandSource } from './kit.ts';
import type { BrandPalette } from './palette.ts';
import type { ThemeId } from '../core/themes.ts';

export interface SetBrand {
  theme: ThemeId;
  palette: BrandPalette;
  source: BrandSource;
  kit: BrandKit;
  /** The icon's bytes, null when they could not be fetched (the feature graphic, the store preview and the badge draw it); never rejects. */
  icon: Promise<Buffer | null>;
  /** Why the colours are not the icon's when they should have been; null otherwise. */
  warning: string | null;
}

/**
 * The app's icon bytes: the uploaded one from the object store, else the store's from its artwork
 * URL (the listing's, never a URL a user typed). Rejects when the app has neither.
 */
export type IconFetcher = (icon: { artworkUrl: string | null; uploadedKey: string | null }) => Promise<Buffer>;

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Null when the app is not this account's. */
export async function resolveSetBrand(
  db: Queryable,
  accountId: string,
  appId: string,
  requestedTheme: ThemeId | undefined,
  fetchIcon: IconFetcher | null,
): Promise<SetBrand | null> {
  let brand: AppBrand | null = await findAppBrand(db, accountId, appId);
  if (!brand) return null;
  let failure: string | null = fetchIcon ? null : 'this worker does not fetch images';
  // Started now and awaited only when the colours need it: with stored colours, planning does not
  // wait for the store's image host.
  let icon: Promise<Buffer | null> = fetchIcon
    ? fetchIcon({ artworkUrl: brand.artworkUrl, uploadedKey: brand.iconKey }).catch((error: unknown) => {
        failure = reason(error);
        return null;
      })
    : Promise.resolve(null);
  if (!brand.kit.colors && !brand.iconColors) {
    const bytes = await icon;
    if (bytes) {
      try {
        const colors = await paletteFromIcon(bytes);
        brand = { ...brand, iconColors: (await saveIconColors(db, accountId, appId, colors)) ?? colors };
      } catch (error) {
        failure = `the icon is not a picture we can read (${reason(error)})`;
        icon = Promise.resolve(null);
      }
    }
  }
  const { palette, source } = effectiveBrand(brand);
  const iconless = !brand.artworkUrl && !brand.iconKey;
  const warning =
    source === 'app-name' && iconless
      ? `The app has no icon yet, so the colours come from the app's name: upload its icon (PUT /public/v1/apps/${appId}/icon), or set colours in the brand kit (PUT /public/v1/apps/${appId}/brand).`
      : source === 'app-name'
        ? `The app's icon could not be read (${failure ?? 'unknown reason'}), so the colours come from the app's name; the next set tries the icon again, or set colours in the brand kit (PUT /public/v1/apps/${appId}/brand).`
        : null;
  return { theme: requestedTheme ?? brand.kit.defaultTheme, palette, source, kit: brand.kit, icon, warning };
}

/** What the renderer draws with the set's theme and colours (rendering/themes.ts lookOf): its text colour and background stops. */
export interface DrawnColours {
  textColor: string;
  background: string[];
  /** The accent as drawn and how (rendering/accent.ts accentOf). */
  accent?: string;
  accentStyle?: 'marker' | 'swash' | 'word' | 'underline';
}

/**
 * The result says which theme and colours the set was drawn with, and why when not the icon's.
 * `drawn`: the text and background colours the renderer draws (the caller asks the renderer's own
 * lookOf: this layer sits below it); absent, the palette's, as a set without pictures reports.
 */
export function withSetBrand<T extends { warnings: string[]; locales?: { warnings: string[] }[] }>(
  result: T,
  brand: SetBrand,
  drawn?: DrawnColours,
): T {
  const add = (warnings: string[]) => (brand.warning ? [...warnings, brand.warning] : warnings);
  return {
    ...result,
    warnings: add(result.warnings),
    ...(result.locales ? { locales: result.locales.map((l) => ({ ...l, warnings: add(l.warnings) })) } : {}),
    theme: brand.theme,
    brand: {
      primary: brand.palette.primary,
      secondary: brand.palette.secondary,
      textColor: drawn?.textColor ?? brand.palette.textColor,
      background: drawn?.background ?? [brand.palette.primary, brand.palette.secondary],
      ...(drawn?.accent ? { accent: drawn.accent, accentStyle: drawn.accentStyle } : {}),
      source: brand.source,
      font: brand.kit.font,
      iconBadge: brand.kit.iconBadge,
    },
  };
}
