/**
 * From the request to the renderer: the theme, the brand colours, the kit's font and badge reach
 * RenderInput; `panoramic` is the panoramic theme. And the icon's colours are computed once per
 * app, also when two sets of a new app start at the same moment.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveSetBrand } from '../../src/brand/resolve.ts';
import { screenshotSetRunner } from '../../src/sets/run.ts';
import { Worker } from '../../src/queue/worker.ts';
import { setJobs, type SetWorker } from '../../src/sets/job-queue.ts';
import { planSet } from '../../src/planning/pipeline.ts';
import { fakeRenderer } from '../support/fake-renderer.ts';
import type { RenderInput } from '../../src/rendering/types.ts';
import { emptyScreenshots } from '../../src/core/listing.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { solidPng, startFakeImageHost, type FakeImageHost } from '../support/fake-images.ts';
import { accountWithKey, insertApp, sampleListing } from '../support/fixtures.ts';
import { until } from '../support/jobs.ts';

let images: FakeImageHost;
let h: TestApp;
let worker: SetWorker;
const seen: RenderInput[] = [];

beforeAll(async () => {
  images = await startFakeImageHost();
  h = await createTestApp();
  const png = await solidPng(1320, 2868, 'blue');
  const runner = screenshotSetRunner({
    db: h.t.pool,
    planner: { plan: (input) => planSet(input, null) },
    pictures: {
      objects: h.services.objects,
      // Records what it is asked to draw; answers with store-valid pictures.
      renderer: fakeRenderer((input: RenderInput) => {
        seen.push(input);
        return input.slides.map(() => png);
      }),
      storeImageOrigins: [images.origin],
      storeImageTimeoutMs: 2_000,
      now: () => new Date(),
    },
  });
  worker = new Worker(h.t.pool, h.notifications, runner, { queue: setJobs, concurrency: 1, leaseMs: 60_000, retryDelayMs: () => 10 });
  worker.start();
});
afterAll(async () => {
  await worker?.stop(5_000);
  await h?.close();
  await images?.close();
});

async function app(color = 'green') {
  // A set needs something to frame (else cannot_fill_set): the listing's own iPhone screenshots.
  const screenshots = emptyScreenshots();
  screenshots.iphone = [1, 2].map((n) => ({ url: images.url('yellow', n), width: 392, height: 696 }));
  return insertApp(
    h.t.pool,
    h.account.id,
    sampleListing({ screenshots, artworkUrl: `${images.origin}/image/thumb/${color}/icon/512x512bb.png` }),
  );
}

async function run(payload: object): Promise<RenderInput> {
  const before = seen.length;
  const res = await h.app.inject({ method: 'POST', url: '/api/v1/public/v1/screenshots', headers: h.auth, payload });
  expect(res.statusCode).toBe(201);
  const jobId = res.json().jobId;
  await until(async () => (await h.t.pool.query(`SELECT status FROM jobs WHERE id = $1`, [jobId])).rows[0].status === 'succeeded', 30_000);
  return seen[before];
}

describe('the brand reaches the renderer', () => {
  it('theme, colours, font; no badge unless the kit asks; panoramic is the panoramic theme', async () => {
    const appId = await app();
    const dark = await run({ appId, device: 'iphone-69', count: 2, theme: 'dark' });
    expect(dark).toMatchObject({ theme: 'dark', panoramic: false, font: 'noto-sans', badge: null });
    const { rows } = await h.t.pool.query('SELECT icon_colors FROM apps WHERE id = $1', [appId]);
    expect(dark.brand).toEqual({ primary: rows[0].icon_colors.primary, secondary: rows[0].icon_colors.secondary });
    expect(dark.slides[0].background.colors).toEqual([dark.brand!.primary, dark.brand!.secondary]);

    await h.t.pool.query(
      `UPDATE apps SET brand_kit = '{"colors": {"primary": "#0B3D91", "secondary": "#1F6FEB"}, "iconBadge": true, "defaultTheme": "panoramic"}' WHERE id = $1`,
      [appId],
    );
    const kit = await run({ appId, device: 'iphone-69', count: 2 });
    // The icon was fetched from the store once and then read from the object store.
    expect(images.requests.filter((r) => r.includes('/green/icon/'))).toHaveLength(1);
    expect(kit).toMatchObject({ theme: 'panoramic', panoramic: true, brand: { primary: '#0B3D91', secondary: '#1F6FEB' } });
    // The badge is the icon's own bytes: the fake host's green picture.
    expect(kit.badge?.length).toBe((await solidPng(1290, 2796, 'green')).length);
  });

  it('three sets of a new app starting at once store the icon colours once (the first write wins) and all use the stored ones', async () => {
    const appId = await app('yellow');
    const fetchIcon = async ({ artworkUrl }: { artworkUrl: string | null }) =>
      Buffer.from(await (await fetch(artworkUrl!.replace('512x512bb', '4000x4000bb'))).arrayBuffer());
    const both = await Promise.all([1, 2, 3].map(() => resolveSetBrand(h.t.pool, h.account.id, appId, undefined, fetchIcon)));
    const { rows } = await h.t.pool.query('SELECT icon_colors FROM apps WHERE id = $1', [appId]);
    for (const b of both) expect(b!.palette).toEqual(rows[0].icon_colors);
    expect(both.every((b) => b!.source === 'icon')).toBe(true);
  });

  it("another account's app has no brand to resolve", async () => {
    const appId = await app();
    const other = await accountWithKey(h.t.pool, 'free', 'Other');
    expect(await resolveSetBrand(h.t.pool, other.account.id, appId, 'bold', null)).toBeNull();
  });
});
