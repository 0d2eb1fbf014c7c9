/**
 * The retry rules of one store call (src/publishing/retry.ts, through AppStoreClient), against the
 * fake App Store Connect alone: no database, so the timings are the policy's and nothing else's.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppStoreClient } from '../../src/publishing/app-store/client.ts';
import { StoreError } from '../../src/publishing/errors.ts';
import { startFakeAppStoreConnect, type FakeAppStoreConnectServer } from '../../src/fake-stores/app-store-connect.ts';
import { generateAppStoreKey } from '../../src/fake-stores/keys.ts';
import type { RetryPolicy } from '../../src/core/retry.ts';

const APP = '42';
const PATH = `/v1/apps/${APP}/appStoreVersions`;
const POLICY: RetryPolicy = { attempts: 3, baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 1_000 };

let fake: FakeAppStoreConnectServer;
let client: AppStoreClient;
beforeEach(async () => {
  fake = await startFakeAppStoreConnect();
  const key = generateAppStoreKey();
  fake.addKey(key.issuerId, key.keyId, key.publicKeyPem);
  fake.addApp({ appId: APP, locales: ['en-US'] });
  client = new AppStoreClient(
    { issuerId: key.issuerId, keyId: key.keyId, privateKey: key.privateKeyPem },
    { baseUrl: fake.url, retry: POLICY },
  );
});
afterEach(() => fake.close());

const statuses = () => fake.calls.filter((c) => c.path === PATH).map((c) => c.status);
const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e,
  );

describe('retries of one store call', () => {
  it('tries a 5xx the policy’s attempts and fails as unavailable; a call that may have taken effect tries once', async () => {
    fake.fail({ method: 'GET', path: /appStoreVersions/, status: 503, times: 9 });
    expect(await failure(client.call('GET', PATH))).toMatchObject({ kind: 'unavailable', status: 503 });
    expect(statuses()).toEqual([503, 503, 503]);
    expect(await failure(client.call('GET', PATH, undefined, false, true))).toMatchObject({ kind: 'unavailable', status: 503 });
    expect(statuses()).toHaveLength(4);
  });

  it('waits out a Retry-After within the cap, even for a call that may have taken effect', async () => {
    fake.fail({ method: 'GET', path: /appStoreVersions/, status: 429, times: 1, headers: { 'Retry-After': '1' } });
    const started = performance.now();
    await client.call('GET', PATH, undefined, false, true);
    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
    expect(statuses()).toEqual([429, 200]);
  });

  it('fails a Retry-After longer than the cap as unavailable at once, without waiting', async () => {
    fake.fail({ method: 'GET', path: /appStoreVersions/, status: 429, times: 1, headers: { 'Retry-After': '30' } });
    const started = performance.now();
    const e = await failure(client.call('GET', PATH));
    expect(performance.now() - started).toBeLessThan(900);
    expect(e).toBeInstanceOf(StoreError);
    expect(e).toMatchObject({ kind: 'unavailable', status: 429 });
    expect(statuses()).toEqual([429]);
  });

  it('signs a new token once after a 401 without spending a try, and a second 401 is rejected with no retry', async () => {
    fake.fail({ method: 'GET', path: /appStoreVersions/, status: 401, times: 1 });
    fake.fail({ method: 'GET', path: /appStoreVersions/, status: 503, times: 2 });
    await client.call('GET', PATH);
    expect(statuses()).toEqual([401, 503, 503, 200]);
    fake.fail({ method: 'GET', path: /appStoreVersions/, status: 401, times: 9 });
    expect(await failure(client.call('GET', PATH))).toMatchObject({ kind: 'rejected', status: 401 });
    expect(statuses().slice(4)).toEqual([401, 401]);
  });
});
