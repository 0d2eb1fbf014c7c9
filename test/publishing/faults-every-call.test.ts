/**
 * 503, 504 and 429 on every kind of call a publication makes, on both stores, one after the other
 * on the same call (three tries fail, the fourth passes: FAST_RETRY allows four); and answers lost
 * after the store did the work on every call that changes something. Each publication must end
 * `published` with exactly the set, in order, and nothing uploaded twice.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FakeCall } from '../../src/fake-stores/types.ts';
import { md5, png, sha256 } from '../fake-stores/helpers.ts';
import { ASC_APP, PLAY_PACKAGE, publishingHarness, succeededJob, type PublishingHarness } from './support.ts';

interface Kind {
  name: string;
  method: string;
  path: RegExp;
}

const ASC_KINDS: Kind[] = [
  { name: 'versions', method: 'GET', path: /^\/v1\/apps\/[^/]+\/appStoreVersions/ },
  { name: 'localizations', method: 'GET', path: /^\/v1\/appStoreVersions\/[^/]+\/appStoreVersionLocalizations/ },
  { name: 'screenshot sets', method: 'GET', path: /^\/v1\/appStoreVersionLocalizations\/[^/]+\/appScreenshotSets/ },
  { name: 'create a set', method: 'POST', path: /^\/v1\/appScreenshotSets$/ },
  { name: "a set's screenshots", method: 'GET', path: /^\/v1\/appScreenshotSets\/[^/]+\/appScreenshots/ },
  { name: 'reserve', method: 'POST', path: /^\/v1\/appScreenshots$/ },
  { name: 'upload part', method: 'PUT', path: /^\/upload\// },
  { name: 'commit', method: 'PATCH', path: /^\/v1\/appScreenshots\/[^/?]+$/ },
  { name: 'poll', method: 'GET', path: /^\/v1\/appScreenshots\/[^/?]+(\?|$)/ },
  { name: 'delete', method: 'DELETE', path: /^\/v1\/appScreenshots\/[^/?]+$/ },
  { name: 'order', method: 'PATCH', path: /^\/v1\/appScreenshotSets\/[^/]+\/relationships\/appScreenshots$/ },
];

const EDITS = '^/androidpublisher/v3/applications/[^/]+/edits';
const PLAY_KINDS: Kind[] = [
  { name: 'token', method: 'POST', path: /^\/token$/ },
  { name: 'edits.insert', method: 'POST', path: new RegExp(`${EDITS}(\\?|$)`) },
  { name: 'edits.delete', method: 'DELETE', path: new RegExp(`${EDITS}/[^/:?]+(\\?|$)`) },
  { name: 'edits.commit', method: 'POST', path: new RegExp(`${EDITS}/[^/]+:commit`) },
  { name: 'listings.list', method: 'GET', path: new RegExp(`${EDITS}/[^/]+/listings(\\?|$)`) },
  { name: 'images.list', method: 'GET', path: new RegExp(`${EDITS}/[^/]+/listings/[^/]+/[^/?]+(\\?|$)`) },
  { name: 'images.deleteall', method: 'DELETE', path: new RegExp(`${EDITS}/[^/]+/listings/[^/]+/[^/?]+(\\?|$)`) },
  { name: 'images.delete', method: 'DELETE', path: new RegExp(`${EDITS}/[^/]+/listings/[^/]+/[^/]+/[^/?]+(\\?|$)`) },
  { name: 'images.upload', method: 'POST', path: /^\/upload\/androidpublisher\// },
];

const STATUSES = [503, 504, 429];
const matches = (k: Kind) => (c: FakeCall) => c.method === k.method && k.path.test(c.path);

let p: PublishingHarness;
beforeEach(async () => {
  p = await publishingHarness();
});
afterEach(async () => p.close());

async function connect(store: 'app-store' | 'google-play'): Promise<string> {
  const body =
    store === 'app-store'
      ? { store, issuerId: p.ascKey.issuerId, keyId: p.ascKey.keyId, privateKey: p.ascKey.privateKeyPem }
      : { store, serviceAccount: p.serviceAccount };
  const res = await p.post('/store-connections', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

/** Plans, approves and applies, as the task would, and answers the publication at the end. */
async function publish(jobId: string, connectionId: string) {
  const created = await p.post('/publications', { jobId, connectionId, locales: { en: 'en-US' } });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().id as string;
  await p.drain();
  const planned = (await p.get(`/publications/${id}`)).json();
  expect(planned.status, JSON.stringify(planned.error)).toBe('awaiting_approval');
  expect((await p.post(`/publications/${id}/approve`)).statusCode).toBe(202);
  await p.drain();
  return (await p.get(`/publications/${id}`)).json();
}

/** Each kind's next three calls are answered 503, then 504, then 429 (Retry-After 0). */
function injectAll(fake: PublishingHarness['asc'] | PublishingHarness['play'], kinds: Kind[]) {
  for (const k of kinds)
    for (const status of STATUSES)
      fake.fail({ method: k.method, path: k.path, status, headers: status === 429 ? { 'Retry-After': '0' } : undefined });
}

/** The kinds whose faults were not all answered yet: a fault is spent once a call got its status. */
function unspent(calls: FakeCall[], kinds: Kind[]): string[] {
  return kinds.filter((k) => STATUSES.some((s) => !calls.some((c) => matches(k)(c) && c.status === s))).map((k) => k.name);
}

describe('503, 504 and 429 on every kind of call', () => {
  it('App Store Connect: every publication ends published with exactly the set, nothing reserved twice', async () => {
    const sc = await connect('app-store');
    const sums = (seeds: number[]) => Promise.all(seeds.map(async (s) => md5(await png(s))));
    const shots = () => p.asc.screenshots(ASC_APP, 'en-US', 'APP_IPHONE_67');
    // First publication: the set is created, three uploads, no delete.
    injectAll(
      p.asc,
      ASC_KINDS.filter((k) => k.name !== 'delete'),
    );
    const first = await publish(await succeededJob(p, { device: 'iphone-69', seeds: [1, 2, 3] }), sc);
    expect(first.status, JSON.stringify(first.error)).toBe('published');
    expect(shots().map((s) => s.sourceFileChecksum)).toEqual(await sums([1, 2, 3]));
    expect(
      unspent(
        p.asc.calls,
        ASC_KINDS.filter((k) => k.name !== 'delete'),
      ),
    ).toEqual([]);
    // Second: one upload, one delete, two moved; the set exists now.
    injectAll(
      p.asc,
      ASC_KINDS.filter((k) => k.name !== 'create a set'),
    );
    const second = await publish(await succeededJob(p, { device: 'iphone-69', seeds: [3, 1, 4] }), sc);
    expect(second.status, JSON.stringify(second.error)).toBe('published');
    expect(second.plan).toMatchObject({ upload: 1, delete: 1, reorder: 2 });
    expect(shots().map((s) => s.sourceFileChecksum)).toEqual(await sums([3, 1, 4]));
    expect(shots().every((s) => s.assetDeliveryState === 'COMPLETE')).toBe(true);
    expect(unspent(p.asc.calls, ASC_KINDS)).toEqual([]);
    // Four uploads in all, each reserved once: no failed reservation was made again blindly.
    expect(p.asc.calls.filter((c) => c.method === 'POST' && c.path === '/v1/appScreenshots' && c.status === 201)).toHaveLength(4);
  });

  it('Google Play: every publication ends published with exactly the set, nothing uploaded twice', async () => {
    const sc = await connect('google-play');
    const live = () => p.play.images(PLAY_PACKAGE, 'en-US', 'phoneScreenshots').map((i) => i.sha256);
    const sums = (seeds: number[]) => Promise.all(seeds.map(async (s) => sha256(await png(s))));
    const uploads = () => p.play.calls.filter((c) => c.method === 'POST' && c.path.startsWith('/upload/') && c.status === 200).length;
    // Each step with the kinds of call it makes.
    const steps: [number[], Record<string, number>, string[]][] = [
      [[1, 2, 3], { upload: 3 }, ['images.delete', 'images.deleteall']],
      // Play appends: the first two stay, one image goes and one comes.
      [[1, 2, 4], { keep: 2, upload: 1, delete: 1 }, ['images.deleteall']],
      // A new order cannot be reached by appending: the slot is replaced whole (deleteall).
      [[2, 1], { upload: 2, delete: 3 }, ['images.delete']],
    ];
    let uploaded = 0;
    for (const [seeds, plan, unused] of steps) {
      injectAll(
        p.play,
        PLAY_KINDS.filter((k) => !unused.includes(k.name)),
      );
      const done = await publish(await succeededJob(p, { device: 'android-phone', seeds }), sc);
      expect(done.status, JSON.stringify(done.error)).toBe('published');
      expect(done.plan).toMatchObject(plan);
      expect(live()).toEqual(await sums(seeds));
      uploaded += plan.upload;
      expect(uploads()).toBe(uploaded);
    }
    expect(unspent(p.play.calls, PLAY_KINDS)).toEqual([]);
    expect(p.play.openEdits(PLAY_PACKAGE)).toEqual([]);
  });
});

describe('answers lost after the store did the work', () => {
  it('App Store Connect: a set created, a reservation, a commit, a delete and an order whose answers never came', async () => {
    const sc = await connect('app-store');
    const shots = () => p.asc.screenshots(ASC_APP, 'en-US', 'APP_IPHONE_67');
    for (const k of ASC_KINDS.filter((x) => x.method !== 'GET')) p.asc.fail({ method: k.method, path: k.path, status: 503, after: true });
    const first = await publish(await succeededJob(p, { device: 'iphone-69', seeds: [1, 2, 3] }), sc);
    expect(first.status, JSON.stringify(first.error)).toBe('published');
    const second = await publish(await succeededJob(p, { device: 'iphone-69', seeds: [3, 1, 4] }), sc);
    expect(second.status, JSON.stringify(second.error)).toBe('published');
    expect(shots().map((s) => s.sourceFileChecksum)).toEqual(await Promise.all([3, 1, 4].map(async (s) => md5(await png(s)))));
    for (const k of ASC_KINDS.filter((x) => x.method !== 'GET'))
      expect(
        p.asc.calls.some((c) => matches(k)(c) && c.status === 503),
        k.name,
      ).toBe(true);
  });

  it('Google Play: an upload, a delete and a commit whose answers never came leave no duplicate', async () => {
    const sc = await connect('google-play');
    const live = () => p.play.images(PLAY_PACKAGE, 'en-US', 'phoneScreenshots').map((i) => i.sha256);
    const sums = (seeds: number[]) => Promise.all(seeds.map(async (s) => sha256(await png(s))));
    const lost = PLAY_KINDS.filter((k) => ['images.upload', 'images.delete', 'images.deleteall', 'edits.commit'].includes(k.name));
    for (const k of lost) p.play.fail({ method: k.method, path: k.path, status: 503, after: true, times: 2 });
    for (const seeds of [
      [1, 2, 3],
      [1, 2, 4],
      [2, 1],
    ]) {
      const done = await publish(await succeededJob(p, { device: 'android-phone', seeds }), sc);
      expect(done.status, JSON.stringify(done.error)).toBe('published');
      expect(live()).toEqual(await sums(seeds));
    }
    for (const k of lost)
      expect(
        p.play.calls.some((c) => matches(k)(c) && c.status === 503),
        k.name,
      ).toBe(true);
  });
});
