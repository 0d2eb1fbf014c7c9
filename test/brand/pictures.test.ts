/**
 * The pictures beside the slides, through the worker and over HTTP: every Android set has Play's
 * feature graphic (1024×500, no alpha) in the result and in the ZIP where `supply` reads it; every
 * set has its store preview. Both served like the slides, signed or with the key, to one account.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import sharp from 'sharp';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyScreenshots } from '../../src/core/listing.ts';
import { thumbnailWidth } from '../../src/rendering/store-preview.ts';
import { startFakeImageHost, type FakeImageHost } from '../support/fake-images.ts';
import { accountWithKey, insertApp, sampleListing } from '../support/fixtures.ts';
import { until } from '../support/jobs.ts';
import { createPicturesApp, type PicturesApp } from '../sets/support.ts';
import { scaled } from '../support/timing.ts';

let images: FakeImageHost;
let h: PicturesApp;

beforeAll(async () => {
  images = await startFakeImageHost();
  h = await createPicturesApp({ storeImageOrigins: [images.origin], storeImageTimeoutMs: 2_000 });
});
afterAll(async () => {
  await h?.close();
  await images?.close();
});

const artworkUrl = () => `${images.origin}/image/thumb/green/icon/512x512bb.png`;

async function setOf(device: 'android-phone' | 'iphone-69') {
  const screenshots = emptyScreenshots();
  const family = device === 'android-phone' ? 'android-phone' : 'iphone';
  (screenshots as Record<string, unknown>)[family] = [1, 2, 3].map((n) => ({ url: images.url('yellow', n), width: 392, height: 696 }));
  const listing =
    device === 'android-phone'
      ? sampleListing({ store: 'google-play', storeId: 'com.pantry', screenshots, artworkUrl: artworkUrl(), developer: 'Pantry Labs' })
      : sampleListing({ screenshots, artworkUrl: artworkUrl() });
  const appId = await insertApp(h.t.pool, h.account.id, listing);
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/v1/public/v1/screenshots',
    headers: h.auth,
    payload: { appId, device, count: 3, theme: 'bold' },
  });
  expect(res.statusCode, res.body).toBe(201);
  const jobId = res.json().jobId as string;
  const job = await until(async () => {
    const j = (
      await h.app.inject({ method: 'GET', url: `/api/v1/public/v1/jobs/${jobId}`, headers: { ...h.auth, prefer: 'wait=10' } })
    ).json();
    return j.status === 'succeeded' || j.status === 'failed' ? j : null;
  }, scaled(90_000));
  expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
  return job;
}

async function download(signedUrl: string): Promise<Buffer> {
  const u = new URL(signedUrl);
  const res = await h.app.inject({ method: 'GET', url: u.pathname + u.search });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('image/png');
  return res.rawPayload;
}

function zipEntries(zip: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, file) => {
      if (err || !file) return reject(err);
      const names: string[] = [];
      file.on('entry', (e: yauzl.Entry) => {
        names.push(e.fileName);
        file.readEntry();
      });
      file.on('end', () => resolve(names));
      file.readEntry();
    });
  });
}

/** PICTURES_OUT=dir keeps the pictures for a person to look at. */
function keep(name: string, png: Buffer) {
  if (!process.env.PICTURES_OUT) return;
  mkdirSync(process.env.PICTURES_OUT, { recursive: true });
  writeFileSync(`${process.env.PICTURES_OUT}/${name}`, png);
}

/**
 * The App Store set of the two tests that read one: each rendered set costs the test seconds of
 * CPU on a loaded runner, and the second only reads what the first already checked exists.
 */
let appStoreSet: ReturnType<typeof setOf> | undefined;
const anAppStoreSet = () => (appStoreSet ??= setOf('iphone-69'));

describe('feature graphic and store preview', () => {
  it('an Android set has the feature graphic (result and ZIP) and a Play store preview', async () => {
    const job = await setOf('android-phone');
    const fg = job.result.featureGraphic;
    expect(fg).toMatchObject({ width: 1024, height: 500, format: 'png' });
    const png = await download(fg.url);
    keep('feature-graphic.png', png);
    expect(png.length).toBe(fg.bytes);
    const meta = await sharp(png).metadata();
    expect([meta.width, meta.height, meta.channels, meta.hasAlpha, meta.depth]).toEqual([1024, 500, 3, false, 'uchar']);
    // The brand's colour covers the background: the top-left corner is the primary.
    const { data } = await sharp(png).extract({ left: 4, top: 480, width: 1, height: 1 }).raw().toBuffer({ resolveWithObject: true });
    expect(Math.max(data[0], data[2])).toBeLessThan(data[1]); // green, from the green icon

    const zipUrl = new URL(job.result.archive.url);
    const zip = (await h.app.inject({ method: 'GET', url: zipUrl.pathname + zipUrl.search })).rawPayload;
    expect(await zipEntries(zip)).toContain('android/en-US/images/featureGraphic.png');

    const preview = await download(job.result.storePreview.url);
    keep('store-preview-play.png', preview);
    const pm = await sharp(preview).metadata();
    expect([pm.width, pm.hasAlpha]).toEqual([1082, false]);
    expect(job.result.storePreview).toMatchObject({ width: pm.width, height: pm.height });
  });

  it('an App Store set has a store preview at the phone’s width, its slides at thumbnail size, and no feature graphic', async () => {
    const job = await anAppStoreSet();
    expect(job.result.featureGraphic).toBeUndefined();
    expect(job.result.theme).toBe('bold');
    const preview = await download(job.result.storePreview.url);
    keep('store-preview-app-store.png', preview);
    const meta = await sharp(preview).metadata();
    expect(meta.width).toBe(1179);
    // Three thumbnails of 1320×2868 at their search-result width, plus the head and margins.
    const thumb = thumbnailWidth('app-store', false);
    expect(thumb).toBe(337); // (393 pt − 2 × 20 − 2 × 8) / 3 at 3×
    expect(meta.height).toBe(Math.round(60 + 192 + 42 + Math.round((thumb * 2868) / 1320) + 60));
    const keyed = await h.app.inject({ method: 'GET', url: `/api/v1/public/v1/jobs/${job.id}/store-preview.png`, headers: h.auth });
    expect(keyed.statusCode).toBe(200);
    expect(
      (await h.app.inject({ method: 'GET', url: `/api/v1/public/v1/jobs/${job.id}/feature-graphic.png`, headers: h.auth })).json(),
    ).toMatchObject({ status: 404, code: 'job_not_found' });
  });

  it("another account's key cannot read them; a forged signature is refused", async () => {
    const job = await anAppStoreSet();
    const other = await accountWithKey(h.t.pool, 'free', 'Other');
    const theirs = await h.app.inject({
      method: 'GET',
      url: `/api/v1/public/v1/jobs/${job.id}/store-preview.png`,
      headers: { authorization: `Bearer ${other.key}` },
    });
    expect(theirs.json()).toMatchObject({ status: 404, code: 'job_not_found' });
    const forged = await h.app.inject({
      method: 'GET',
      url: `/api/v1/public/v1/jobs/${job.id}/store-preview.png?expires=9999999999&sig=${'A'.repeat(43)}`,
    });
    expect(forged.json()).toMatchObject({ status: 403, code: 'invalid_signature' });
  });
});
