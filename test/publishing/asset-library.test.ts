/**
 * The App Store path through the App Asset Library (App Store Connect API 4.5), chosen per
 * connection: each distinct picture uploaded once into the app's library and placed on each
 * localization, in the placement group whose reference data takes its size.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../../src/core/ids.ts';
import { insertApp, sampleListing } from '../support/fixtures.ts';
import { md5, png, sha256 } from '../fake-stores/helpers.ts';
import { ASC_APP, publishingHarness, type PublishingHarness } from './support.ts';

const GROUP = 'IPHONE_DYNAMIC_ISLAND_LARGE_PROFILE';
const W = 1290;
const H = 2796;

let p: PublishingHarness;
beforeEach(async () => {
  p = await publishingHarness();
});
afterEach(async () => p.close());

async function connect(appStoreUpload?: string) {
  const res = await p.post('/store-connections', {
    store: 'app-store',
    issuerId: p.ascKey.issuerId,
    keyId: p.ascKey.keyId,
    privateKey: p.ascKey.privateKeyPem,
    ...(appStoreUpload ? { appStoreUpload } : {}),
  });
  return res;
}

/** A succeeded iPhone 6.9" job whose slides per set locale are the pictures of these seeds: the same seed, the same bytes, in any locale. */
async function job(seeds: Record<string, number[]>, size: [number, number] = [W, H]): Promise<string> {
  const db = p.h.t.pool;
  const appId = await insertApp(db, p.h.account.id, sampleListing({ storeId: ASC_APP }));
  const jobId = newId('job');
  const locales = Object.keys(seeds);
  await db.query(
    `INSERT INTO jobs (id, account_id, app_id, status, request, result, cost, period_start)
     VALUES ($1, $2, $3, 'succeeded', $4, '{}'::jsonb, 1, date_trunc('month', now())::date)`,
    [jobId, p.h.account.id, appId, JSON.stringify({ device: 'iphone-69', locales })],
  );
  for (const [li, locale] of locales.entries())
    for (const [i, seed] of seeds[locale].entries()) {
      const bytes = await png(seed, ...size);
      const name = li === 0 ? `slides/${i + 1}.png` : `locales/${locale}/slides/${i + 1}.png`;
      const key = `jobs/${jobId}/${name}`;
      await p.h.services.objects.put(key, bytes, 'image/png');
      await db.query(
        `INSERT INTO job_files (job_id, name, object_key, content_type, bytes, sha256, width, height) VALUES ($1, $2, $3, 'image/png', $4, $5, $6, $7)`,
        [jobId, name, key, bytes.length, sha256(bytes), size[0], size[1]],
      );
    }
  return jobId;
}

async function publish(jobId: string, connectionId: string) {
  const created = await p.post('/publications', { jobId, connectionId, locales: { en: 'en-US', de: 'de-DE' } });
  expect(created.statusCode, created.body).toBe(201);
  await p.drain();
  return (await p.get(`/publications/${created.json().id}`)).json();
}

async function approveAndRun(id: string) {
  const res = await p.post(`/publications/${id}/approve`);
  expect(res.statusCode, res.body).toBe(202);
  await p.drain();
  return (await p.get(`/publications/${id}`)).json();
}

const md5s = (seeds: number[]) => Promise.all(seeds.map(async (s) => md5(await png(s, W, H))));
const placed = (locale: string) => p.asc.placements(ASC_APP, locale, GROUP).map((x) => x.md5);
const calls = (method: string, path: RegExp, from = 0) => p.asc.calls.slice(from).filter((c) => c.method === method && path.test(c.path));

describe('the App Store connection’s upload path', () => {
  it('is chosen at creation, kept with the connection and shown; the default is the screenshot sets', async () => {
    const library = await connect('asset-library');
    expect(library.statusCode, library.body).toBe(201);
    expect(library.json().appStoreUpload).toBe('asset-library');
    const sets = await connect();
    expect(sets.json().appStoreUpload).toBe('screenshot-sets');
    const listed = (await p.get('/store-connections')).json().storeConnections;
    expect(listed.map((c: { id: string; appStoreUpload: string }) => [c.id, c.appStoreUpload])).toEqual([
      [library.json().id, 'asset-library'],
      [sets.json().id, 'screenshot-sets'],
    ]);
    expect((await connect('app-previews')).statusCode).toBe(400);
  });
});

describe('publishing through the App Asset Library (fake App Store Connect)', () => {
  it('uploads each picture once, places it per locale in order; the same set again plans zero uploads; an edit uploads only the change', async () => {
    const sc = (await connect('asset-library')).json().id;
    // Slide 2 is localized; the other four are the same picture in both locales.
    const first = await job({ en: [1, 2, 3, 4, 5], de: [1, 12, 3, 4, 5] });
    const planned = await publish(first, sc);
    expect(planned.status, JSON.stringify(planned.error)).toBe('awaiting_approval');
    expect(planned.plan).toMatchObject({ upload: 10, keep: 0, delete: 0 });
    expect(new Set(planned.plan.items.map((i: { slot: string }) => i.slot))).toEqual(new Set([GROUP]));
    const done = await approveAndRun(planned.id);
    expect(done.status, JSON.stringify(done.error)).toBe('published');

    // Six distinct pictures: six reservations, six library images, ten placements.
    expect(p.asc.libraryReservations()).toBe(6);
    expect(calls('POST', /^\/v1\/appAssetLibraryImages$/)).toHaveLength(6);
    expect(calls('POST', /^\/v1\/appAssetLibraryPlacements$/)).toHaveLength(10);
    const library = p.asc.libraryImages(ASC_APP);
    expect(new Set(library.map((i) => i.md5))).toEqual(new Set(await md5s([1, 2, 3, 4, 5, 12])));
    expect(library.every((i) => i.state === 'PREPARE_FOR_SUBMISSION')).toBe(true);
    expect(placed('en-US')).toEqual(await md5s([1, 2, 3, 4, 5]));
    expect(placed('de-DE')).toEqual(await md5s([1, 12, 3, 4, 5]));
    // The set-based resources are not touched on this path.
    expect(p.asc.calls.some((c) => /appScreenshot/.test(c.path))).toBe(false);

    const again = await publish(first, sc);
    expect(again.plan).toMatchObject({ upload: 0, keep: 10, delete: 0, reorder: 0 });
    const before = p.asc.calls.length;
    expect((await approveAndRun(again.id)).status).toBe('published');
    expect(p.asc.calls.slice(before).filter((c) => c.method !== 'GET')).toEqual([]);

    // en: slide 2 changed, 4 and 5 swapped; de unchanged.
    const edited = await job({ en: [1, 9, 3, 5, 4], de: [1, 12, 3, 4, 5] });
    const third = await publish(edited, sc);
    expect(third.plan).toMatchObject({ upload: 1, delete: 1, keep: 7, reorder: 2 });
    const at = p.asc.calls.length;
    expect((await approveAndRun(third.id)).status).toBe('published');
    expect(calls('POST', /^\/v1\/appAssetLibraryImages$/, at)).toHaveLength(1);
    expect(calls('DELETE', /^\/v1\/appAssetLibraryPlacements\//, at)).toHaveLength(1);
    expect(calls('POST', /^\/v1\/appAssetLibraryPlacementOrderingRequests$/, at)).toHaveLength(1);
    expect(placed('en-US')).toEqual(await md5s([1, 9, 3, 5, 4]));
    expect(placed('de-DE')).toEqual(await md5s([1, 12, 3, 4, 5]));
    // The replaced picture stays in the library (other placements may use it); only its placement went.
    expect(p.asc.libraryImages(ASC_APP)).toHaveLength(7);
  });

  it('checks sizes against the reference data: the placement group is the one whose specs take them, and a size none takes is refused before anything is written', async () => {
    const sc = (await connect('asset-library')).json().id;
    const small = await job({ en: [1, 2], de: [1, 2] }, [64, 128]);
    const refused = await publish(small, sc);
    expect(refused.status).toBe('failed');
    expect(refused.error.code).toBe('store_refused');
    expect(refused.error.message).toMatch(/no screenshot placement group for 64×128/);
    expect(refused.error.message).toMatch(/1290×2796/);
    expect(p.asc.calls.filter((c) => c.method !== 'GET')).toEqual([]);

    // Nothing is hard-coded: a group Apple adds (or renames) for these sizes is the one used.
    const ref = p.asc.refData();
    ref.placementProfileGroups = ref.placementProfileGroups.map((g) =>
      g.placementProfileGroupId === GROUP ? { ...g, placementProfileGroupId: 'IPHONE_NEXT_PROFILE' } : g,
    );
    ref.features[0].placementPolicies[0].groupLimits[0].groupIds.push('IPHONE_NEXT_PROFILE');
    p.asc.setRefData(ref);
    const planned = await publish(await job({ en: [1, 2], de: [1, 2] }), sc);
    expect(planned.status, JSON.stringify(planned.error)).toBe('awaiting_approval');
    expect(new Set(planned.plan.items.map((i: { slot: string }) => i.slot))).toEqual(new Set(['IPHONE_NEXT_PROFILE']));

    // The group's limit comes from the reference data too.
    ref.features[0].placementPolicies[0].groupLimits[0].maxCount = 1;
    p.asc.setRefData(ref);
    const tooMany = await publish(await job({ en: [1, 2], de: [1, 2] }), sc);
    expect(tooMany.status).toBe('failed');
    expect(tooMany.error.message).toMatch(
      /takes at most 1 screenshots; the en-US set has 2|takes at most 1 screenshots; the (en|de) set has 2/,
    );
  });

  it('answers lost after the store did the work (reservation, commit, placement) leave no duplicate', async () => {
    const sc = (await connect('asset-library')).json().id;
    p.asc.fail({ method: 'POST', path: /^\/v1\/appAssetLibraryImages$/, status: 503, after: true });
    p.asc.fail({ method: 'PATCH', path: /^\/v1\/appAssetLibraryImages\//, status: 504, after: true });
    p.asc.fail({ method: 'POST', path: /^\/v1\/appAssetLibraryPlacements$/, status: 503, after: true, times: 2 });
    const planned = await publish(await job({ en: [1, 2, 3], de: [1, 2, 3] }), sc);
    const done = await approveAndRun(planned.id);
    expect(done.status, JSON.stringify(done.error)).toBe('published');
    expect(placed('en-US')).toEqual(await md5s([1, 2, 3]));
    expect(placed('de-DE')).toEqual(await md5s([1, 2, 3]));
    expect(
      p.asc
        .libraryImages(ASC_APP)
        .map((i) => i.md5)
        .sort(),
    ).toEqual((await md5s([1, 2, 3])).sort());
  });
});
