/** The App Store, read through Apple's public lookup API (itunes.apple.com/lookup). */
import { emptyScreenshots, type Listing, type Screenshot } from '../core/listing.ts';
import { getStore, storeAppNotFound, storeUnavailable, TransientStoreError, withRetry, type StoreCallOptions } from './http.ts';
import { plainText } from './text.ts';
import type { AppStoreRef } from './urls.ts';

// The lookup API has no listing language; the storefront's main language is the best guess the
// planner can get. Countries not listed (and multilingual ones such as ch or be) fall back to en.
const STOREFRONT_LANGUAGE: Record<string, string> = {
  fr: 'fr',
  de: 'de',
  at: 'de',
  jp: 'ja',
  es: 'es',
  mx: 'es',
  ar: 'es',
  co: 'es',
  cl: 'es',
  pe: 'es',
  it: 'it',
  br: 'pt',
  pt: 'pt',
  nl: 'nl',
  se: 'sv',
  no: 'nb',
  dk: 'da',
  fi: 'fi',
  pl: 'pl',
  ru: 'ru',
  tr: 'tr',
  kr: 'ko',
  cn: 'zh',
  tw: 'zh',
  hk: 'zh',
  gr: 'el',
  cz: 'cs',
  hu: 'hu',
  ro: 'ro',
  il: 'he',
  sa: 'ar',
  ae: 'ar',
  eg: 'ar',
  th: 'th',
  vn: 'vi',
  id: 'id',
  ua: 'uk',
  sk: 'sk',
  hr: 'hr',
};

export const storefrontLanguage = (country: string): string => STOREFRONT_LANGUAGE[country] ?? 'en';

type Result = Record<string, unknown>;

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

const https = (url: string): string => url.replace(/^http:\/\//i, 'https://');

// mzstatic's image service renders any size from a template segment at the end of the URL,
// e.g. /100x100bb.jpg or the old "original size" /0x0ss-85.jpg.
const MZSTATIC_SIZE = /\/(\d+)x(\d+)[a-z]{0,4}(?:-\d+)?\.(jpe?g|png|webp)$/i;
const PHOBOS = /^https?:\/\/a\d+\.phobos\.apple\.com\/[a-z]{2}\/r\d+\/(.+\.(png|jpe?g))$/i;

/** An https icon URL of at least 512 px, or null when the URL is of no known shape. */
export function appStoreArtwork(url: string): string | null {
  if (!/^https?:\/\//i.test(url)) return null;
  if (/\.mzstatic\.com\/image\/thumb\//i.test(url) && MZSTATIC_SIZE.test(url)) {
    return https(url).replace(MZSTATIC_SIZE, (_m, _w, _h, ext: string) => `/512x512bb.${ext}`);
  }
  // Pre-2016 artwork sat on phobos hosts, which no longer serve https; the same asset path is
  // served by the mzstatic image service, which can also render it at 512 px.
  const phobos = PHOBOS.exec(url);
  if (phobos) return `https://is1-ssl.mzstatic.com/image/thumb/${phobos[1]}/512x512bb.${phobos[2]}`;
  return https(url);
}

/** Width and height from an mzstatic size segment such as /392x696bb.jpg; null when absent. */
export function appStoreScreenshot(url: string): Screenshot {
  const m = MZSTATIC_SIZE.exec(url);
  const w = m ? Number(m[1]) : 0;
  const h = m ? Number(m[2]) : 0;
  return { url: https(url), width: w > 0 && h > 0 ? w : null, height: w > 0 && h > 0 ? h : null };
}

const urls = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((u): u is string => typeof u === 'string' && /^https?:\/\//i.test(u)) : [];

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body.trim());
  } catch {
    return undefined;
  }
}

const notFound = (ref: AppStoreRef) =>
  storeAppNotFound(`The App Store has no app with id ${ref.id} in the ${ref.country.toUpperCase()} storefront.`);

/**
 * Map a lookup response body (raw: leading newlines and one result per line are fine) to a Listing.
 * Throws store_app_not_found for an empty result or Apple's error body, store_unavailable for a
 * body that is not a lookup response at all.
 */
export function parseAppStoreLookupBody(body: string, ref: AppStoreRef): Listing {
  const json = parseJson(body);
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw storeUnavailable('The App Store answered with an unreadable response.');
  }
  const doc = json as Record<string, unknown>;
  if (typeof doc.errorMessage === 'string') throw notFound(ref);
  if (!Array.isArray(doc.results)) throw storeUnavailable('The App Store answered with an unexpected response.');
  const results = doc.results.filter((r): r is Result => r !== null && typeof r === 'object');
  // Only the app that was asked for: a lookup never stands in another app for it.
  const result = results.find((r) => String(r.trackId) === ref.id);
  if (!result || doc.resultCount === 0) throw notFound(ref);
  // entity=software can still surface other kinds for an id; those are not apps we can plan for.
  if (typeof result.kind === 'string' && result.kind !== 'software' && result.kind !== 'mac-software') throw notFound(ref);
  const name = str(result.trackName);
  if (!name) throw storeUnavailable('The App Store answered with a listing that has no name.');

  const artwork = [result.artworkUrl512, result.artworkUrl100, result.artworkUrl60]
    .map((u) => (typeof u === 'string' ? appStoreArtwork(u) : null))
    .find((u): u is string => u !== null);
  if (!artwork) throw storeUnavailable('The App Store answered with a listing that has no icon.');

  const screenshots = emptyScreenshots();
  // Mac apps' screenshotUrls are desktop shots (e.g. 800x500, 16:10): the `mac` family's, never
  // an iPhone's or iPad's.
  if (result.kind === 'mac-software') screenshots.mac = urls(result.screenshotUrls).map(appStoreScreenshot);
  else {
    screenshots.iphone = urls(result.screenshotUrls).map(appStoreScreenshot);
    screenshots.ipad = urls(result.ipadScreenshotUrls).map(appStoreScreenshot);
  }

  const trackViewUrl = str(result.trackViewUrl);
  const genres = Array.isArray(result.genres) ? result.genres.filter((g) => typeof g === 'string') : [];
  return {
    store: 'app-store',
    storeId: num(result.trackId) !== null ? String(result.trackId) : ref.id,
    country: ref.country,
    language: storefrontLanguage(ref.country),
    url:
      trackViewUrl && /^https?:\/\/(apps|itunes)\.apple\.com\//i.test(trackViewUrl)
        ? https(trackViewUrl)
        : `https://apps.apple.com/${ref.country}/app/id${ref.id}`,
    name,
    category: str(result.primaryGenreName) ?? genres[0] ?? '',
    categoryId: num(result.primaryGenreId) !== null ? String(result.primaryGenreId) : null,
    artworkUrl: artwork,
    description: plainText(str(result.description) ?? ''),
    subtitle: str(result.subtitle) ? plainText(result.subtitle as string) : null,
    developer: str(result.artistName) ?? str(result.sellerName),
    rating: num(result.averageUserRating),
    ratingCount: num(result.userRatingCount),
    price: num(result.price) ?? 0,
    currency: str(result.currency),
    screenshots,
    ...(result.kind === 'mac-software' ? { platform: 'mac' as const } : {}),
  };
}

export interface AppStoreClientOptions extends StoreCallOptions {
  lookupUrl: string;
}

/** Read one listing from the lookup API; the request is built from the parsed id only. */
export async function fetchAppStoreListing(ref: AppStoreRef, opts: AppStoreClientOptions): Promise<Listing> {
  const query = new URLSearchParams({ id: ref.id, country: ref.country, entity: 'software' });
  const url = `${opts.lookupUrl}?${query}`;
  return withRetry(opts, 'The App Store', async (signal) => {
    const res = await getStore(url, { accept: 'application/json' }, signal);
    // Apple answers a malformed id with 400 and an errorMessage body.
    if (res.status === 400) throw notFound(ref);
    if (res.status !== 200) {
      opts.logger?.warn({ store: 'app-store', status: res.status, id: ref.id }, 'unexpected App Store status');
      throw storeUnavailable(`The App Store answered with an error (HTTP ${res.status}); try again shortly.`);
    }
    // A truncated or HTML error body on a 200 is usually a passing hiccup of Apple's edge.
    if (parseJson(res.body) === undefined) throw new TransientStoreError('invalid response');
    return parseAppStoreLookupBody(res.body, ref);
  });
}
