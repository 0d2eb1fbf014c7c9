/**
 * The project's own store fixtures, built in code in the stores' real formats (the recordings in
 * ../shared/fixtures/stores are only read by test/stores/recordings.test.ts, never copied here).
 */

// ---------- App Store lookup API ----------

export type LookupResult = Record<string, unknown>;

const mz = (path: string) => `https://is1-ssl.mzstatic.com/image/thumb/Purple116/v4/aa/bb/cc/${path}`;

/** One lookup result in Apple's field names; override or delete (set undefined) what a test needs. */
export function lookupResult(overrides: LookupResult = {}): LookupResult {
  const base: LookupResult = {
    kind: 'software',
    trackId: 1234567890,
    trackName: 'Pocket Planner',
    primaryGenreName: 'Productivity',
    primaryGenreId: 6007,
    genres: ['Productivity', 'Business'],
    artworkUrl60: mz('icon/source/60x60bb.jpg'),
    artworkUrl100: mz('icon/source/100x100bb.jpg'),
    artworkUrl512: mz('icon/source/512x512bb.jpg'),
    description: 'Plan your day &amp; week.<br>Stay on top of tasks.<br />Works offline &#8212; always.',
    artistName: 'Planner Labs',
    sellerName: 'Planner Labs Inc.',
    averageUserRating: 4.5,
    userRatingCount: 1234,
    price: 0,
    currency: 'USD',
    trackViewUrl: 'https://apps.apple.com/us/app/pocket-planner/id1234567890?uo=4',
    screenshotUrls: [mz('s1/source/392x696bb.jpg'), mz('s2/source/392x696bb.jpg')],
    ipadScreenshotUrls: [mz('p1/source/576x768bb.jpg')],
  };
  const out = { ...base, ...overrides };
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  return out;
}

/**
 * A lookup body. `raw` mimics what Apple actually sends: leading blank lines and one result per
 * line; otherwise plain compact JSON.
 */
export function lookupBody(results: LookupResult[], opts: { raw?: boolean } = {}): string {
  if (!opts.raw) return JSON.stringify({ resultCount: results.length, results });
  return `\n\n\n{\n "resultCount":${results.length},\n "results": [\n${results.map((r) => JSON.stringify(r)).join(',\n')}]\n}\n\n\n`;
}

export const LOOKUP_NOT_FOUND_BODY = '\n\n\n{\n "resultCount":0,\n "results": []\n}\n\n\n';

/** Apple's answer to a malformed id, sent with HTTP 400. */
export const LOOKUP_INVALID_ID_BODY =
  '{\n "errorMessage":"Invalid value(s) for key(s): [itunesId]",\n "queryParameters":{"output":"json", "country":"ISO-2A country code"}\n}';

// ---------- Google Play details page ----------

const gu = (id: string) => `https://play-lh.googleusercontent.com/${id}`;

/** A Play image message: [_, 2, [height, width], [_, _, url]]. */
const image = (url: string, height: number, width: number) => [null, 2, [height, width], [null, null, url]];

export interface PlayDetailsOptions {
  id?: string;
  title?: string;
  genre?: string;
  genreId?: string;
  icon?: string;
  descriptionHtml?: string;
  summary?: string | null;
  developer?: string;
  rating?: number;
  ratingCount?: number;
  priceMicros?: number;
  currency?: string;
  /** [height, width] per screenshot, as Play lists them. */
  screenshots?: Array<[number, number]>;
  /** Pack fields from this index on into a trailing object keyed by field number (index + 1). */
  sparseFrom?: number;
}

/** The details message (what sits at data[1][2]), at the indices Play uses. */
export function playDetails(o: PlayDetailsOptions = {}): unknown[] {
  const fields = new Map<number, unknown>([
    [0, [o.title ?? 'Trail Mapper']],
    [37, [o.developer ?? 'Trail Co']],
    [51, [[String(o.rating ?? 4.4), o.rating ?? 4.4], null, [String(o.ratingCount ?? 321), o.ratingCount ?? 321]]],
    [57, [[[[[null, [[o.priceMicros ?? 0, o.currency ?? 'USD', '']]]]]]]],
    [68, [o.developer ?? 'Trail Co', null, '123']],
    [72, [[null, o.descriptionHtml ?? 'Find trails &amp; paths.<br><br>Offline maps<br><b>No</b> ads.']]],
    [77, [o.id ?? 'com.example.trails']],
    [
      78,
      [
        (
          o.screenshots ?? [
            [1920, 1080],
            [1920, 1080],
            [1232, 800],
          ]
        ).map(([h, w], i) => image(gu(`shot${i}`), h, w)),
      ],
    ],
    [79, [[[o.genre ?? 'Maps & Navigation', null, o.genreId ?? 'MAPS_AND_NAVIGATION']]]],
    [95, [image(o.icon ?? gu('icon-abc=w240-h480'), 512, 512)]],
    [96, [image(gu('feature'), 500, 1024)]],
    [136, [[1, 1], []]],
    [145, [['Jan 2, 2026']]],
  ]);
  if (o.summary !== null) fields.set(73, [[null, o.summary ?? 'Maps for hikers &amp; bikers']]);
  const max = Math.max(...fields.keys());
  const dense: unknown[] = Array.from({ length: max + 1 }, (_, i) => fields.get(i) ?? null);
  if (o.sparseFrom === undefined) return dense;
  const tail: Record<string, unknown> = {};
  for (const [i, v] of fields) if (i >= o.sparseFrom) tail[String(i + 1)] = v;
  return [...dense.slice(0, o.sparseFrom), tail];
}

export interface SoftwareApplicationLdOptions {
  name?: string;
  category?: string;
  image?: string;
  description?: string;
}

export function softwareApplicationLd(o: SoftwareApplicationLdOptions = {}): Record<string, unknown> {
  return {
    '@context': 'https://schema.org',
    '@type': 'SoftwareApplication',
    name: o.name ?? 'Trail Mapper',
    url: 'https://play.google.com/store/apps/details/Trail_Mapper?id=com.example.trails&hl=en',
    description: o.description ?? 'Maps for hikers &amp; bikers',
    operatingSystem: 'ANDROID',
    applicationCategory: o.category ?? 'MAPS_AND_NAVIGATION',
    image: o.image ?? gu('icon-ld'),
    author: { '@type': 'Person', name: 'Trail Co' },
    aggregateRating: { '@type': 'AggregateRating', ratingValue: '4.4', ratingCount: '321' },
    offers: [{ '@type': 'Offer', price: '0', priceCurrency: 'USD' }],
  };
}

const script = (key: string, hash: number, data: unknown) =>
  `<script class="${key}" nonce="n0nce">AF_initDataCallback({key: '${key}', hash: '${hash}', data:${JSON.stringify(data)}, sideChannel: {}});</script>`;

export interface PlayPageOptions {
  /** The details message; omit for a page without the details block. */
  details?: unknown[];
  /** Key of the details block (ds:5 on current pages, ds:4 on 2022 ones). */
  key?: string;
  jsonLd?: Record<string, unknown> | null;
  title?: string;
}

/** A details page: a few unrelated data blocks around the details block, plus JSON-LD. */
export function playDetailsPage(o: PlayPageOptions = {}): string {
  const blocks = [
    script('ds:0', 1, [[null, 'similar'], [[['Other App'], null, [null, 2, [512, 512], [null, null, 'https://example.com/x.png']]]]]),
    script('ds:2', 2, [1]),
  ];
  if (o.details) blocks.push(script(o.key ?? 'ds:5', 9, [[[[]]], [null, null, o.details, {}]]));
  blocks.push(script('ds:8', 13, [[null, null, 'ServiceLogin'], 'CAE=']));
  const ld =
    o.jsonLd === null
      ? ''
      : `<script type="application/ld+json" nonce="n0nce">${JSON.stringify(o.jsonLd ?? softwareApplicationLd())}</script>`;
  return `<!doctype html><html lang="en"><head><title>${o.title ?? 'Trail Mapper - Apps on Google Play'}</title>${ld}</head><body><div id="app"></div>${blocks.join('')}</body></html>`;
}

/** What Google serves instead of the page when it wants cookie consent first. */
export const PLAY_CONSENT_PAGE =
  '<!doctype html><html><head><title>Before you continue to Google Play</title></head><body><form action="https://consent.google.com/save" method="POST"><input type="hidden" name="continue" value="https://play.google.com/store/apps/details?id=com.example.trails"><button>Accept all</button></form></body></html>';

export const PLAY_NOT_FOUND_BODY =
  "<!doctype html><html><head><title>Not Found</title></head><body>We're sorry, the requested URL was not found on this server.</body></html>";
