/**
 * `theme` on POST /public/v1/screenshots, through the worker: the result says which theme and
 * colours were drawn, the colours come from the app's icon (fetched from the store's artwork URL,
 * computed once and kept), and a bad theme or another account's app changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromHex, rgbToHsl } from '../../src/core/colour.ts';
import { THEME_IDS } from '../../src/core/themes.ts';
import { emptyScreenshots } from '../../src/core/listing.ts';
import { startFakeImageHost, type FakeImageHost } from '../support/fake-images.ts';
import { accountWithKey, insertApp, sampleListing } from '../support/fixtures.ts';
import { ledger } from '../support/jobs.ts';
import { createPicturesApp, finishedJob, type PicturesApp } from '../sets/support.ts';

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

/** An app whose icon and screenshots are on the fake store image host; the icon is of `iconColor`. */
async function app(
  iconColor: string,
  artworkUrl = `${images.origin}/image/thumb/${iconColor}/icon/512x512bb.png`,
  accountId = h.account.id,
) {
  const screenshots = emptyScreenshots();
  screenshots.iphone = [images.url('yellow', 1)].map((url) => ({ url, width: 392, height: 696 }));
  return insertApp(h.t.pool, accountId, sampleListing({ screenshots, artworkUrl }));
}

const post = (payload: object, auth = h.auth) =>
  h.app.inject({ method: 'POST', url: '/api/v1/public/v1/screenshots', headers: auth, payload });

const finished = (jobId: string) => finishedJob(h, jobId);

const hue = (hex: string) => rgbToHsl(fromHex(hex))[0];

describe('theme on POST /public/v1/screenshots', () => {
  it('draws the asked theme in the colours of the icon, and says so in the result', async () => {
    const appId = await app('green');
    const res = await post({ appId, device: 'iphone-69', count: 1, theme: 'dark' });
    expect(res.statusCode).toBe(201);
    const job = await finished(res.json().jobId);
    expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
    expect(job.result.theme).toBe('dark');
    expect(job.result.brand).toMatchObject({ source: 'icon', font: 'noto-sans', iconBadge: false });
    // The fake host's green is rgb(0, 200, 0): hue 120.
    expect(Math.abs(hue(job.result.brand.primary) - 120)).toBeLessThan(8);
    expect(job.result.slides[0].background.colors[0]).toBe(job.result.brand.primary);
    // The brand reports what is drawn: the dark theme's own text colour and background.
    expect(job.result.brand).toMatchObject({ textColor: '#F5F7FA', background: ['#0B0D12', '#171B24'] });
    expect(job.result.warnings.join(' ')).not.toMatch(/icon could not be read/);
    // Computed once and kept with the app.
    const { rows } = await h.t.pool.query('SELECT icon_colors FROM apps WHERE id = $1', [appId]);
    expect(rows[0].icon_colors).toMatchObject({ primary: job.result.brand.primary });
  });

  it('defaults to the brand kit theme, else the default theme; takes every theme id', async () => {
    const appId = await app('blue');
    const plain = await finished((await post({ appId, device: 'iphone-69', count: 1 })).json().jobId);
    expect(plain.result.theme).toBe('soft');
    await h.t.pool.query(`UPDATE apps SET brand_kit = '{"defaultTheme": "bold"}' WHERE id = $1`, [appId]);
    const kit = await finished((await post({ appId, device: 'iphone-69', count: 1 })).json().jobId);
    expect(kit.result.theme).toBe('bold');
    for (const theme of THEME_IDS) expect((await post({ appId, device: 'iphone-69', count: 1, theme })).statusCode).toBe(201);
  });

  it('falls back to colours from the name, and warns, when the icon cannot be fetched', async () => {
    const appId = await app('red', 'https://is1-ssl.mzstatic.com/image/thumb/icon/512x512bb.jpg');
    const job = await finished((await post({ appId, device: 'iphone-69', count: 1 })).json().jobId);
    expect(job.status).toBe('succeeded');
    expect(job.result.brand.source).toBe('app-name');
    expect(job.result.warnings.join(' ')).toMatch(/icon could not be read .*not a store image host.*colours come from the app's name/);
    const { rows } = await h.t.pool.query('SELECT icon_colors FROM apps WHERE id = $1', [appId]);
    expect(rows[0].icon_colors).toBeNull();
  });

  it('refuses an unknown theme with validation_failed and charges nothing', async () => {
    const appId = await app('green');
    const before = (await ledger(h.t.pool, h.account.id)).length;
    const res = await post({ appId, device: 'iphone-69', theme: 'neon' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed' });
    expect((await ledger(h.t.pool, h.account.id)).length).toBe(before);
  });

  it("another account's app is not found, whatever the theme", async () => {
    const other = await accountWithKey(h.t.pool, 'free', 'Other');
    const appId = await app('green', undefined, other.account.id);
    const res = await post({ appId, device: 'iphone-69', theme: 'bold' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'app_not_found' });
  });
});
