/**
 * Mac sets (issue 30, item 6): a Mac App Store listing's own screenshots, or uploaded 16:10
 * screens, framed as windows on 2880×1800 slides (or a smaller 16:10 `size`), filed in the ZIP as
 * fastlane's deliver expects (`{locale}/{index}_mac_{role}.png`).
 */
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseAppStoreLookupBody } from '../../src/stores/app-store.ts';
import { startFakeImageHost, solidPng, type FakeImageHost } from '../support/fake-images.ts';
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

/** A Mac app's lookup result as Apple sends it: kind mac-software, 800×500 desktop shots, no iPad ones. */
function macListing() {
  const shots = ['wide-green', 'wide-blue'].map((c, i) => images.url(c, i + 1).replace('392x696bb', '800x500bb'));
  const body = lookupBody([lookupResult({ kind: 'mac-software', screenshotUrls: shots, ipadScreenshotUrls: undefined })], { raw: true });
  const listing = parseAppStoreLookupBody(body, { id: '1234567890', country: 'us' });
  // The reader makes every URL https; the test's image host speaks plain http.
  listing.screenshots.mac = listing.screenshots.mac.map((s) => ({ ...s, url: s.url.replace(/^https:/, 'http:') }));
  return listing;
}

const create = (payload: Record<string, unknown>) =>
  h.app.inject({ method: 'POST', url: '/api/v1/public/v1/screenshots', headers: h.auth, payload });

describe('a Mac set', () => {
  it("frames the Mac listing's own screenshots on 2880×1800 slides without alpha, filed as deliver's {locale}/{index}_mac_{role}.png", async () => {
    const appId = await insertApp(h.t.pool, h.account.id, macListing());
    const res = await create({ appId, device: 'mac', count: 3 });
    expect(res.statusCode, res.body).toBe(201);
    const job = await finishedJob(h, res.json().jobId);
    expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
    expect(job.result).toMatchObject({ device: 'mac', width: 2880, height: 1800 });
    expect(job.result.warnings.join(' ')).not.toMatch(/Mac app's listing/);
    for (const slide of job.result.slides) {
      expect(slide.layout).not.toBe('text-only');
      expect(slide.screenshotUrl).toMatch(/wide-(green|blue)/);
      const png = await fetchSigned(h, slide.image.url);
      const meta = await sharp(png).metadata();
      expect([meta.format, meta.width, meta.height, meta.channels, meta.hasAlpha]).toEqual(['png', 2880, 1800, 3, false]);
      // The window shows the screenshot at the slide's middle: the product, not a poster.
      const { data } = await sharp(png).extract({ left: 1440, top: 900, width: 1, height: 1 }).raw().toBuffer({ resolveWithObject: true });
      expect([
        [0, 200, 0],
        [0, 0, 255],
      ]).toContainEqual([...data]);
      expect(slide.lint.marketingImage).toBeNull();
    }
    const roles = job.result.slides.map((s: { index: number; role: string }) => `en-US/0${s.index}_mac_${s.role}.png`);
    expect(await zipNames(await fetchSigned(h, job.result.archive.url))).toEqual([...roles, 'plan.json'].sort());
  });

  it('frames an uploaded 16:10 screen (inferred as a Mac screen) and renders at a `size` the slot takes', async () => {
    const appId = await insertApp(h.t.pool, h.account.id, macListing());
    const up = await h.app.inject({
      method: 'POST',
      url: `/api/v1/public/v1/apps/${appId}/screens`,
      headers: { ...h.auth, 'content-type': 'image/png' },
      payload: await solidPng(2880, 1800, 'yellow'),
    });
    expect(up.statusCode, up.body).toBe(201);
    expect(up.json().family).toBe('mac');
    const res = await create({ appId, device: 'mac', count: 2, size: '1440x900' });
    expect(res.statusCode, res.body).toBe(201);
    const job = await finishedJob(h, res.json().jobId);
    expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
    expect(job.result).toMatchObject({ width: 1440, height: 900 });
    for (const slide of job.result.slides) {
      expect(slide.image).toMatchObject({ width: 1440, height: 900 });
      const png = await fetchSigned(h, slide.image.url);
      const meta = await sharp(png).metadata();
      expect([meta.width, meta.height, meta.hasAlpha]).toEqual([1440, 900, false]);
      const { data } = await sharp(png).extract({ left: 720, top: 450, width: 1, height: 1 }).raw().toBuffer({ resolveWithObject: true });
      expect([...data]).toEqual([255, 220, 0]);
    }
  });

  it('refuses a size the device does not offer, naming the ones it does, and charges nothing', async () => {
    const appId = await insertApp(h.t.pool, h.account.id, macListing());
    for (const [device, size] of [
      ['mac', '1920x1200'],
      ['iphone-69', '2560x1600'],
    ]) {
      const res = await create({ appId, device, count: 2, size });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed', errors: [{ field: 'size' }] });
    }
    expect((await create({ appId, device: 'mac', count: 2, size: '1920x1200' })).json().detail).toMatch(
      /2880x1800, 2560x1600, 1440x900, 1280x800/,
    );
    expect(Number((await h.t.pool.query('SELECT count(*) FROM jobs')).rows[0].count)).toBe(0);
  });
});
