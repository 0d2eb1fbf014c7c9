/**
 * Publishing a Mac set (issue 30, item 6): App Store Connect holds a Mac app's screenshots in its
 * MAC_OS version, apart from the IOS one, and takes APP_DESKTOP sets there only (the fake refuses
 * a Mac set in an IOS version, as the store does). An iPhone set of the same app still goes to IOS.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { md5, png } from '../fake-stores/helpers.ts';
import { approveAndRun, ASC_APP, connectAppStore, publishingHarness, succeededJob, type PublishingHarness } from './support.ts';

let p: PublishingHarness;
afterEach(async () => p?.close());

/** Apple's smallest Mac size: what a `size: [1280, 800]` Mac set is made at. */
const MAC: [number, number] = [1280, 800];

async function plan(jobId: string, connectionId: string, target?: unknown) {
  const created = await p.post('/publications', { jobId, connectionId, ...(target ? { target } : {}) });
  expect(created.statusCode, created.body).toBe(201);
  await p.drain();
  return (await p.get(`/publications/${created.json().id}`)).json();
}

const versionLookups = () => p.asc.calls.filter((c) => /\/appStoreVersions\?/.test(c.path)).map((c) => c.path);

describe('publishing a Mac set to App Store Connect (fake)', () => {
  it("lands in the MAC_OS version's APP_DESKTOP set; the same set again uploads nothing; an iPhone set still goes to IOS", async () => {
    p = await publishingHarness({ ascPlatforms: ['IOS', 'MAC_OS'] });
    p.asc.setDimensionCheck(true);
    const sc = await connectAppStore(p);
    const job = await succeededJob(p, { device: 'mac', seeds: [1, 2, 3], size: MAC });

    const first = await plan(job, sc);
    expect(first.status, JSON.stringify(first.error)).toBe('awaiting_approval');
    expect(first.plan).toMatchObject({ upload: 3, keep: 0, delete: 0 });
    expect(versionLookups().every((path) => path.includes('filter[platform]=MAC_OS'))).toBe(true);
    const done = await approveAndRun(p, first.id);
    expect(done.status, JSON.stringify(done.error)).toBe('published');
    // The fake's screenshots(…, 'APP_DESKTOP') reads the MAC_OS version: the only one that can hold them.
    const desktop = p.asc.screenshots(ASC_APP, 'en-US', 'APP_DESKTOP');
    expect(desktop.map((s) => s.sourceFileChecksum)).toEqual(await Promise.all([1, 2, 3].map(async (s) => md5(await png(s, ...MAC)))));
    expect(desktop.every((s) => s.assetDeliveryState === 'COMPLETE')).toBe(true);

    const again = await plan(job, sc);
    expect(again.plan).toMatchObject({ upload: 0, keep: 3, delete: 0, reorder: 0 });
    const before = p.asc.calls.length;
    expect((await approveAndRun(p, again.id)).status).toBe('published');
    expect(p.asc.calls.slice(before).filter((c) => c.method !== 'GET')).toEqual([]);

    const lookupsBefore = versionLookups().length;
    const IPHONE: [number, number] = [1320, 2868];
    const iphone = await succeededJob(p, { device: 'iphone-69', seeds: [7, 8], size: IPHONE });
    const ios = await plan(iphone, sc);
    expect((await approveAndRun(p, ios.id)).status).toBe('published');
    expect(
      versionLookups()
        .slice(lookupsBefore)
        .every((path) => path.includes('filter[platform]=IOS')),
    ).toBe(true);
    expect(p.asc.screenshots(ASC_APP, 'en-US', 'APP_IPHONE_67').map((s) => s.sourceFileChecksum)).toEqual(
      await Promise.all([7, 8].map(async (s) => md5(await png(s, ...IPHONE)))),
    );
    expect(p.asc.screenshots(ASC_APP, 'en-US', 'APP_DESKTOP')).toHaveLength(3);
  });

  it('refuses a Mac set for an app without a macOS version, saying so, and writes nothing', async () => {
    p = await publishingHarness();
    const sc = await connectAppStore(p);
    const job = await succeededJob(p, { device: 'mac', seeds: [1], size: MAC });
    const pub = await plan(job, sc);
    expect(pub.status).toBe('failed');
    expect(pub.error).toMatchObject({ code: 'store_refused' });
    expect(pub.error.message).toMatch(/no macOS version/);
    expect(p.asc.calls.filter((c) => c.method !== 'GET')).toEqual([]);
  });

  it('publishes a Mac set to the product page only: a variant target is refused up front', async () => {
    p = await publishingHarness({ ascPlatforms: ['IOS', 'MAC_OS'] });
    const sc = await connectAppStore(p);
    const job = await succeededJob(p, { device: 'mac', seeds: [1], size: MAC });
    const res = await p.post('/publications', { jobId: job, connectionId: sc, target: { kind: 'custom-product-page', name: 'Mac' } });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors).toEqual([expect.objectContaining({ field: 'target/kind' })]);
  });
});
