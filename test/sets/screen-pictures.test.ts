/** The screens routes: uploads decoded and checked before anything is stored, scoped to the account. */
import { deflateSync } from 'node:zlib';
import fs from 'node:fs';
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, expectProblem, type TestApp } from '../support/app.ts';
import { solidPng } from '../support/fake-images.ts';
import { accountWithKey, insertApp, sampleListing } from '../support/fixtures.ts';
import { emptyScreenshots } from '../../src/core/listing.ts';

let h: TestApp;
let appId: string;
beforeEach(async () => {
  h = await createTestApp();
  appId = await insertApp(h.t.pool, h.account.id);
});
afterEach(async () => h.close());

const url = (app = appId) => `/api/v1/public/v1/apps/${app}/screens`;
const post = (payload: Buffer, opts: { type?: string; query?: string; headers?: Record<string, string>; app?: string } = {}) =>
  h.app.inject({
    method: 'POST',
    url: url(opts.app) + (opts.query ?? ''),
    headers: { ...(opts.headers ?? h.auth), 'content-type': opts.type ?? 'image/png' },
    payload,
  });
const screensStored = async () => Number((await h.t.pool.query('SELECT count(*) FROM screens')).rows[0].count);

// A PNG by hand: crc32 per chunk, as the format says.
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (b: Buffer) => {
  let c = 0xffffffff;
  for (const byte of b) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
/** A few hundred bytes that claim 100,000 × 100,000 pixels: a decompression bomb. */
function bombPng(): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(100_000, 0);
  ihdr.writeUInt32BE(100_000, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const idat = deflateSync(Buffer.alloc(100_001 * 3 * 4)); // the start of a field of zeros
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', idat),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('POST /public/v1/apps/{appId}/screens', () => {
  it('stores a PNG or a JPEG, infers the family from the aspect ratio, or takes ?family=', async () => {
    const phone = await post(await solidPng(1290, 2796, 'red'));
    expect(phone.statusCode).toBe(201);
    expect(phone.json()).toMatchObject({ family: 'iphone', width: 1290, height: 2796 });
    const tablet = await post(
      await sharp({ create: { width: 2048, height: 2732, channels: 3, background: '#336699' } })
        .jpeg()
        .toBuffer(),
      { type: 'image/jpeg' },
    );
    expect(tablet.json().family).toBe('ipad');
    const told = await post(await solidPng(1080, 1920, 'green'), { query: '?family=android-phone' });
    expect(told.json().family).toBe('android-phone');
    const android = await insertApp(
      h.t.pool,
      h.account.id,
      sampleListing({ store: 'google-play', storeId: 'com.example', screenshots: emptyScreenshots() }),
    );
    expect((await post(await solidPng(1600, 2560, 'green'), { app: android })).json().family).toBe('android-tablet');
    const list = await h.app.inject({ method: 'GET', url: url(), headers: h.auth });
    expect(list.json().screens.map((s: { screenId: string }) => s.screenId)).toEqual([
      phone.json().screenId,
      tablet.json().screenId,
      told.json().screenId,
    ]);
  });

  it('stores a screen without its metadata: a PNG’s 8 MB iTXt chunk, a JPEG’s EXIF with its GPS position', async () => {
    const plain = await solidPng(1290, 2796, 'red');
    // After IHDR (8-byte signature + 25-byte chunk): an international text chunk of 8 MB.
    const itxt = chunk('iTXt', Buffer.concat([Buffer.from('Comment\0\0\0\0\0', 'latin1'), Buffer.alloc(8 * 1024 * 1024, 'x')]));
    const png = Buffer.concat([plain.subarray(0, 33), itxt, plain.subarray(33)]);
    expect((await sharp(png).metadata()).format).toBe('png');
    const withGps = await sharp({ create: { width: 1290, height: 2796, channels: 3, background: '#336699' } })
      .jpeg()
      .withExif({ IFD0: { Make: 'Phone', Model: 'Tracker' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 24/1' } })
      .toBuffer();
    const exif = (await sharp(withGps).metadata()).exif;
    expect(exif?.includes(Buffer.from('Tracker'))).toBe(true);

    for (const [body, type] of [
      [png, 'image/png'],
      [withGps, 'image/jpeg'],
    ] as const) {
      const res = await post(body, { type });
      expect(res.statusCode).toBe(201);
      const { rows } = await h.t.pool.query('SELECT object_key, bytes FROM screens WHERE id = $1', [res.json().screenId]);
      const stored = (await h.services.objects.get(rows[0].object_key))!;
      const bytes = Buffer.concat(await stored.body.toArray());
      expect(rows[0].bytes).toBe(bytes.length);
      expect(res.json().bytes).toBe(bytes.length);
      expect(res.json().sha256).toBe(createHash('sha256').update(body).digest('hex'));
      const meta = await sharp(bytes).metadata();
      expect(meta).toMatchObject({ format: type === 'image/png' ? 'png' : 'jpeg', width: 1290, height: 2796 });
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(meta.comments ?? []).toEqual([]);
      expect(bytes.includes(Buffer.from('iTXt'))).toBe(false);
      expect(bytes.includes(Buffer.from('Tracker'))).toBe(false);
      expect(bytes.length).toBeLessThan(1024 * 1024);
    }
  });

  it('refuses what is not a sound PNG or JPEG before storing anything', async () => {
    const cases: [string, Buffer, string][] = [
      ['text', Buffer.from('hello, not an image'), 'image/png'],
      [
        'gif',
        await sharp({ create: { width: 400, height: 800, channels: 3, background: '#000' } })
          .gif()
          .toBuffer(),
        'image/png',
      ],
      ['too small', await solidPng(200, 400, 'red'), 'image/png'],
      ['a bomb', bombPng(), 'image/png'],
      [
        'truncated',
        (
          await sharp({
            create: { width: 1290, height: 2796, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
          })
            .png()
            .toBuffer()
        ).subarray(0, 20_000),
        'image/png',
      ],
      [
        'over 40 megapixels',
        await sharp({ create: { width: 8000, height: 5100, channels: 3, background: '#fff' } })
          .png({ compressionLevel: 1 })
          .toBuffer(),
        'image/png',
      ],
    ];
    for (const [what, bytes, type] of cases) {
      const res = await post(bytes, { type });
      const body = expectProblem(res, 400, 'invalid_image');
      expect(body.detail, what).toMatch(/PNG|JPEG|pixels|px|truncated|corrupt|megapixels/);
    }
    expect(await screensStored()).toBe(0);
    expect(fs.readdirSync((h.services.objects as unknown as { root: string }).root)).toEqual([]);
  });

  it('answers 413 over 10 MiB, 415 for another type, 400 for an unknown family', async () => {
    expectProblem(await post(Buffer.alloc(10 * 1024 * 1024 + 1)), 413, 'payload_too_large');
    const json = await h.app.inject({
      method: 'POST',
      url: url(),
      headers: { ...h.auth, 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(expectProblem(json, 415, 'unsupported_media_type').detail).toMatch(/image\/png/);
    expectProblem(await post(await solidPng(400, 800, 'red'), { query: '?family=watch' }), 400, 'validation_failed');
    expect(await screensStored()).toBe(0);
  });

  it('holds at most 50 live screens per app, also under concurrent uploads', async () => {
    const png = await solidPng(330, 700, 'red');
    await h.t.pool.query(
      `INSERT INTO screens (id, account_id, app_id, family, content_type, width, height, bytes, sha256, object_key)
       SELECT 'scr_' || lpad(i::text, 26, '0'), $1, $2, 'iphone', 'image/png', 330, 700, 1, 'x', 'screens/x' FROM generate_series(1, 46) i`,
      [h.account.id, appId],
    );
    const answers = await Promise.all(Array.from({ length: 8 }, () => post(png)));
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(4);
    for (const a of answers.filter((r) => r.statusCode !== 201)) expectProblem(a, 409, 'screen_limit');
    expect(await screensStored()).toBe(50);
  });
});

describe('screens are the account’s own', () => {
  it('another account’s app or screen is 404, and no key is 401', async () => {
    const other = await accountWithKey(h.t.pool);
    const theirs = { authorization: `Bearer ${other.key}` };
    const mine = (await post(await solidPng(400, 860, 'red'))).json().screenId as string;
    expectProblem(await post(await solidPng(400, 860, 'red'), { headers: theirs }), 404, 'app_not_found');
    expectProblem(await h.app.inject({ method: 'GET', url: url(), headers: theirs }), 404, 'app_not_found');
    expectProblem(await h.app.inject({ method: 'DELETE', url: `${url()}/${mine}`, headers: theirs }), 404, 'screen_not_found');
    expectProblem(await post(await solidPng(400, 860, 'red'), { headers: {} }), 401, 'missing_api_key');
    expect(await screensStored()).toBe(1);
  });

  it('delete hides a screen from lists and new sets; a second delete is 404', async () => {
    const id = (await post(await solidPng(400, 860, 'red'))).json().screenId as string;
    expect((await h.app.inject({ method: 'DELETE', url: `${url()}/${id}`, headers: h.auth })).statusCode).toBe(204);
    expect((await h.app.inject({ method: 'GET', url: url(), headers: h.auth })).json().screens).toEqual([]);
    expectProblem(await h.app.inject({ method: 'DELETE', url: `${url()}/${id}`, headers: h.auth }), 404, 'screen_not_found');
    const set = await h.app.inject({
      method: 'POST',
      url: '/api/v1/public/v1/screenshots',
      headers: h.auth,
      payload: { appId, device: 'iphone-69', screenIds: [id] },
    });
    expectProblem(set, 404, 'screen_not_found');
  });

  it('a set naming another app’s screen, or another account’s, is refused and charges nothing', async () => {
    const otherApp = await insertApp(h.t.pool, h.account.id);
    const foreign = (await post(await solidPng(400, 860, 'red'), { app: otherApp })).json().screenId as string;
    const before = (await h.app.inject({ method: 'GET', url: '/api/v1/public/v1/account', headers: h.auth })).json().credits.remaining;
    expectProblem(
      await h.app.inject({
        method: 'POST',
        url: '/api/v1/public/v1/screenshots',
        headers: h.auth,
        payload: { appId, device: 'iphone-69', screenIds: [foreign] },
      }),
      404,
      'screen_not_found',
    );
    expectProblem(
      await h.app.inject({
        method: 'POST',
        url: '/api/v1/public/v1/screenshots',
        headers: h.auth,
        payload: { appId, device: 'iphone-69', slides: [{ headline: 'Mine', screenId: foreign }] },
      }),
      404,
      'screen_not_found',
    );
    expect((await h.app.inject({ method: 'GET', url: '/api/v1/public/v1/account', headers: h.auth })).json().credits.remaining).toBe(
      before,
    );
    expect(Number((await h.t.pool.query('SELECT count(*) FROM jobs')).rows[0].count)).toBe(0);
  });
});
