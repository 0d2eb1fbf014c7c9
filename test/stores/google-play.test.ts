import { describe, it, expect } from 'vitest';
import { genreName, parseGooglePlayDetailsPage, playArtwork, playScreenshotFamily } from '../../src/stores/google-play.ts';
import { at, extractDataBlocks, findSoftwareApplication, listAt } from '../../src/stores/play-data.ts';
import { Problem } from '../../src/core/problem.ts';
import { PLAY_CONSENT_PAGE, PLAY_NOT_FOUND_BODY, playDetails, playDetailsPage, softwareApplicationLd } from '../support/store-fixtures.ts';

const ref = { id: 'com.example.trails', country: 'us', language: 'en' };
const gu = 'https://play-lh.googleusercontent.com/';

function capture() {
  const lines: Array<{ obj: Record<string, unknown>; msg?: string }> = [];
  return { lines, logger: { warn: (obj: object, msg?: string) => void lines.push({ obj: obj as Record<string, unknown>, msg }) } };
}

describe('parseGooglePlayDetailsPage', () => {
  it('maps the details block of a ds:5 page', () => {
    const l = parseGooglePlayDetailsPage(playDetailsPage({ details: playDetails() }), ref);
    expect(l).toEqual({
      store: 'google-play',
      storeId: 'com.example.trails',
      country: 'us',
      language: 'en',
      url: 'https://play.google.com/store/apps/details?id=com.example.trails',
      name: 'Trail Mapper',
      category: 'Maps & Navigation',
      categoryId: 'MAPS_AND_NAVIGATION',
      artworkUrl: `${gu}icon-abc=s512`,
      description: 'Find trails & paths.\n\nOffline maps\nNo ads.',
      subtitle: 'Maps for hikers & bikers',
      developer: 'Trail Co',
      rating: 4.4,
      ratingCount: 321,
      price: 0,
      currency: 'USD',
      screenshots: {
        iphone: [],
        ipad: [],
        mac: [],
        'android-phone': [
          { url: `${gu}shot0`, width: 1080, height: 1920 },
          { url: `${gu}shot1`, width: 1080, height: 1920 },
        ],
        'android-tablet': [{ url: `${gu}shot2`, width: 800, height: 1232 }],
      },
    });
  });

  it('reads the same fields when the high fields sit in a trailing sparse object', () => {
    const dense = parseGooglePlayDetailsPage(playDetailsPage({ details: playDetails() }), ref);
    for (const sparseFrom of [60, 80, 100]) {
      const sparse = parseGooglePlayDetailsPage(playDetailsPage({ details: playDetails({ sparseFrom }) }), ref);
      expect(sparse).toEqual(dense);
    }
  });

  it('finds the details block by shape under any key (2022 pages used ds:4)', () => {
    const l = parseGooglePlayDetailsPage(playDetailsPage({ details: playDetails(), key: 'ds:4', jsonLd: null }), ref);
    expect(l.name).toBe('Trail Mapper');
  });

  it('reads paid apps from price micros', () => {
    const l = parseGooglePlayDetailsPage(playDetailsPage({ details: playDetails({ priceMicros: 6_990_000, currency: 'EUR' }) }), ref);
    expect([l.price, l.currency]).toEqual([6.99, 'EUR']);
  });

  it('treats an unrated app (0.0 from 0 ratings) as having no rating', () => {
    const l = parseGooglePlayDetailsPage(playDetailsPage({ details: playDetails({ rating: 0, ratingCount: 0 }) }), ref);
    expect([l.rating, l.ratingCount]).toEqual([null, 0]);
  });

  it('has a null subtitle when there is no short summary', () => {
    const l = parseGooglePlayDetailsPage(playDetailsPage({ details: playDetails({ summary: null }), jsonLd: null }), ref);
    expect(l.subtitle).toBeNull();
  });

  it('falls back to JSON-LD when the page has no details block', () => {
    const l = parseGooglePlayDetailsPage(
      playDetailsPage({ jsonLd: softwareApplicationLd({ category: 'GAME_ARCADE', image: `${gu}ld=s180` }) }),
      ref,
    );
    expect(l.name).toBe('Trail Mapper');
    expect(l.category).toBe('Arcade');
    expect(l.categoryId).toBe('GAME_ARCADE');
    expect(l.artworkUrl).toBe(`${gu}ld=s512`);
    expect(l.description).toBe('Maps for hikers & bikers');
    expect(l.developer).toBe('Trail Co');
    expect([l.rating, l.ratingCount, l.price, l.currency]).toEqual([4.4, 321, 0, 'USD']);
    expect(l.screenshots['android-phone']).toEqual([]);
  });

  it.each([
    ['a consent page', PLAY_CONSENT_PAGE, 'consent'],
    ['a page with neither block', playDetailsPage({ jsonLd: null }), null],
    ['the 404 body', PLAY_NOT_FOUND_BODY, null],
  ])('%s is store_unavailable and logged with the page structure', (_name, html, looksLike) => {
    const { lines, logger } = capture();
    let error: unknown;
    try {
      parseGooglePlayDetailsPage(html, ref, logger);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(Problem);
    expect((error as Problem).code).toBe('store_unavailable');
    expect(lines).toHaveLength(1);
    const page = lines[0].obj.page as Record<string, unknown>;
    expect(page.looksLike).toBe(looksLike);
    expect(Array.isArray(page.blocks)).toBe(true);
    expect(lines[0].obj.id).toBe('com.example.trails');
  });

  it('logs block keys and sizes when a layout change hides the details', () => {
    const { lines, logger } = capture();
    expect(() => parseGooglePlayDetailsPage(playDetailsPage({ jsonLd: null }), ref, logger)).toThrow(Problem);
    const blocks = (lines[0].obj.page as { blocks: Array<{ key: string; size: number }> }).blocks;
    expect(blocks.map((b) => b.key)).toEqual(['ds:0', 'ds:2', 'ds:8']);
    expect(blocks.every((b) => b.size > 0)).toBe(true);
  });
});

describe('play-data helpers', () => {
  it('walks arrays and trailing field-number objects', () => {
    const msg = ['a', null, ['b'], { '5': ['e'], '10': 'j' }];
    expect(at(msg, 0)).toBe('a');
    expect(at(msg, 2, 0)).toBe('b');
    expect(at(msg, 4, 0)).toBe('e');
    expect(at(msg, 9)).toBe('j');
    expect(at(msg, 1)).toBeUndefined();
    expect(at(msg, 3)).toBeUndefined();
    expect(at(msg, 0, 0)).toBeUndefined();
    expect(at(msg, 50, 1, 2)).toBeUndefined();
    expect(listAt(msg, 2)).toEqual(['b']);
    expect(listAt(msg, 0)).toEqual([]);
  });

  it('extracts blocks whose strings contain brackets and escapes, and reports broken ones', () => {
    const html =
      `<script>AF_initDataCallback({key: 'ds:1', hash: '1', data:["a]b\\"[",{"x":"}"}], sideChannel: {}});</script>` +
      `<script>AF_initDataCallback({key: 'ds:2', hash: '2', data:[1,2, sideChannel: {}});</script>` +
      `<script>AF_initDataCallback({key: 'ds:3', hash: '3', data:function(){return [3]}});</script>`;
    const { blocks, broken } = extractDataBlocks(html);
    expect(blocks.map((b) => [b.key, b.data])).toEqual([
      ['ds:1', ['a]b"[', { x: '}' }]],
      ['ds:3', [3]],
    ]);
    expect(broken).toEqual(['ds:2']);
  });

  it('finds SoftwareApplication in JSON-LD arrays and graphs, skipping broken JSON', () => {
    const wrap = (v: string) => `<script type="application/ld+json">${v}</script>`;
    expect(
      findSoftwareApplication(
        wrap('{oops') + wrap(JSON.stringify([{ '@type': 'Organization' }, { '@type': 'SoftwareApplication', name: 'A' }])),
      )?.name,
    ).toBe('A');
    expect(findSoftwareApplication(wrap(JSON.stringify({ '@graph': [{ '@type': ['VideoGame'], name: 'G' }] })))?.name).toBe('G');
    expect(findSoftwareApplication('<html></html>')).toBeNull();
  });
});

describe('playArtwork', () => {
  it.each([
    [`${gu}abc=w240-h480`, `${gu}abc=s512`],
    [`${gu}abc=s180`, `${gu}abc=s512`],
    [`${gu}abc=w526-h296-rw`, `${gu}abc=s512`],
    [`${gu}abc`, `${gu}abc=s512`],
    ['http://lh3.googleusercontent.com/abc=s64', 'https://lh3.googleusercontent.com/abc=s512'],
    ['https://example.com/icon.png', 'https://example.com/icon.png'],
  ])('%s -> %s', (input, expected) => {
    expect(playArtwork(input)).toBe(expected);
  });
});

describe('playScreenshotFamily', () => {
  it.each([
    [1080, 1920, 'android-phone'],
    [1920, 1080, 'android-phone'],
    [1242, 2208, 'android-phone'],
    [1080, 1794, 'android-phone'],
    [1080, 2400, 'android-phone'],
    [800, 1232, 'android-tablet'],
    [1200, 1920, 'android-tablet'],
    [2560, 1600, 'android-tablet'],
    [1536, 2048, 'android-tablet'],
    [null, null, 'android-phone'],
  ] as const)('%s x %s -> %s', (w, h, family) => {
    expect(playScreenshotFamily(w, h)).toBe(family);
  });
});

describe('genreName', () => {
  it.each([
    ['GAME_ARCADE', 'Arcade'],
    ['FOOD_AND_DRINK', 'Food & Drink'],
    ['FINANCE', 'Finance'],
  ])('%s -> %s', (id, name) => {
    expect(genreName(id)).toBe(name);
  });
});
