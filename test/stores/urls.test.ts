import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { InvalidStoreUrl, parseAppStoreUrl, parseGooglePlayUrl } from '../../src/stores/urls.ts';

describe('parseAppStoreUrl', () => {
  it.each([
    ['https://apps.apple.com/us/app/facebook/id284882215', { id: '284882215', country: 'us' }],
    ['https://apps.apple.com/fr/app/118-712-annuaire/id338986109?l=en&mt=8', { id: '338986109', country: 'fr' }],
    ['https://apps.apple.com/GB/app/some-app/id1?uo=4', { id: '1', country: 'gb' }],
    ['https://apps.apple.com/app/id1043584510', { id: '1043584510', country: 'us' }],
    ['https://apps.apple.com/app/iris-by-lowes/id1043584510', { id: '1043584510', country: 'us' }],
    ['https://apps.apple.com/jp/app/id1043584510/', { id: '1043584510', country: 'jp' }],
    ['https://itunes.apple.com/us/app/itanky/id464686641?mt=8&uo=4', { id: '464686641', country: 'us' }],
    ['https://itunes.apple.com/app/id464686641', { id: '464686641', country: 'us' }],
    ['https://APPS.APPLE.COM/de/app/x/id42', { id: '42', country: 'de' }],
    ['  https://apps.apple.com/us/app/x/id42  ', { id: '42', country: 'us' }],
    ['https://apps.apple.com/jp/app/%E3%82%B2%E3%83%BC%E3%83%A0/id42', { id: '42', country: 'jp' }],
    ['https://apps.apple.com/jp/app/ゲーム/id42', { id: '42', country: 'jp' }],
  ])('accepts %s', (input, expected) => {
    expect(parseAppStoreUrl(input)).toEqual(expected);
  });

  it.each([
    'http://apps.apple.com/us/app/x/id42',
    'https://apps.apple.com:443/us/app/x/id42',
    'https://apps.apple.com:8443/us/app/x/id42',
    'https://user:pw@apps.apple.com/us/app/x/id42',
    'https://user@apps.apple.com/us/app/x/id42',
    'https://evil.com/us/app/x/id42',
    'https://apps.apple.com.evil.com/us/app/x/id42',
    'https://evil.com#@apps.apple.com/us/app/x/id42',
    'https://evil.com\\@apps.apple.com/us/app/x/id42',
    'https://apps.apple.com\\@evil.com/us/app/x/id42',
    'https://apps.apple.com/us/app/x/id42#frag',
    'https://apps.apple.com/us/app/x/',
    'https://apps.apple.com/us/app/x/idabc',
    'https://apps.apple.com/us/app/x/id',
    'https://apps.apple.com/us/app/a/b/id42',
    'https://apps.apple.com/usa/app/x/id42',
    'https://apps.apple.com/us/developer/x/id42',
    'https://apps.apple.com/us/app/x/id42/extra',
    'https://apps.apple.com/us/app/x\n/id42',
    'https://apps.apple.com/us/app/x/id4\t2',
    'https://apps.apple.com./us/app/x/id42',
    'https://apps.apple.com/us/app/x/id1234567890123456',
    'apps.apple.com/us/app/x/id42',
    '//apps.apple.com/us/app/x/id42',
    'https://play.google.com/store/apps/details?id=com.example.app',
    'ftp://apps.apple.com/us/app/x/id42',
    '',
    'not a url',
  ])('rejects %j', (input) => {
    expect(() => parseAppStoreUrl(input)).toThrow(InvalidStoreUrl);
  });

  it('rejects non-strings with InvalidStoreUrl', () => {
    for (const v of [undefined, null, 42, {}, ['https://apps.apple.com/app/id1']]) {
      expect(() => parseAppStoreUrl(v as unknown as string)).toThrow(InvalidStoreUrl);
    }
  });

  it('says what a valid URL looks like', () => {
    expect(() => parseAppStoreUrl('https://example.com')).toThrow(/apps\.apple\.com\/us\/app\/name\/id123456789/);
  });
});

describe('parseGooglePlayUrl', () => {
  it.each([
    [
      'https://play.google.com/store/apps/details?id=com.mojang.minecraftpe',
      { id: 'com.mojang.minecraftpe', country: 'us', language: 'en' },
    ],
    [
      'https://play.google.com/store/apps/details?id=com.moonwink.treasury&hl=en_US&gl=BR',
      { id: 'com.moonwink.treasury', country: 'br', language: 'en' },
    ],
    ['https://play.google.com/store/apps/details?hl=fr&id=com.example.app', { id: 'com.example.app', country: 'us', language: 'fr' }],
    [
      'https://play.google.com/store/apps/details?id=com.example.app&hl=es-419&gl=mx&pli=1',
      { id: 'com.example.app', country: 'mx', language: 'es' },
    ],
    ['https://play.google.com/store/apps/details?id=com.example.app&hl=&gl=', { id: 'com.example.app', country: 'us', language: 'en' }],
    ['https://play.google.com/store/apps/details?id=a.b', { id: 'a.b', country: 'us', language: 'en' }],
    ['https://play.google.com/store/apps/details?id=com.Ex_1.app_2', { id: 'com.Ex_1.app_2', country: 'us', language: 'en' }],
  ])('accepts %s', (input, expected) => {
    expect(parseGooglePlayUrl(input)).toEqual(expected);
  });

  it.each([
    'http://play.google.com/store/apps/details?id=com.example.app',
    'https://play.google.com:443/store/apps/details?id=com.example.app',
    'https://u:p@play.google.com/store/apps/details?id=com.example.app',
    'https://play.google.com.evil.com/store/apps/details?id=com.example.app',
    'https://evil.com/?x=https://play.google.com/store/apps/details?id=com.example.app',
    'https://play.google.com/store/apps/details',
    'https://play.google.com/store/apps/details?id=',
    'https://play.google.com/store/apps/details#?id=com.example.app',
    'https://play.google.com/store/apps/details?id=com.example.app#x',
    'https://play.google.com/store/apps/details?id=example',
    'https://play.google.com/store/apps/details?id=com.1example.app',
    'https://play.google.com/store/apps/details?id=com..app',
    'https://play.google.com/store/apps/details?id=com.example.app.',
    'https://play.google.com/store/apps/details?id=com.ex-ample.app',
    `https://play.google.com/store/apps/details?id=a.${'b'.repeat(254)}`,
    'https://play.google.com/store/apps/details?id=com.a.b&id=com.c.d',
    'https://play.google.com/store/apps/details?id=com.example.app&gl=usa',
    'https://play.google.com/store/apps/details?id=com.example.app&hl=english!',
    'https://play.google.com/store/apps/dev?id=123',
    'https://play.google.com/store/apps/details/Name?id=com.example.app',
    'https://apps.apple.com/app/id42',
  ])('rejects %j', (input) => {
    expect(() => parseGooglePlayUrl(input)).toThrow(InvalidStoreUrl);
  });

  it('rejects non-strings with InvalidStoreUrl', () => {
    for (const v of [undefined, null, 1, {}]) {
      expect(() => parseGooglePlayUrl(v as unknown as string)).toThrow(InvalidStoreUrl);
    }
  });
});

/** Strings that look a lot like store URLs, so the property tests reach the deeper checks. */
const nearlyUrl = fc
  .tuple(
    fc.constantFrom('https://', 'http://', 'HTTPS://', '', '//', 'https:/', 'https:\\\\'),
    fc.constantFrom(
      'apps.apple.com',
      'itunes.apple.com',
      'play.google.com',
      'evil.com',
      'apps.apple.com:8080',
      'u@play.google.com',
      'apps.apple.com.evil.com',
      '127.0.0.1',
      '',
    ),
    fc.array(
      fc.constantFrom('/us', '/app', '/slug', '/id123', '/id', '/store', '/apps', '/details', '/', '/%2e%2e', '/@evil.com', '#', '?', '\\'),
      { maxLength: 6 },
    ),
    fc.array(fc.constantFrom('?id=com.example.app', '&hl=en_US', '&gl=br', '?id=x', '&id=a.b', '#frag', '?mt=8', '&hl=', '%00', ' '), {
      maxLength: 4,
    }),
    fc.string({ maxLength: 8 }),
  )
  .map(([scheme, host, path, query, junk]) => `${scheme}${host}${path.join('')}${query.join('')}${junk}`);

const anyInput = fc.oneof(nearlyUrl, fc.string(), fc.webUrl({ withQueryParameters: true, withFragments: true }), fc.anything());

function outcome(parse: (s: string) => unknown, input: unknown): 'ok' | 'invalid' {
  try {
    parse(input as string);
    return 'ok';
  } catch (e) {
    if (e instanceof InvalidStoreUrl) return 'invalid';
    throw e;
  }
}

describe('URL parsers: properties', () => {
  it('throw nothing but InvalidStoreUrl, whatever the input', () => {
    fc.assert(
      fc.property(anyInput, (input) => {
        outcome(parseAppStoreUrl, input);
        outcome(parseGooglePlayUrl, input);
      }),
      { numRuns: 3000 },
    );
  });

  it('accept only https URLs on the store host, with no port or user info', () => {
    const check = (parse: (s: string) => unknown, hosts: string[]) => (input: unknown) => {
      if (outcome(parse, input) !== 'ok') return;
      const url = new URL((input as string).trim());
      expect(url.protocol).toBe('https:');
      expect(hosts).toContain(url.hostname);
      expect(url.port).toBe('');
      expect(url.username + url.password).toBe('');
    };
    fc.assert(fc.property(anyInput, check(parseAppStoreUrl, ['apps.apple.com', 'itunes.apple.com'])), { numRuns: 3000 });
    fc.assert(fc.property(anyInput, check(parseGooglePlayUrl, ['play.google.com'])), { numRuns: 3000 });
  });

  it('round-trip: any valid id and storefront comes back out of a URL built from it', () => {
    const segment = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,10}$/);
    fc.assert(
      fc.property(fc.array(segment, { minLength: 2, maxLength: 5 }), fc.stringMatching(/^[a-z]{2}$/), (parts, cc) => {
        const id = parts.join('.');
        expect(parseGooglePlayUrl(`https://play.google.com/store/apps/details?id=${id}&gl=${cc.toUpperCase()}`)).toEqual({
          id,
          country: cc,
          language: 'en',
        });
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9_999_999_999 }), fc.stringMatching(/^[a-z]{2}$/), (n, cc) => {
        expect(parseAppStoreUrl(`https://apps.apple.com/${cc}/app/slug/id${n}`)).toEqual({ id: String(n), country: cc });
      }),
    );
  });
});
