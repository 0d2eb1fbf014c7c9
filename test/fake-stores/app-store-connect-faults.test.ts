import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeAppStoreConnect, type FakeAppStoreConnectServer } from '../../src/fake-stores/app-store-connect.ts';
import { generateAppStoreKey, type AppStoreTestKey } from '../../src/fake-stores/keys.ts';
import { ascClient, ascToken, md5, png, uploadScreenshot, type AscCall } from './helpers.ts';

const APP = '42';

let fake: FakeAppStoreConnectServer;
let key: AppStoreTestKey;
let call: AscCall;
let setId: string;

beforeEach(async () => {
  fake = await startFakeAppStoreConnect();
  key = generateAppStoreKey();
  fake.addKey(key.issuerId, key.keyId, key.publicKeyPem);
  fake.addApp({ appId: APP, locales: ['en-US'] });
  call = ascClient(fake.url, key);
  const versions = await call('GET', `/v1/apps/${APP}/appStoreVersions`);
  const localizations = await call('GET', `/v1/appStoreVersions/${versions.body.data[0].id}/appStoreVersionLocalizations`);
  const set = await call('POST', '/v1/appScreenshotSets', {
    data: {
      type: 'appScreenshotSets',
      attributes: { screenshotDisplayType: 'APP_IPHONE_65' },
      relationships: { appStoreVersionLocalization: { data: { type: 'appStoreVersionLocalizations', id: localizations.body.data[0].id } } },
    },
  });
  setId = set.body.data.id;
});
afterEach(() => fake.close());

describe('fake App Store Connect: tokens', () => {
  it('refuses a missing, malformed, mis-addressed, too long-lived, unknown or revoked token with 401', async () => {
    const other = generateAppStoreKey();
    const tokens: [string, string][] = [
      ['none', ''],
      ['not a JWT', 'abc.def'],
      ['wrong audience', await ascToken(key, { audience: 'appstoreconnect-v2' })],
      ['wrong issuer', await ascToken(key, { issuer: other.issuerId })],
      ['lives 30 minutes', await ascToken(key, { lifetimeS: 30 * 60 })],
      ['expired', await ascToken(key, { lifetimeS: -60 })],
      ['unknown key id', await ascToken(key, { keyId: other.keyId })],
      ['signed by another key under this key id', await ascToken({ ...other, keyId: key.keyId, issuerId: key.issuerId })],
    ];
    for (const [why, token] of tokens) {
      const res = await fetch(`${fake.url}/v1/apps/${APP}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
      expect(res.status, why).toBe(401);
      const body = (await res.json()) as { errors: { status: string; code: string }[] };
      expect(body.errors[0], why).toMatchObject({ status: '401', code: 'NOT_AUTHORIZED' });
    }
    expect((await call('GET', `/v1/apps/${APP}`)).status).toBe(200);
    fake.removeKey(key.keyId);
    expect((await call('GET', `/v1/apps/${APP}`)).status).toBe(401);
  });

  it('counts requests per key per hour, says what is left and answers 429 with Retry-After past the budget', async () => {
    // The set-up above made three requests with this key.
    fake.setHourlyRequestLimit(6);
    const first = await call('GET', `/v1/apps/${APP}`);
    expect(first.headers.get('x-rate-limit')).toBe('user-hour-lim:6;user-hour-rem:2;');
    await call('GET', `/v1/apps/${APP}`);
    expect((await call('GET', '/v1/apps/404')).headers.get('x-rate-limit')).toBe('user-hour-lim:6;user-hour-rem:0;');
    const refused = await call('GET', `/v1/apps/${APP}`);
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].code).toBe('RATE_LIMIT_EXCEEDED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3500);
    // Another key has its own budget.
    const other = generateAppStoreKey();
    fake.addKey(other.issuerId, other.keyId, other.publicKeyPem);
    expect((await ascClient(fake.url, other)('GET', `/v1/apps/${APP}`)).status).toBe(200);
  });
});

describe('fake App Store Connect: injected faults', () => {
  it('answers 503 on a reservation, then takes the retry', async () => {
    fake.fail({ method: 'POST', path: /^\/v1\/appScreenshots$/, status: 503 });
    const bytes = await png(1);
    await expect(uploadScreenshot(call, setId, 'a.png', bytes)).rejects.toThrow(/reserve: 503/);
    expect(fake.screenshots(APP, 'en-US', 'APP_IPHONE_65')).toEqual([]);
    const { committed } = await uploadScreenshot(call, setId, 'a.png', bytes);
    expect(committed.status).toBe(200);
    expect(fake.screenshots(APP, 'en-US', 'APP_IPHONE_65')).toHaveLength(1);
  });

  it('answers 504 on a commit without committing, in the store error shape', async () => {
    fake.fail({ method: 'PATCH', path: /^\/v1\/appScreenshots\//, status: 504 });
    const bytes = await png(1);
    const { id, committed } = await uploadScreenshot(call, setId, 'a.png', bytes);
    expect(committed.status).toBe(504);
    expect(committed.body.errors[0]).toMatchObject({ status: '504', code: 'GATEWAY_TIMEOUT' });
    expect(fake.screenshots(APP, 'en-US', 'APP_IPHONE_65')[0].assetDeliveryState).toBe('AWAITING_UPLOAD');
    const retried = await call('PATCH', `/v1/appScreenshots/${id}`, {
      data: { type: 'appScreenshots', id, attributes: { uploaded: true, sourceFileChecksum: md5(bytes) } },
    });
    expect(retried.body.data.attributes.assetDeliveryState.state).toBe('COMPLETE');
  });

  it('answers 429 with its headers as many times as asked, on reads, upload parts, deletes and reorders alike', async () => {
    fake.fail({ method: 'GET', path: /appScreenshots/, status: 429, times: 2, headers: { 'retry-after': '7' } });
    for (let i = 0; i < 2; i++) {
      const limited = await call('GET', `/v1/appScreenshotSets/${setId}/appScreenshots`);
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe('7');
    }
    expect((await call('GET', `/v1/appScreenshotSets/${setId}/appScreenshots`)).status).toBe(200);

    fake.fail({ method: 'PUT', path: /^\/upload\//, status: 500 });
    await expect(uploadScreenshot(call, setId, 'a.png', await png(1))).rejects.toThrow(/upload part: 500/);
    const { id } = await uploadScreenshot(call, setId, 'b.png', await png(2));
    fake.fail({ method: 'DELETE', path: new RegExp(id), status: 503 });
    expect((await call('DELETE', `/v1/appScreenshots/${id}`)).status).toBe(503);
    fake.fail({ method: 'PATCH', path: /relationships\/appScreenshots$/, status: 503 });
    expect((await call('PATCH', `/v1/appScreenshotSets/${setId}/relationships/appScreenshots`, { data: [] })).status).toBe(503);
  });

  it('can do the work and lose the answer: a 504 after the commit took, a reservation whose connection dropped', async () => {
    fake.fail({ method: 'PATCH', path: /^\/v1\/appScreenshots\//, status: 504, after: true });
    const first = await uploadScreenshot(call, setId, 'a.png', await png(1));
    expect(first.committed.status).toBe(504);
    expect((await call('GET', `/v1/appScreenshots/${first.id}`)).body.data.attributes.assetDeliveryState.state).toBe('COMPLETE');

    fake.fail({ method: 'POST', path: /^\/v1\/appScreenshots$/, status: 0, after: true, drop: true });
    await expect(uploadScreenshot(call, setId, 'b.png', await png(2))).rejects.toThrow();
    // The reservation exists: a careful client finds it by name before reserving again.
    const listed = await call('GET', `/v1/appScreenshotSets/${setId}/appScreenshots`);
    expect(
      listed.body.data.map((s: { attributes: { fileName: string; assetDeliveryState: { state: string } } }) => [
        s.attributes.fileName,
        s.attributes.assetDeliveryState.state,
      ]),
    ).toEqual([
      ['a.png', 'COMPLETE'],
      ['b.png', 'AWAITING_UPLOAD'],
    ]);
    expect(fake.calls.filter((c) => c.method === 'POST' && c.path === '/v1/appScreenshots').map((c) => c.status)).toEqual([201, 0]);

    fake.fail({ method: 'GET', path: /^\/v1\/apps\//, status: 0, drop: true });
    await expect(call('GET', `/v1/apps/${APP}`)).rejects.toThrow();
    expect((await call('GET', `/v1/apps/${APP}`)).status).toBe(200);
  });

  it('records every request with its answer', async () => {
    fake.fail({ method: 'GET', path: /^\/v1\/apps\//, status: 503 });
    await call('GET', `/v1/apps/${APP}`);
    await call('GET', `/v1/apps/${APP}`);
    await uploadScreenshot(call, setId, 'a.png', await png(1));
    const calls = fake.calls.slice(-5);
    expect(calls.map((c) => [c.method, c.path.replace(/[0-9a-f-]{36}/g, 'ID'), c.status])).toEqual([
      ['GET', `/v1/apps/${APP}`, 503],
      ['GET', `/v1/apps/${APP}`, 200],
      ['POST', '/v1/appScreenshots', 201],
      ['PUT', '/upload/ID/0', 200],
      ['PATCH', '/v1/appScreenshots/ID', 200],
    ]);
  });
});

describe('fake App Store Connect: processing', () => {
  it('keeps a committed upload UPLOAD_COMPLETE for the processing delay, then COMPLETE', async () => {
    fake.setProcessingDelayMs(150);
    const { id, committed } = await uploadScreenshot(call, setId, 'a.png', await png(1));
    expect(committed.body.data.attributes.assetDeliveryState.state).toBe('UPLOAD_COMPLETE');
    expect(committed.body.data.attributes.imageAsset).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await call('GET', `/v1/appScreenshots/${id}`)).body.data.attributes.assetDeliveryState.state).toBe('COMPLETE');
  });

  it('ends the next commit of a named file FAILED with errors, once', async () => {
    fake.failDelivery('broken.png');
    const failed = await uploadScreenshot(call, setId, 'broken.png', await png(1));
    const state = (await call('GET', `/v1/appScreenshots/${failed.id}`)).body.data.attributes.assetDeliveryState;
    expect(state.state).toBe('FAILED');
    expect(state.errors[0]).toMatchObject({ code: 'IMAGE_TOOL_FAILURE', description: expect.stringContaining('broken.png') });
    const other = await uploadScreenshot(call, setId, 'fine.png', await png(2));
    expect(other.committed.body.data.attributes.assetDeliveryState.state).toBe('COMPLETE');
    const again = await uploadScreenshot(call, setId, 'broken.png', await png(3));
    expect(again.committed.body.data.attributes.assetDeliveryState.state).toBe('COMPLETE');
  });

  it('fails processing of a PNG whose size the display type does not take, when asked to check', async () => {
    fake.setDimensionCheck(true);
    const wrong = await uploadScreenshot(call, setId, 'small.png', await png(1, 300, 600));
    const state = (await call('GET', `/v1/appScreenshots/${wrong.id}`)).body.data.attributes.assetDeliveryState;
    expect(state.state).toBe('FAILED');
    expect(state.errors[0].code).toBe('IMAGE_INCORRECT_DIMENSIONS');
    expect(state.errors[0].description).toContain('300x600');
    // APP_IPHONE_65 takes 1242x2688 and its landscape.
    for (const [w, h] of [
      [1242, 2688],
      [2688, 1242],
    ]) {
      const right = await uploadScreenshot(call, setId, `${w}.png`, await png(2, w, h));
      expect(right.committed.body.data.attributes.assetDeliveryState.state).toBe('COMPLETE');
    }
  });

  it('answers 204 to an ignored delete but keeps the screenshot; the next delete takes', async () => {
    const { id } = await uploadScreenshot(call, setId, 'a.png', await png(1));
    fake.ignoreDeletes(1);
    expect((await call('DELETE', `/v1/appScreenshots/${id}`)).status).toBe(204);
    expect((await call('GET', `/v1/appScreenshots/${id}`)).status).toBe(200);
    expect(fake.screenshots(APP, 'en-US', 'APP_IPHONE_65').map((s) => s.id)).toEqual([id]);
    expect((await call('DELETE', `/v1/appScreenshots/${id}`)).status).toBe(204);
    expect((await call('GET', `/v1/appScreenshots/${id}`)).status).toBe(404);
  });

  it('fills a set to exactly ten under concurrent reservations', async () => {
    const bytes = await png(1);
    const results = await Promise.allSettled(Array.from({ length: 14 }, (_, i) => uploadScreenshot(call, setId, `${i}.png`, bytes)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    expect(fake.screenshots(APP, 'en-US', 'APP_IPHONE_65')).toHaveLength(10);
  });
});

describe('fake App Store Connect: limits', () => {
  it('answers 413 to a body past its limit, and keeps serving', async () => {
    const res = await fetch(`${fake.url}/v1/appScreenshotSets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await ascToken(key)}`, 'content-type': 'application/json' },
      body: new Uint8Array(65 * 1024 * 1024),
    });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { errors: { code: string }[] }).errors[0].code).toBe('PAYLOAD_TOO_LARGE');
    expect((await call('GET', `/v1/apps/${APP}`)).status).toBe(200);
  });
});
