/**
 * Always show the product (issue 30, item 1): a landscape game's listing gets landscape slides
 * (the device's size turned) instead of a refusal, an older iPhone's 9:16 shots are framed (a
 * phone with a Home button) instead of becoming text posters, and `orientation` is checked.
 */
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseAppStoreLookupBody } from '../../src/stores/app-store.ts';
import { startFakeImageHost, type FakeImageHost } from '../support/fake-images.ts';
import { insertApp } from '../support/fixtures.ts';
import { lookupBody, lookupResult } from '../support/store-fixtures.ts';
import { createPicturesApp, fetchSigned, finishedJob, zipNames, type PicturesApp } from './support.ts';

let images: FakeImageHost;
let h: PicturesApp;

beforeAll(async () => {
  images = await startFakeImageHost();
});
afterAll(async () => {
  await images.close();
});
beforeEach(async () => {
  h = await createPicturesApp({ storeImageOrigins: [images.origin], storeImageTimeoutMs: 2_000 });
});
afterEach(async () => h.close());

/** An iPhone app's lookup result as Apple sends it, its screenshots `shape` (`land-`: 2796×1290, `old-`: 1242×2208). */
function iphoneListing(shape: 'land-' | 'old-', size: string) {
  const shots = ['green', 'blue'].map((c, i) => images.url(`${shape}${c}`, i + 1).replace('392x696bb', `${size}bb`));
  const body = lookupBody([lookupResult({ screenshotUrls: shots, ipadScreenshotUrls: undefined })], { raw: true });
  const listing = parseAppStoreLookupBody(body, { id: '1234567890', country: 'us' });
  // The reader makes every URL https; the test's image host speaks plain http.
  listing.screenshots.iphone = listing.screenshots.iphone.map((s) => ({ ...s, url: s.url.replace(/^https:/, 'http:') }));
  return listing;
}

const create = (payload: Record<string, unknown>) =>
  h.app.inject({ method: 'POST', url: '/api/v1/public/v1/screenshots', headers: h.auth, payload });

/** The share of the slide's pixels in the screenshot's colour: how much of the slide is the product. */
async function screenShare(png: Buffer): Promise<number> {
  const { data, info } = await sharp(png).resize(120, 120, { fit: 'fill', kernel: 'nearest' }).raw().toBuffer({ resolveWithObject: true });
  let n = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    const [r, g, b] = [data[i], data[i + 1], data[i + 2]];
    if ((r < 20 && g > 180 && b < 20) || (r < 20 && g < 20 && b > 235)) n++;
  }
  return n / (info.width * info.height);
}

describe('a landscape-only listing', () => {
  it('gets landscape slides (2868×1320) framing its shots, filed as deliver expects; nothing refused', async () => {
    const appId = await insertApp(h.t.pool, h.account.id, iphoneListing('land-', '696x321'));
    const res = await create({ appId, device: 'iphone-69', count: 3 });
    expect(res.statusCode, res.body).toBe(201);
    const job = await finishedJob(h, res.json().jobId);
    expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
    expect(job.result).toMatchObject({ device: 'iphone-69', width: 2868, height: 1320 });
    expect(job.result.warnings.join(' ')).not.toMatch(/text-only|landscape/);
    for (const slide of job.result.slides) {
      expect(slide.layout).not.toBe('text-only');
      expect(slide.screenshotUrl).toMatch(/land-(green|blue)/);
      expect(slide.image).toMatchObject({ width: 2868, height: 1320 });
      const png = await fetchSigned(h, slide.image.url);
      const meta = await sharp(png).metadata();
      expect([meta.format, meta.width, meta.height, meta.hasAlpha]).toEqual(['png', 2868, 1320, false]);
      expect(slide.lint).toMatchObject({ marketingImage: null, screenCroppedPct: 0, problems: [] });
      // The product, large: the landscape screen covers a good part of the wide slide.
      expect(await screenShare(png)).toBeGreaterThan(0.35);
    }
    const roles = job.result.slides.map((s: { index: number; role: string }) => `en-US/0${s.index}_iphone-69_${s.role}.png`);
    expect(await zipNames(await fetchSigned(h, job.result.archive.url))).toEqual([...roles, 'plan.json'].sort());
  });

  it('gets portrait slides when `orientation: "portrait"` is asked, each shot turned in an upright device, and a warning says so', async () => {
    const appId = await insertApp(h.t.pool, h.account.id, iphoneListing('land-', '696x321'));
    const res = await create({ appId, device: 'iphone-69', count: 2, orientation: 'portrait' });
    expect(res.statusCode, res.body).toBe(201);
    const job = await finishedJob(h, res.json().jobId);
    expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
    expect(job.result).toMatchObject({ width: 1320, height: 2868 });
    expect(job.result.warnings.join(' ')).toMatch(/all landscape and the iphone-69 slides portrait/);
    for (const slide of job.result.slides) {
      expect(slide.lint.marketingImage).toBeNull();
      // Turned in an upright device, as big as any portrait one (laid flat across the width it covered ~17 %).
      expect(await screenShare(await fetchSigned(h, slide.image.url))).toBeGreaterThan(0.3);
    }
  });
});

describe('a listing of older 9:16 iPhone shots', () => {
  it('frames every one (a phone with a Home button): no slide is a text poster', async () => {
    const appId = await insertApp(h.t.pool, h.account.id, iphoneListing('old-', '392x696'));
    const res = await create({ appId, device: 'iphone-69', count: 3 });
    expect(res.statusCode, res.body).toBe(201);
    const job = await finishedJob(h, res.json().jobId);
    expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
    expect(job.result).toMatchObject({ width: 1320, height: 2868 });
    expect(job.result.warnings.join(' ')).not.toMatch(/not framed|text-only/);
    for (const slide of job.result.slides) {
      expect(slide.layout).not.toBe('text-only');
      expect(slide.lint).toMatchObject({ marketingImage: null, screenCroppedPct: 0 });
      expect(await screenShare(await fetchSigned(h, slide.image.url))).toBeGreaterThan(0.25);
    }
  });
});

describe('orientation', () => {
  it('refuses a value that is not portrait or landscape, and portrait for a Mac, charging nothing', async () => {
    const appId = await insertApp(h.t.pool, h.account.id, iphoneListing('old-', '392x696'));
    const sideways = await create({ appId, device: 'iphone-69', count: 2, orientation: 'sideways' });
    expect(sideways.statusCode, sideways.body).toBe(400);
    expect(sideways.json()).toMatchObject({ code: 'validation_failed', errors: [expect.objectContaining({ field: 'orientation' })] });
    const mac = await create({ appId, device: 'mac', count: 2, orientation: 'portrait' });
    expect(mac.statusCode, mac.body).toBe(400);
    expect(mac.json()).toMatchObject({
      code: 'validation_failed',
      errors: [{ field: 'orientation', message: expect.stringMatching(/landscape/) }],
    });
    const size = await create({ appId, device: 'iphone-69', count: 2, orientation: 'portrait', size: '2868x1320' });
    expect(size.statusCode, size.body).toBe(400);
    expect(size.json()).toMatchObject({ errors: [{ field: 'size' }] });
    expect(Number((await h.t.pool.query('SELECT count(*) FROM jobs')).rows[0].count)).toBe(0);
  });

  it('turns a portrait listing’s set when `orientation: "landscape"` is asked: 2868×1320, every slide still showing its screen', async () => {
    const appId = await insertApp(h.t.pool, h.account.id, iphoneListing('old-', '392x696'));
    const res = await create({ appId, device: 'iphone-69', count: 2, orientation: 'landscape' });
    expect(res.statusCode, res.body).toBe(201);
    const job = await finishedJob(h, res.json().jobId);
    expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
    expect(job.result).toMatchObject({ width: 2868, height: 1320 });
    for (const slide of job.result.slides) {
      expect(slide.lint.marketingImage).toBeNull();
      expect(await screenShare(await fetchSigned(h, slide.image.url))).toBeGreaterThan(0.1);
    }
  });
});
