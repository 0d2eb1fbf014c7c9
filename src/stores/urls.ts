/**
 * Store listing URLs as users paste them. Parsing only extracts the store id and storefront: the
 * service never fetches the given URL (SSRF defence), so anything that is not plainly a listing
 * URL on the store's own host is refused rather than "fixed".
 */

export class InvalidStoreUrl extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidStoreUrl';
  }
}

export interface AppStoreRef {
  id: string;
  country: string;
}

export interface GooglePlayRef {
  id: string;
  country: string;
  language: string;
}

const APP_STORE_HOSTS = new Set(['apps.apple.com', 'itunes.apple.com']);
const PLAY_HOST = 'play.google.com';

const APP_STORE_HELP =
  'must be an App Store listing URL such as https://apps.apple.com/us/app/name/id123456789 or https://apps.apple.com/app/id123456789';
const PLAY_HELP =
  'must be a Google Play listing URL such as https://play.google.com/store/apps/details?id=com.example.app (optional hl and gl)';

const MAX_URL_LENGTH = 2048;
const ANDROID_PACKAGE = /^[A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z][A-Za-z0-9_]*)+$/;
const APP_STORE_ID = /^id(\d{1,15})$/;
const COUNTRY = /^[A-Za-z]{2}$/;
// Play accepts en, en_US, en-GB, es-419, fil, zh_TW; only the primary tag matters to us.
const PLAY_LANGUAGE = /^([A-Za-z]{2,3})(?:[-_][A-Za-z0-9]{2,8})*$/;

/**
 * Shared checks on the raw text. The authority is compared on the raw string, not on what the
 * WHATWG parser made of it, because the parser silently repairs things (default ports, backslashes,
 * tabs, user info) that we want to refuse outright.
 */
function parseStrict(input: unknown, hosts: ReadonlySet<string>, help: string): URL {
  if (typeof input !== 'string') throw new InvalidStoreUrl(help);
  const text = input.trim();
  if (text === '' || text.length > MAX_URL_LENGTH) throw new InvalidStoreUrl(help);
  // Whitespace, control characters and backslashes inside a URL are typos or smuggling attempts
  // (the WHATWG parser would quietly drop or reinterpret them).
  if (/[\s\\]/.test(text) || [...text].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) {
    throw new InvalidStoreUrl(help);
  }
  if (text.includes('#')) throw new InvalidStoreUrl(`${help}; remove the #fragment`);
  const authority = /^https:\/\/([^/?#]*)/i.exec(text);
  if (!authority) throw new InvalidStoreUrl(`${help}; only https URLs are accepted`);
  if (!hosts.has(authority[1].toLowerCase())) throw new InvalidStoreUrl(help);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvalidStoreUrl(help);
  }
  // Belt and braces: the raw check above should already guarantee these.
  if (url.protocol !== 'https:' || url.port !== '' || url.username !== '' || url.password !== '' || !hosts.has(url.hostname)) {
    throw new InvalidStoreUrl(help);
  }
  return url;
}

export function parseAppStoreUrl(input: string): AppStoreRef {
  const url = parseStrict(input, APP_STORE_HOSTS, APP_STORE_HELP);
  const segments = url.pathname.split('/').slice(1);
  if (segments.length > 1 && segments[segments.length - 1] === '') segments.pop();

  let country = 'us';
  if (segments.length > 0 && COUNTRY.test(segments[0])) country = segments.shift()!.toLowerCase();
  if (segments.shift() !== 'app') throw new InvalidStoreUrl(APP_STORE_HELP);
  // Either /app/id123 or /app/{slug}/id123; the slug is cosmetic and ignored.
  if (segments.length === 2 && segments[0] !== '') segments.shift();
  const match = segments.length === 1 ? APP_STORE_ID.exec(segments[0]) : null;
  if (!match) throw new InvalidStoreUrl(`${APP_STORE_HELP}; the URL must end in id followed by the app's number`);
  return { id: String(BigInt(match[1])), country };
}

function singleParam(params: URLSearchParams, name: string): string | null {
  const values = params.getAll(name);
  if (values.length > 1) throw new InvalidStoreUrl(`${PLAY_HELP}; "${name}" is given more than once`);
  return values.length === 1 ? values[0] : null;
}

export function parseGooglePlayUrl(input: string): GooglePlayRef {
  const url = parseStrict(input, new Set([PLAY_HOST]), PLAY_HELP);
  if (url.pathname !== '/store/apps/details') throw new InvalidStoreUrl(PLAY_HELP);

  const id = singleParam(url.searchParams, 'id');
  if (id === null || id === '') throw new InvalidStoreUrl(`${PLAY_HELP}; the id parameter is missing`);
  if (id.length > 255 || !ANDROID_PACKAGE.test(id)) {
    throw new InvalidStoreUrl(`${PLAY_HELP}; "id" must be an Android package name like com.example.app`);
  }

  const hl = singleParam(url.searchParams, 'hl');
  let language = 'en';
  if (hl !== null && hl !== '') {
    const m = PLAY_LANGUAGE.exec(hl);
    if (!m) throw new InvalidStoreUrl(`${PLAY_HELP}; "hl" must be a language code like en or en_US`);
    language = m[1].toLowerCase();
  }

  const gl = singleParam(url.searchParams, 'gl');
  let country = 'us';
  if (gl !== null && gl !== '') {
    if (!COUNTRY.test(gl)) throw new InvalidStoreUrl(`${PLAY_HELP}; "gl" must be a two-letter country code like us`);
    country = gl.toLowerCase();
  }
  return { id, country, language };
}
