/**
 * The whole pictures flow over HTTP: an app from a store listing, two uploaded screens, a set
 * framing them, a long poll until it ends, every slide and the ZIP downloaded and checked.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import sharp from 'sharp';
import yauzl from 'yauzl';
import { buffer } from 'node:stream/consumers';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkStoreRules } from '../../src/rendering/index.ts';
import { solidPng } from '../support/fake-images.ts';
import { startFakeStore, type FakeStore } from '../support/fake-store.ts';
import { lookupBody, lookupResult } from '../support/store-fixtures.ts';
import { createPicturesApp, type PicturesApp } from './support.ts';

let store: FakeStore;
let h: PicturesApp;

beforeAll(async () => {
  store = await startFakeStore();
  store.set('app-store', '1234567890', { body: lookupBody([lookupResult()]) });
  h = await createPicturesApp({ stores: { appStoreLookupUrl: store.appStoreLookupUrl, googlePlayUrl: store.googlePlayUrl } });
});
afterAll(async () => {
  await h?.close();
  await store?.close();
});

const json = (res: { body: string }) => JSON.parse(res.body);

async function upload(appId: string, png: Buffer, type = 'image/png', query = '') {
  return h.app.inject({
    method: 'POST',
    url: `/api/v1/public/v1/apps/${appId}/screens${query}`,
    headers: { ...h.auth, 'content-type': type },
    payload: png,
  });
}

/** Share of the picture's pixels within a few levels of the colour. */
async function shareOf(png: Buffer, rgb: [number, number, number]): Promise<number> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  let n = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    if (Math.abs(data[i] - rgb[0]) < 6 && Math.abs(data[i + 1] - rgb[1]) < 6 && Math.abs(data[i + 2] - rgb[2]) < 6) n++;
  }
  return n / (info.width * info.height);
}

/** Each entry's size, once its bytes are read and match the CRC-32 the archive gives them. */
function zipEntries(zip: Buffer): Promise<Map<string, number>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, file) => {
      if (err || !file) return reject(err);
      const names = new Map<string, number>();
      file.on('entry', (e: yauzl.Entry) => {
        file.openReadStream(e, (error, stream) => {
          if (error || !stream) return reject(error);
          buffer(stream).then((data) => {
            if (crc32(data) !== e.crc32) return reject(new Error(`${e.fileName}: CRC-32 ${e.crc32} does not match its bytes`));
            names.set(e.fileName, e.uncompressedSize);
            file.readEntry();
          }, reject);
        });
      });
      file.on('end', () => resolve(names));
      file.readEntry();
    });
  });
}

describe('pictures, end to end over HTTP', () => {
  it('frames the uploaded screens, waits with Prefer: wait, serves every slide and the fastlane ZIP', async () => {
    const app = json(
      await h.app.inject({
        method: 'POST',
        url: '/api/v1/public/v1/apps',
        headers: h.auth,
        payload: { iosUrl: 'https://apps.apple.com/us/app/pocket-planner/id1234567890' },
      }),
    );
    const red = await upload(app.appId, await solidPng(1290, 2796, 'red'));
    expect(red.statusCode).toBe(201);
    const redScreen = json(red);
    expect(redScreen).toMatchObject({ family: 'iphone', width: 1290, height: 2796 });
    expect(redScreen.screenId).toMatch(/^scr_[0-9A-Z]{26}$/);
    const jpeg = await sharp({ create: { width: 1290, height: 2796, channels: 3, background: { r: 0, g: 0, b: 255 } } })
      .jpeg()
      .toBuffer();
    const blueScreen = json(await upload(app.appId, jpeg, 'image/jpeg'));
    expect(blueScreen.sha256).toBe(createHash('sha256').update(jpeg).digest('hex'));
    const listed = json(await h.app.inject({ method: 'GET', url: `/api/v1/public/v1/apps/${app.appId}/screens`, headers: h.auth }));
    expect(listed.screens.map((s: { screenId: string }) => s.screenId)).toEqual([redScreen.screenId, blueScreen.screenId]);

    const created = await h.app.inject({
      method: 'POST',
      url: '/api/v1/public/v1/screenshots',
      headers: h.auth,
      payload: { appId: app.appId, device: 'iphone-69', count: 3, screenIds: [redScreen.screenId, blueScreen.screenId] },
    });
    expect(created.statusCode).toBe(201);
    const { jobId } = json(created);

    let job = json(
      await h.app.inject({ method: 'GET', url: `/api/v1/public/v1/jobs/${jobId}`, headers: { ...h.auth, prefer: 'wait=30' } }),
    );
    for (let i = 0; i < 5 && job.status !== 'succeeded' && job.status !== 'failed'; i++) {
      job = json(await h.app.inject({ method: 'GET', url: `/api/v1/public/v1/jobs/${jobId}`, headers: { ...h.auth, prefer: 'wait=30' } }));
    }
    expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
    expect(job.progress).toBeNull();
    const slides = job.result.slides;
    expect(slides.map((s: { screenId: string }) => s.screenId)).toEqual([redScreen.screenId, blueScreen.screenId, redScreen.screenId]);

    const colours: [number, number, number][] = [
      [255, 0, 0],
      [0, 0, 255],
      [255, 0, 0],
    ];
    for (const [i, slide] of slides.entries()) {
      expect(slide.image).toMatchObject({ width: 1320, height: 2868, format: 'png' });
      // The lint the job ran on this very file, in the result.
      expect(slide.lint).toMatchObject({ width: 1320, height: 2868, alpha: false, format: 'png', bytes: slide.image.bytes, problems: [] });
      expect(slide.lint.lines.headline.join(' ')).toBe(slide.headline.replace(/\s+/g, ' ').trim());
      expect(slide.lint.missingGlyphs).toEqual([]);
      expect(slide.lint.screenCroppedPct).toBeLessThanOrEqual(5);
      expect(slide.lint.minFontThumbnailPt).toBeGreaterThanOrEqual(5);
      const url = new URL(slide.image.url);
      // Signed: no key needed.
      const res = await h.app.inject({ method: 'GET', url: url.pathname + url.search });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.headers.etag).toBe(`"${slide.image.sha256}"`);
      expect(res.headers['cache-control']).toMatch(/^private, max-age=\d+/);
      const png = res.rawPayload;
      // PICTURES_OUT=dir keeps the slides for a person to look at.
      if (process.env.PICTURES_OUT) writeFileSync(`${process.env.PICTURES_OUT}/slide-${i + 1}.png`, png);
      expect(png.length).toBe(slide.image.bytes);
      expect(createHash('sha256').update(png).digest('hex')).toBe(slide.image.sha256);
      expect(checkStoreRules(png, 'iphone-69')).toEqual([]);
      const meta = await sharp(png).metadata();
      expect([meta.width, meta.height, meta.channels, meta.hasAlpha]).toEqual([1320, 2868, 3, false]);
      // The uploaded screen fills the device's screen: a large share of the slide is its colour.
      expect(await shareOf(png, colours[i])).toBeGreaterThan(0.2);
    }

    // With the key and no signature; If-None-Match answers 304.
    const keyed = await h.app.inject({ method: 'GET', url: `/api/v1/public/v1/jobs/${jobId}/slides/1.png`, headers: h.auth });
    expect(keyed.statusCode).toBe(200);
    const again = await h.app.inject({
      method: 'GET',
      url: `/api/v1/public/v1/jobs/${jobId}/slides/1.png`,
      headers: { ...h.auth, 'if-none-match': keyed.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);

    // /metrics saw the render and the plan of this very job (the registry is per process).
    const metrics = (await h.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(Number(/shotgen_render_duration_seconds_count\{device="iphone-69"\} (\d+)/.exec(metrics)?.[1])).toBeGreaterThanOrEqual(1);
    expect(Number(/shotgen_plan_duration_seconds_count\{outcome="ok"\} (\d+)/.exec(metrics)?.[1])).toBeGreaterThanOrEqual(1);

    const archiveUrl = new URL(job.result.archive.url);
    const zip = await h.app.inject({ method: 'GET', url: archiveUrl.pathname + archiveUrl.search });
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    expect(createHash('sha256').update(zip.rawPayload).digest('hex')).toBe(job.result.archive.sha256);
    const entries = await zipEntries(zip.rawPayload);
    const roles = slides.map((s: { role: string }) => s.role);
    expect([...entries.keys()].sort()).toEqual(
      [...roles.map((r: string, i: number) => `en-US/0${i + 1}_iphone-69_${r}.png`), 'plan.json'].sort(),
    );
    for (const [i, slide] of slides.entries()) expect(entries.get(`en-US/0${i + 1}_iphone-69_${roles[i]}.png`)).toBe(slide.image.bytes);
  });
});
