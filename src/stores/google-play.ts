/** Google Play, read from the public details page (there is no public listing API). */
import { emptyScreenshots, type Listing, type Screenshot } from '../core/listing.ts';
import { getStore, storeAppNotFound, storeUnavailable, withRetry, type StoreCallOptions, type StoreLogger } from './http.ts';
import {
  at,
  describePage,
  extractDataBlocks,
  findSoftwareApplication,
  listAt,
  numAt,
  strAt,
  type SoftwareApplicationLd,
} from './play-data.ts';
import { htmlToText } from './text.ts';
import type { GooglePlayRef } from './urls.ts';

const GOOGLE_IMAGE = /^https?:\/\/[a-z0-9-]+\.googleusercontent\.com\//i;

/** googleusercontent images take their size as a suffix (=w240-h480, =s180-rw); ask for 512. */
export function playArtwork(url: string): string {
  const secure = url.replace(/^http:\/\//i, 'https://');
  if (!GOOGLE_IMAGE.test(secure)) return secure;
  return `${secure.replace(/=[^/=?#]*$/, '')}=s512`;
}

/**
 * Play returns every listing screenshot in one list, with no phone/tablet flag, but with its pixel
 * size as [height, width] (the feature graphic, always 1024 wide by 500 high, appears as [500, 1024],
 * and a 1280x720 video as [720, 1280]). Phone shots are 16:9 or taller (1.78+; 1080x1794 with the
 * navigation bar cut is 1.66); tablet shots are 16:10 (1.6) or squarer, e.g. 800x1232 (1.54),
 * whichever way round they are held. So: long/short side below 1.62 is a tablet shot, anything
 * else, and a shot of unknown size, goes to phones (Play's primary slot).
 */
export const TABLET_MAX_ASPECT = 1.62;

export function playScreenshotFamily(width: number | null, height: number | null): 'android-phone' | 'android-tablet' {
  if (!width || !height) return 'android-phone';
  const aspect = Math.max(width, height) / Math.min(width, height);
  return aspect < TABLET_MAX_ASPECT ? 'android-tablet' : 'android-phone';
}

const TITLE = [0, 0];
const ICON = [95, 0, 3, 2];

/** The details message: a title string and a googleusercontent icon where Play keeps them. */
function isDetails(node: unknown): boolean {
  return strAt(node, ...TITLE) !== null && GOOGLE_IMAGE.test(strAt(node, ...ICON) ?? '');
}

/** Find the details message by shape: at [1][2] on every layout seen, else a shallow search. */
function findDetails(data: unknown): unknown {
  const usual = at(data, 1, 2);
  if (isDetails(usual)) return usual;
  let level: unknown[] = [data];
  for (let depth = 0; depth < 4 && level.length > 0; depth++) {
    const next: unknown[] = [];
    for (const node of level) {
      if (!Array.isArray(node)) continue;
      if (isDetails(node)) return node;
      for (const c of node) if (Array.isArray(c)) next.push(c);
    }
    level = next.slice(0, 2000);
  }
  return undefined;
}

// Play's own genre ids, when only JSON-LD names the category: GAME_ARCADE -> Arcade.
export function genreName(id: string): string {
  return id
    .replace(/^GAME_/, '')
    .split('_')
    .map((w) => (w === 'AND' ? '&' : w.charAt(0) + w.slice(1).toLowerCase()))
    .join(' ');
}

const numeric = (v: unknown): number | null => {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
};
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

function screenshotsOf(details: unknown): Listing['screenshots'] {
  const out = emptyScreenshots();
  for (const shot of listAt(details, 78, 0)) {
    const url = strAt(shot, 3, 2);
    if (!url || !GOOGLE_IMAGE.test(url)) continue;
    const height = numAt(shot, 2, 0);
    const width = numAt(shot, 2, 1);
    const s: Screenshot = { url: url.replace(/^http:\/\//i, 'https://'), width, height };
    out[playScreenshotFamily(width, height)].push(s);
  }
  return out;
}

/**
 * Map a details page to a Listing: the AF_initDataCallback details block first, JSON-LD for
 * whatever it lacks. A page with neither (consent, captcha, a changed layout) is store_unavailable,
 * logged with enough of the page's structure to fix the parser.
 */
export function parseGooglePlayDetailsPage(html: string, ref: GooglePlayRef, logger?: StoreLogger): Listing {
  const { blocks, broken } = extractDataBlocks(html);
  const found = blocks.map((b) => ({ b, d: findDetails(b.data) })).filter((x) => x.d !== undefined);
  // Several matches would be odd; the one naming our package is the one we asked for.
  const details = (found.find((x) => strAt(x.d, 77, 0) === ref.id) ?? found[0])?.d;
  const ld: SoftwareApplicationLd | null = findSoftwareApplication(html);

  const name = strAt(details, ...TITLE) ?? text(ld?.name);
  const icon = strAt(details, ...ICON) ?? text(ld?.image);
  const categoryId = strAt(details, 79, 0, 0, 2) ?? text(ld?.applicationCategory);
  const category = strAt(details, 79, 0, 0, 0) ?? (categoryId ? genreName(categoryId) : null);
  if (!name || !icon || !category) {
    logger?.warn(
      {
        store: 'google-play',
        id: ref.id,
        country: ref.country,
        language: ref.language,
        detailsBlock: details !== undefined,
        jsonLd: ld !== null,
        page: describePage(html, blocks, broken),
      },
      'Google Play page has no readable app details',
    );
    throw storeUnavailable('Google Play answered with a page that could not be read; try again shortly.');
  }

  const offer = ([] as unknown[]).concat(ld?.offers ?? [])[0] as { price?: unknown; priceCurrency?: unknown } | undefined;
  const micros = numAt(details, 57, 0, 0, 0, 0, 1, 0, 0);
  const ratingCount = numAt(details, 51, 2, 1) ?? numeric(ld?.aggregateRating?.ratingCount);
  const descriptionHtml = strAt(details, 72, 0, 1) ?? strAt(details, 12, 0, 0, 1) ?? text(ld?.description) ?? '';
  const summary = strAt(details, 73, 0, 1) ?? (details === undefined ? text(ld?.description) : null);

  return {
    store: 'google-play',
    storeId: ref.id,
    country: ref.country,
    language: ref.language,
    url: `https://play.google.com/store/apps/details?id=${encodeURIComponent(ref.id)}`,
    name,
    category,
    categoryId,
    artworkUrl: playArtwork(icon),
    description: htmlToText(descriptionHtml),
    subtitle: summary ? htmlToText(summary) : null,
    developer: strAt(details, 68, 0) ?? strAt(details, 37, 0) ?? text(ld?.author?.name),
    // Play shows an unrated app as 0.0 stars; that is "no rating", not a bad one.
    rating: ratingCount ? (numAt(details, 51, 0, 1) ?? numeric(ld?.aggregateRating?.ratingValue)) : null,
    ratingCount,
    price: micros !== null ? micros / 1e6 : (numeric(offer?.price) ?? 0),
    currency: strAt(details, 57, 0, 0, 0, 0, 1, 0, 1) ?? text(offer?.priceCurrency),
    screenshots: screenshotsOf(details),
  };
}

export interface GooglePlayClientOptions extends StoreCallOptions {
  baseUrl: string;
}

const USER_AGENT = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

/** Read one listing page; the request is built from the parsed package name only. */
export async function fetchGooglePlayListing(ref: GooglePlayRef, opts: GooglePlayClientOptions): Promise<Listing> {
  const headers = {
    'user-agent': USER_AGENT,
    'accept-language': ref.language === 'en' ? 'en' : `${ref.language},en;q=0.5`,
    accept: 'text/html,application/xhtml+xml',
  };
  const pageUrl = (withCountry: boolean) => {
    const q = new URLSearchParams({ id: ref.id, hl: ref.language });
    if (withCountry) q.set('gl', ref.country);
    return `${opts.baseUrl}/store/apps/details?${q}`;
  };
  return withRetry(opts, 'Google Play', async (signal) => {
    let res = await getStore(pageUrl(true), headers, signal);
    // Play 404s an app that is not offered in the requested country; without gl it may still show.
    if (res.status === 404) res = await getStore(pageUrl(false), headers, signal);
    if (res.status === 404) {
      throw storeAppNotFound(`Google Play has no app with id ${ref.id} in the ${ref.country.toUpperCase()} storefront.`);
    }
    if (res.status !== 200) {
      opts.logger?.warn(
        { store: 'google-play', status: res.status, id: ref.id, location: res.headers.get('location') },
        'unexpected Google Play status',
      );
      throw storeUnavailable(`Google Play answered with an error (HTTP ${res.status}); try again shortly.`);
    }
    return parseGooglePlayDetailsPage(res.body, ref, opts.logger);
  });
}
