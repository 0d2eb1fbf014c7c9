import { describe, it, expect } from 'vitest';
import { appStoreArtwork, appStoreScreenshot, parseAppStoreLookupBody, storefrontLanguage } from '../../src/stores/app-store.ts';
import { Problem } from '../../src/core/problem.ts';
import { LOOKUP_INVALID_ID_BODY, LOOKUP_NOT_FOUND_BODY, lookupBody, lookupResult } from '../support/store-fixtures.ts';

const ref = { id: '1234567890', country: 'us' };

function problemOf(fn: () => unknown): Problem {
  try {
    fn();
  } catch (e) {
    if (e instanceof Problem) return e;
    throw e;
  }
  throw new Error('expected a Problem');
}

describe('parseAppStoreLookupBody', () => {
  it('maps a lookup result to a Listing', () => {
    const listing = parseAppStoreLookupBody(lookupBody([lookupResult()]), ref);
    expect(listing).toEqual({
      store: 'app-store',
      storeId: '1234567890',
      country: 'us',
      language: 'en',
      url: 'https://apps.apple.com/us/app/pocket-planner/id1234567890?uo=4',
      name: 'Pocket Planner',
      category: 'Productivity',
      categoryId: '6007',
      artworkUrl: 'https://is1-ssl.mzstatic.com/image/thumb/Purple116/v4/aa/bb/cc/icon/source/512x512bb.jpg',
      description: 'Plan your day & week.\nStay on top of tasks.\nWorks offline — always.',
      subtitle: null,
      developer: 'Planner Labs',
      rating: 4.5,
      ratingCount: 1234,
      price: 0,
      currency: 'USD',
      screenshots: {
        iphone: [
          { url: expect.stringContaining('/s1/source/392x696bb.jpg'), width: 392, height: 696 },
          { url: expect.stringContaining('/s2/source/392x696bb.jpg'), width: 392, height: 696 },
        ],
        ipad: [{ url: expect.stringContaining('/p1/source/576x768bb.jpg'), width: 576, height: 768 }],
        mac: [],
        'android-phone': [],
        'android-tablet': [],
      },
    });
  });

  it('reads the raw body Apple sends: leading newlines, one result per line', () => {
    const body = lookupBody([lookupResult()], { raw: true });
    expect(body.startsWith('\n\n\n{')).toBe(true);
    expect(parseAppStoreLookupBody(body, ref).name).toBe('Pocket Planner');
  });

  it('picks the result whose trackId is the id asked for', () => {
    const body = lookupBody([lookupResult({ trackId: 1, trackName: 'Other' }), lookupResult()], { raw: true });
    expect(parseAppStoreLookupBody(body, ref).name).toBe('Pocket Planner');
  });

  it.each([
    ['resultCount 0', LOOKUP_NOT_FOUND_BODY],
    ['the invalid-id error body', LOOKUP_INVALID_ID_BODY],
    ['a result that is not an app', lookupBody([lookupResult({ kind: 'song' })])],
    ['only another app’s result', lookupBody([lookupResult({ trackId: 1, trackName: 'Other' })])],
  ])('%s is store_app_not_found', (_name, body) => {
    const p = problemOf(() => parseAppStoreLookupBody(body, ref));
    expect(p.status).toBe(422);
    expect(p.code).toBe('store_app_not_found');
    expect(p.detail).toContain('1234567890');
  });

  it.each([
    ['not JSON', '<html>oops</html>'],
    ['JSON of another shape', '[1,2]'],
    ['no results array', '{"resultCount":1}'],
    ['a result without a name', lookupBody([lookupResult({ trackName: undefined })])],
    [
      'a result without any icon',
      lookupBody([lookupResult({ artworkUrl512: undefined, artworkUrl100: undefined, artworkUrl60: undefined })]),
    ],
  ])('%s is store_unavailable with Retry-After', (_name, body) => {
    const p = problemOf(() => parseAppStoreLookupBody(body, ref));
    expect(p.status).toBe(502);
    expect(p.code).toBe('store_unavailable');
    expect(p.headers['Retry-After']).toBe('30');
  });

  it('uses null for missing rating, count, subtitle and currency, 0 for a missing price', () => {
    const l = parseAppStoreLookupBody(
      lookupBody([lookupResult({ averageUserRating: undefined, userRatingCount: undefined, price: undefined, currency: undefined })]),
      ref,
    );
    expect([l.rating, l.ratingCount, l.subtitle, l.currency, l.price]).toEqual([null, null, null, null, 0]);
  });

  it('keeps a subtitle when the result has one, and paid prices', () => {
    const l = parseAppStoreLookupBody(lookupBody([lookupResult({ subtitle: 'Tasks &amp; notes', price: 4.99 })]), ref);
    expect(l.subtitle).toBe('Tasks & notes');
    expect(l.price).toBe(4.99);
  });

  it('falls back to sellerName, genres[0] and a built store URL', () => {
    const l = parseAppStoreLookupBody(
      lookupBody([
        lookupResult({
          artistName: undefined,
          primaryGenreName: undefined,
          primaryGenreId: undefined,
          trackViewUrl: 'https://evil.example/x',
        }),
      ]),
      { id: '1234567890', country: 'fr' },
    );
    expect(l.developer).toBe('Planner Labs Inc.');
    expect(l.category).toBe('Productivity');
    expect(l.categoryId).toBeNull();
    expect(l.url).toBe('https://apps.apple.com/fr/app/id1234567890');
    expect(l.language).toBe('fr');
    expect(l.country).toBe('fr');
  });

  it("files a Mac app's screenshots under the mac family, never iPhone or iPad", () => {
    const l = parseAppStoreLookupBody(
      lookupBody([
        lookupResult({
          kind: 'mac-software',
          screenshotUrls: ['https://is1-ssl.mzstatic.com/image/thumb/a/source/800x500bb.jpg'],
          ipadScreenshotUrls: undefined,
        }),
      ]),
      ref,
    );
    expect(l.screenshots.iphone).toEqual([]);
    expect(l.screenshots.ipad).toEqual([]);
    expect(l.screenshots.mac).toEqual([
      { url: 'https://is1-ssl.mzstatic.com/image/thumb/a/source/800x500bb.jpg', width: 800, height: 500 },
    ]);
    expect(l.platform).toBe('mac');
    expect(l.name).toBe('Pocket Planner');
  });

  it('skips screenshot entries that are not http(s) URLs', () => {
    const l = parseAppStoreLookupBody(
      lookupBody([lookupResult({ screenshotUrls: ['javascript:alert(1)', 42, null], ipadScreenshotUrls: 'x' })]),
      ref,
    );
    expect(l.screenshots.iphone).toEqual([]);
    expect(l.screenshots.ipad).toEqual([]);
  });

  it('decodes entities and <br> variants but leaves other angle brackets alone', () => {
    const l = parseAppStoreLookupBody(
      lookupBody([lookupResult({ description: 'A &lt;3 B&nbsp;C &quot;q&quot; &#x27;s&#39;<BR/>x < y && <b>z</b>\r\nend' })]),
      ref,
    );
    expect(l.description).toBe('A <3 B\u00a0C "q" \'s\'\nx < y && <b>z</b>\nend');
  });
});

describe('appStoreArtwork', () => {
  it.each([
    [
      'https://is1-ssl.mzstatic.com/image/thumb/P/v4/x/source/100x100bb.jpg',
      'https://is1-ssl.mzstatic.com/image/thumb/P/v4/x/source/512x512bb.jpg',
    ],
    [
      'https://is1-ssl.mzstatic.com/image/thumb/P/v4/x/source/60x60bb.png',
      'https://is1-ssl.mzstatic.com/image/thumb/P/v4/x/source/512x512bb.png',
    ],
    [
      'http://is3.mzstatic.com/image/thumb/Purple69/v4/0b/mzl.ujaisbyd.png/0x0ss-85.jpg',
      'https://is3.mzstatic.com/image/thumb/Purple69/v4/0b/mzl.ujaisbyd.png/512x512bb.jpg',
    ],
    [
      'https://is1-ssl.mzstatic.com/image/thumb/P/v4/x/AppIcon.png/1024x1024sr.webp',
      'https://is1-ssl.mzstatic.com/image/thumb/P/v4/x/AppIcon.png/512x512bb.webp',
    ],
    [
      'http://a1988.phobos.apple.com/us/r30/Purple1/v4/38/df/mzl.gqntmaen.png',
      'https://is1-ssl.mzstatic.com/image/thumb/Purple1/v4/38/df/mzl.gqntmaen.png/512x512bb.png',
    ],
    ['http://example.com/icon.png', 'https://example.com/icon.png'],
  ])('%s -> %s', (input, expected) => {
    expect(appStoreArtwork(input)).toBe(expected);
  });

  it('rejects non-http values', () => {
    expect(appStoreArtwork('data:image/png;base64,AAAA')).toBeNull();
  });

  it('falls back to artworkUrl100 when artworkUrl512 is missing', () => {
    const l = parseAppStoreLookupBody(lookupBody([lookupResult({ artworkUrl512: undefined })]), ref);
    expect(l.artworkUrl).toMatch(/\/icon\/source\/512x512bb\.jpg$/);
  });
});

describe('appStoreScreenshot', () => {
  it.each([
    ['https://is4-ssl.mzstatic.com/image/thumb/P/v4/a/source/392x696bb.jpg', 392, 696],
    ['https://is1-ssl.mzstatic.com/image/thumb/P/v4/a/pr_source.png/406x228bb.png', 406, 228],
    ['http://a5.mzstatic.com/us/r30/Purple1/v4/e3/screen1136x1136.jpeg', null, null],
    ['https://is3.mzstatic.com/image/thumb/P/v4/a/x.png/0x0ss-85.jpg', null, null],
  ])('%s', (url, width, height) => {
    const s = appStoreScreenshot(url);
    expect(s).toEqual({ url: url.replace('http://', 'https://'), width, height });
  });
});

describe('storefrontLanguage', () => {
  it.each([
    ['us', 'en'],
    ['fr', 'fr'],
    ['de', 'de'],
    ['jp', 'ja'],
    ['br', 'pt'],
    ['kr', 'ko'],
    ['gb', 'en'],
    ['ch', 'en'],
    ['zz', 'en'],
  ])('%s -> %s', (country, language) => {
    expect(storefrontLanguage(country)).toBe(language);
  });
});
