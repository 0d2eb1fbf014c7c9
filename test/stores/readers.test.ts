import { describe, it, expect, beforeAll, afterAll, beforeEach } from 'vitest';
import { createStoreReaders, type StoreReadersOptions } from '../../src/stores/index.ts';
import { Problem } from '../../src/core/problem.ts';
import { FAIL, startFakeStore, type FakeStore } from '../support/fake-store.ts';
import {
  LOOKUP_INVALID_ID_BODY,
  PLAY_CONSENT_PAGE,
  lookupBody,
  lookupResult,
  playDetails,
  playDetailsPage,
} from '../support/store-fixtures.ts';
import { scaled } from '../support/timing.ts';

let store: FakeStore;
beforeAll(async () => {
  store = await startFakeStore();
});
afterAll(async () => {
  await store.close();
});
beforeEach(() => store.reset());

const APP = { id: '1234567890', country: 'us' };
const PLAY = { id: 'com.example.trails', country: 'de', language: 'fr' };
const okLookup = { body: lookupBody([lookupResult()], { raw: true }) };
const okPage = { body: playDetailsPage({ details: playDetails() }) };

function readers(overrides: Partial<StoreReadersOptions> = {}) {
  const warnings: Array<{ obj: object; msg?: string }> = [];
  const r = createStoreReaders({
    appStoreLookupUrl: store.appStoreLookupUrl,
    googlePlayUrl: store.googlePlayUrl,
    // Deadlines scaled for a loaded runner: a reader that misses them fails the request, not just the test.
    timeoutMs: scaled(1000),
    cacheTtlMs: 0,
    retryDelayMs: 5,
    logger: { warn: (obj, msg) => void warnings.push({ obj, msg }) },
    ...overrides,
  });
  return Object.assign(r, { warnings });
}

async function problem(p: Promise<unknown>): Promise<Problem> {
  const e = await p.then(
    () => new Error('expected a rejection'),
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(Problem);
  return e as Problem;
}

describe('readAppStore', () => {
  it('builds the lookup request from the parsed id and reads the listing', async () => {
    store.set('app-store', APP.id, okLookup);
    const l = await readers().readAppStore(APP);
    expect(l.name).toBe('Pocket Planner');
    expect(store.requests).toHaveLength(1);
    expect(store.requests[0].pathname).toBe('/lookup');
    expect(store.requests[0].query).toEqual({ id: APP.id, country: 'us', entity: 'software' });
  });

  it('resultCount 0 is store_app_not_found', async () => {
    const p = await problem(readers().readAppStore(APP));
    expect([p.status, p.code]).toEqual([422, 'store_app_not_found']);
  });

  it('HTTP 400 with the invalid-id body is store_app_not_found, not retried', async () => {
    store.set('app-store', APP.id, { status: 400, body: LOOKUP_INVALID_ID_BODY });
    expect((await problem(readers().readAppStore(APP))).code).toBe('store_app_not_found');
    expect(store.count('app-store')).toBe(1);
  });

  it.each([
    ['500', FAIL.serverError, 2],
    ['429', FAIL.tooManyRequests, 2],
    ['a non-JSON 200', FAIL.badJson, 2],
    ['a dropped connection', FAIL.reset, 2],
    ['403', FAIL.forbidden, 1],
    ['404', FAIL.notFound, 1],
  ])('%s is store_unavailable with Retry-After (%s attempts)', async (_name, failure, attempts) => {
    store.set('app-store', APP.id, failure);
    const p = await problem(readers().readAppStore(APP));
    expect([p.status, p.code, p.headers['Retry-After']]).toEqual([502, 'store_unavailable', '30']);
    expect(p.detail).not.toMatch(/127\.0\.0\.1/);
    expect(store.count('app-store', APP.id)).toBe(attempts);
  });

  it('retries once after a transient failure and succeeds', async () => {
    store.set('app-store', APP.id, [FAIL.serverError, okLookup]);
    const r = readers();
    expect((await r.readAppStore(APP)).name).toBe('Pocket Planner');
    expect(store.count('app-store', APP.id)).toBe(2);
    expect(r.warnings.some((w) => /retrying/.test(w.msg ?? ''))).toBe(true);
  });

  it('a hang uses up the time budget and is store_unavailable', async () => {
    store.set('app-store', APP.id, FAIL.hang);
    const started = Date.now();
    const p = await problem(readers({ timeoutMs: scaled(300) }).readAppStore(APP));
    expect(p.code).toBe('store_unavailable');
    expect(p.detail).toMatch(/in time/);
    expect(Date.now() - started).toBeLessThan(scaled(1000));
    expect(store.count('app-store', APP.id)).toBe(2);
  });

  it('a slow first answer is retried within the budget', async () => {
    store.set('app-store', APP.id, [{ ...okLookup, delayMs: scaled(400) }, okLookup]);
    expect((await readers({ timeoutMs: scaled(500) }).readAppStore(APP)).name).toBe('Pocket Planner');
  });
});

describe('readGooglePlay', () => {
  it('builds the page request from the parsed id, with hl, gl and browser-like headers', async () => {
    store.set('google-play', PLAY.id, okPage);
    const l = await readers().readGooglePlay(PLAY);
    expect(l).toMatchObject({ name: 'Trail Mapper', country: 'de', language: 'fr', storeId: PLAY.id });
    const req = store.requests[0];
    expect(req.pathname).toBe('/store/apps/details');
    expect(req.query).toEqual({ id: PLAY.id, hl: 'fr', gl: 'de' });
    expect(req.headers['user-agent']).toMatch(/Mozilla\/5\.0/);
    expect(req.headers['accept-language']).toMatch(/^fr/);
  });

  it('a 404 is retried once without gl, which may find the app', async () => {
    store.set('google-play', PLAY.id, [FAIL.notFound, okPage]);
    expect((await readers().readGooglePlay(PLAY)).name).toBe('Trail Mapper');
    expect(store.requests.map((r) => r.query.gl)).toEqual(['de', undefined]);
  });

  it('404 twice is store_app_not_found', async () => {
    const p = await problem(readers().readGooglePlay(PLAY));
    expect([p.status, p.code]).toEqual([422, 'store_app_not_found']);
    expect(store.count('google-play', PLAY.id)).toBe(2);
  });

  it.each([
    ['500', FAIL.serverError, 2],
    ['429', FAIL.tooManyRequests, 2],
    ['403', FAIL.forbidden, 1],
    ['a redirect (consent)', { status: 302, headers: { location: 'https://consent.google.com/ml' } }, 1],
  ])('%s is store_unavailable (%s attempts)', async (_name, failure, attempts) => {
    store.set('google-play', PLAY.id, failure);
    const p = await problem(readers().readGooglePlay(PLAY));
    expect([p.status, p.code, p.headers['Retry-After']]).toEqual([502, 'store_unavailable', '30']);
    expect(store.count('google-play', PLAY.id)).toBe(attempts);
  });

  it('a consent page served with 200 is store_unavailable and logged', async () => {
    store.set('google-play', PLAY.id, { body: PLAY_CONSENT_PAGE });
    const r = readers();
    expect((await problem(r.readGooglePlay(PLAY))).code).toBe('store_unavailable');
    expect(r.warnings.some((w) => (w.obj as { page?: { looksLike?: string } }).page?.looksLike === 'consent')).toBe(true);
  });

  it('a hang times out as store_unavailable', async () => {
    store.set('google-play', PLAY.id, FAIL.hang);
    expect((await problem(readers({ timeoutMs: 200 }).readGooglePlay(PLAY))).code).toBe('store_unavailable');
  });

  it('retries a 503 once and succeeds', async () => {
    store.set('google-play', PLAY.id, [{ status: 503 }, okPage]);
    expect((await readers().readGooglePlay(PLAY)).name).toBe('Trail Mapper');
  });
});

describe('caching and single-flight', () => {
  it('reuses a success for the TTL, then reads again', async () => {
    store.set('app-store', APP.id, okLookup);
    let now = 1_000;
    const r = readers({ cacheTtlMs: 60_000, now: () => now });
    await r.readAppStore(APP);
    await r.readAppStore(APP);
    expect(store.count('app-store')).toBe(1);
    now += 60_001;
    await r.readAppStore(APP);
    expect(store.count('app-store')).toBe(2);
  });

  it('keys by store, id, country and (Play) language', async () => {
    store.set('app-store', APP.id, okLookup);
    store.set('google-play', PLAY.id, okPage);
    const r = readers({ cacheTtlMs: 60_000 });
    await r.readAppStore(APP);
    await r.readAppStore({ ...APP, country: 'fr' });
    await r.readGooglePlay(PLAY);
    await r.readGooglePlay({ ...PLAY, language: 'en' });
    await r.readGooglePlay(PLAY);
    expect(store.count('app-store')).toBe(2);
    expect(store.count('google-play')).toBe(2);
  });

  it('concurrent identical reads share one request', async () => {
    store.set('google-play', PLAY.id, { ...okPage, delayMs: 50 });
    const r = readers({ cacheTtlMs: 0 });
    const all = await Promise.all(Array.from({ length: 10 }, () => r.readGooglePlay(PLAY)));
    expect(all.every((l) => l.name === 'Trail Mapper')).toBe(true);
    expect(store.count('google-play')).toBe(1);
    // Each caller gets its own copy.
    all[0].name = 'changed';
    expect(all[1].name).toBe('Trail Mapper');
  });

  it('does not cache failures', async () => {
    store.set('app-store', APP.id, [{ status: 400, body: LOOKUP_INVALID_ID_BODY }, okLookup]);
    const r = readers({ cacheTtlMs: 60_000 });
    expect((await problem(r.readAppStore(APP))).code).toBe('store_app_not_found');
    expect((await r.readAppStore(APP)).name).toBe('Pocket Planner');
  });

  it('stays bounded, dropping the least recently used', async () => {
    for (const id of ['1', '2', '3']) store.set('app-store', id, { body: lookupBody([lookupResult({ trackId: Number(id) })]) });
    const r = readers({ cacheTtlMs: 60_000, maxCacheEntries: 2 });
    await r.readAppStore({ id: '1', country: 'us' });
    await r.readAppStore({ id: '2', country: 'us' });
    await r.readAppStore({ id: '1', country: 'us' });
    await r.readAppStore({ id: '3', country: 'us' });
    await r.readAppStore({ id: '1', country: 'us' });
    expect(store.count('app-store', '1')).toBe(1);
    await r.readAppStore({ id: '2', country: 'us' });
    expect(store.count('app-store', '2')).toBe(2);
  });
});
