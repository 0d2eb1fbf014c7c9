import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeAppStoreConnect, type FakeAppStoreConnectServer } from '../../src/fake-stores/app-store-connect.ts';
import { generateAppStoreKey, type AppStoreTestKey } from '../../src/fake-stores/keys.ts';
import { ascClient, ascToken, md5, png, uploadScreenshot, type AscCall } from './helpers.ts';

const APP = '1234567890';
const EDITABLE = 'PREPARE_FOR_SUBMISSION,DEVELOPER_REJECTED,REJECTED,METADATA_REJECTED';

let fake: FakeAppStoreConnectServer;
let key: AppStoreTestKey;
let call: AscCall;

beforeEach(async () => {
  fake = await startFakeAppStoreConnect();
  key = generateAppStoreKey();
  fake.addKey(key.issuerId, key.keyId, key.publicKeyPem);
  fake.addApp({ appId: APP, bundleId: 'com.example.planner', locales: ['en-US', 'de-DE'] });
  call = ascClient(fake.url, key);
});
afterEach(() => fake.close());

/** The editable version's localization for `locale`, found the way deliver finds it. */
async function localizationId(locale: string): Promise<string> {
  const versions = await call('GET', `/v1/apps/${APP}/appStoreVersions?filter[platform]=IOS&filter[appStoreState]=${EDITABLE}`);
  const localizations = await call('GET', `/v1/appStoreVersions/${versions.body.data[0].id}/appStoreVersionLocalizations`);
  return localizations.body.data.find((l: { attributes: { locale: string } }) => l.attributes.locale === locale).id;
}

async function createSet(locale = 'en-US', displayType = 'APP_IPHONE_67'): Promise<string> {
  const created = await call('POST', '/v1/appScreenshotSets', {
    data: {
      type: 'appScreenshotSets',
      attributes: { screenshotDisplayType: displayType },
      relationships: { appStoreVersionLocalization: { data: { type: 'appStoreVersionLocalizations', id: await localizationId(locale) } } },
    },
  });
  expect(created.status).toBe(201);
  return created.body.data.id;
}

describe('fake App Store Connect: the resources deliver walks', () => {
  it('finds the app, its editable iOS version and its localizations', async () => {
    const app = await call('GET', `/v1/apps/${APP}`);
    expect(app.status).toBe(200);
    expect(app.body.data).toMatchObject({ type: 'apps', id: APP, attributes: { bundleId: 'com.example.planner' } });

    const editable = await call('GET', `/v1/apps/${APP}/appStoreVersions?filter[platform]=IOS&filter[appStoreState]=${EDITABLE}`);
    expect(editable.body.data).toHaveLength(1);
    expect(editable.body.data[0]).toMatchObject({
      type: 'appStoreVersions',
      attributes: { platform: 'IOS', appStoreState: 'PREPARE_FOR_SUBMISSION' },
    });
    const live = await call('GET', `/v1/apps/${APP}/appStoreVersions?filter[appStoreState]=READY_FOR_SALE`);
    expect(live.body.data).toEqual([]);

    const localizations = await call('GET', `/v1/appStoreVersions/${editable.body.data[0].id}/appStoreVersionLocalizations`);
    expect(localizations.body.data.map((l: { attributes: { locale: string } }) => l.attributes.locale)).toEqual(['en-US', 'de-DE']);
    expect((await call('GET', '/v1/apps/999')).status).toBe(404);
  });

  it('seeds a released version before the editable one, and screenshots already on the store', async () => {
    fake.addApp({ appId: '77', locales: ['en-US'], liveVersion: true });
    const all = await call('GET', '/v1/apps/77/appStoreVersions');
    expect(all.body.data.map((v: { attributes: { versionString: string; appStoreState: string } }) => v.attributes)).toMatchObject([
      { versionString: '1.0', appStoreState: 'READY_FOR_SALE', appVersionState: 'READY_FOR_DISTRIBUTION' },
      { versionString: '1.1', appStoreState: 'PREPARE_FOR_SUBMISSION' },
    ]);
    const editable = await call('GET', `/v1/apps/77/appStoreVersions?filter[appStoreState]=${EDITABLE}`);
    expect(editable.body.data.map((v: { attributes: { versionString: string } }) => v.attributes.versionString)).toEqual(['1.1']);

    const files = [await png(1), await png(2)];
    const ids = fake.seedScreenshots('77', 'en-US', 'APP_IPAD_PRO_3GEN_129', [
      { fileName: 'one.png', bytes: files[0] },
      { fileName: 'two.png', bytes: files[1] },
    ]);
    const localizations = await call('GET', `/v1/appStoreVersions/${editable.body.data[0].id}/appStoreVersionLocalizations`);
    const sets = await call('GET', `/v1/appStoreVersionLocalizations/${localizations.body.data[0].id}/appScreenshotSets`);
    expect(sets.body.data.map((s: { attributes: { screenshotDisplayType: string } }) => s.attributes.screenshotDisplayType)).toEqual([
      'APP_IPAD_PRO_3GEN_129',
    ]);
    const listed = await call('GET', `/v1/appScreenshotSets/${sets.body.data[0].id}/appScreenshots`);
    expect(
      listed.body.data.map((s: { id: string; attributes: { sourceFileChecksum: string } }) => [s.id, s.attributes.sourceFileChecksum]),
    ).toEqual(ids.map((id, i) => [id, md5(files[i])]));
    expect(fake.screenshots('77', 'en-US', 'APP_IPAD_PRO_3GEN_129').map((s) => s.assetDeliveryState)).toEqual(['COMPLETE', 'COMPLETE']);
    fake.setVersionState('77', 'WAITING_FOR_REVIEW');
    expect(
      (await call('GET', '/v1/apps/77/appStoreVersions')).body.data.map(
        (v: { attributes: { appStoreState: string } }) => v.attributes.appStoreState,
      ),
    ).toEqual(['READY_FOR_SALE', 'WAITING_FOR_REVIEW']);
  });

  it('uploads screenshots in parts, checks the MD5 at commit and lists them in the set order', async () => {
    fake.setUploadPartBytes(1000);
    const setId = await createSet();
    const files = await Promise.all([1, 2, 3].map((n) => png(n, 300, 600)));
    expect(files[0].length).toBeGreaterThan(1000);
    const ids: string[] = [];
    for (const [i, bytes] of files.entries()) {
      const { id, reserved, committed } = await uploadScreenshot(call, setId, `slide-${i + 1}.png`, bytes);
      const ops = reserved.body.data.attributes.uploadOperations;
      expect(ops.length).toBe(Math.ceil(bytes.length / 1000));
      expect(ops[0]).toMatchObject({
        method: 'PUT',
        offset: 0,
        length: 1000,
        requestHeaders: [{ name: 'Content-Type', value: 'application/octet-stream' }],
      });
      expect(ops[0].url.startsWith(fake.url)).toBe(true);
      expect(reserved.body.data.attributes.assetDeliveryState.state).toBe('AWAITING_UPLOAD');
      expect(committed.status).toBe(200);
      expect(committed.body.data.attributes).toMatchObject({ sourceFileChecksum: md5(bytes), uploadOperations: null });
      expect(fake.screenshotBytes(id).equals(bytes)).toBe(true);
      ids.push(id);
    }
    const got = await call('GET', `/v1/appScreenshots/${ids[0]}`);
    expect(got.body.data.attributes.assetDeliveryState).toEqual({ state: 'COMPLETE', errors: [], warnings: [] });
    expect(got.body.data.attributes.imageAsset).toMatchObject({ width: 300, height: 600 });

    const listed = await call('GET', `/v1/appScreenshotSets/${setId}/appScreenshots`);
    expect(listed.body.data.map((s: { id: string }) => s.id)).toEqual(ids);
    const sets = await call(
      'GET',
      `/v1/appStoreVersionLocalizations/${await localizationId('en-US')}/appScreenshotSets?include=appScreenshots`,
    );
    expect(sets.body.data[0].attributes.screenshotDisplayType).toBe('APP_IPHONE_67');
    expect(sets.body.included.map((s: { id: string }) => s.id)).toEqual(ids);
    expect(fake.screenshots(APP, 'en-US', 'APP_IPHONE_67')).toEqual(
      files.map((bytes, i) => ({
        id: ids[i],
        fileName: `slide-${i + 1}.png`,
        fileSize: bytes.length,
        sourceFileChecksum: md5(bytes),
        assetDeliveryState: 'COMPLETE',
      })),
    );
    expect(fake.screenshots(APP, 'de-DE', 'APP_IPHONE_67')).toEqual([]);
  });

  it('refuses a commit whose MD5 does not match the uploaded bytes, and one with a part missing', async () => {
    const setId = await createSet();
    const bytes = await png(1);
    const wrong = await uploadScreenshot(call, setId, 'a.png', bytes, md5(Buffer.from('something else')));
    expect(wrong.committed.status).toBe(409);
    expect(wrong.committed.body.errors[0]).toMatchObject({ status: '409', code: 'ENTITY_ERROR.ATTRIBUTE.INVALID' });
    expect(wrong.committed.body.errors[0].detail).toContain('sourceFileChecksum');
    expect(fake.screenshots(APP, 'en-US', 'APP_IPHONE_67')[0].assetDeliveryState).toBe('AWAITING_UPLOAD');
    // The right checksum then commits the same reservation.
    const retried = await call('PATCH', `/v1/appScreenshots/${wrong.id}`, {
      data: { type: 'appScreenshots', id: wrong.id, attributes: { uploaded: true, sourceFileChecksum: md5(bytes) } },
    });
    expect(retried.status).toBe(200);

    const reserved = await call('POST', '/v1/appScreenshots', {
      data: {
        type: 'appScreenshots',
        attributes: { fileName: 'b.png', fileSize: 10 },
        relationships: { appScreenshotSet: { data: { type: 'appScreenshotSets', id: setId } } },
      },
    });
    const id = reserved.body.data.id;
    const op = reserved.body.data.attributes.uploadOperations[0];
    const untyped = await fetch(op.url, { method: 'PUT', body: new Uint8Array(10) });
    expect(untyped.status).toBe(400);
    const early = await call('PATCH', `/v1/appScreenshots/${id}`, {
      data: { type: 'appScreenshots', id, attributes: { uploaded: true, sourceFileChecksum: md5(Buffer.alloc(10)) } },
    });
    expect(early.status).toBe(409);
    expect(early.body.errors[0].detail).toContain('part 0 was not uploaded');
  });

  it('reorders a set only by a list that names exactly its screenshots', async () => {
    const setId = await createSet();
    const ids = [];
    for (const n of [1, 2, 3]) ids.push((await uploadScreenshot(call, setId, `${n}.png`, await png(n))).id);
    const order = (list: string[]) =>
      call('PATCH', `/v1/appScreenshotSets/${setId}/relationships/appScreenshots`, {
        data: list.map((id) => ({ type: 'appScreenshots', id })),
      });

    for (const bad of [
      [ids[0], ids[1]],
      [...ids, 'nope'],
      [ids[0], ids[0], ids[1]],
      [ids[0], ids[1], 'nope'],
    ]) {
      const refused = await order(bad);
      expect(refused.status).toBe(409);
      expect(refused.body.errors[0].code).toBe('ENTITY_ERROR.RELATIONSHIP.INVALID');
    }
    expect(fake.screenshots(APP, 'en-US', 'APP_IPHONE_67').map((s) => s.id)).toEqual(ids);
    expect((await order([ids[2], ids[0], ids[1]])).status).toBe(204);
    expect(fake.screenshots(APP, 'en-US', 'APP_IPHONE_67').map((s) => s.id)).toEqual([ids[2], ids[0], ids[1]]);
    const linkage = await call('GET', `/v1/appScreenshotSets/${setId}/relationships/appScreenshots`);
    expect(linkage.body.data.map((l: { id: string }) => l.id)).toEqual([ids[2], ids[0], ids[1]]);
  });

  it('deletes a screenshot, holds at most ten per set and one set per display type', async () => {
    const setId = await createSet();
    const ids = [];
    for (let n = 0; n < 10; n++) ids.push((await uploadScreenshot(call, setId, `${n}.png`, await png(n))).id);
    await expect(uploadScreenshot(call, setId, 'eleven.png', await png(11))).rejects.toThrow(/reserve: 409/);
    expect((await call('DELETE', `/v1/appScreenshots/${ids[3]}`)).status).toBe(204);
    expect((await call('GET', `/v1/appScreenshots/${ids[3]}`)).status).toBe(404);
    expect(fake.screenshots(APP, 'en-US', 'APP_IPHONE_67')).toHaveLength(9);
    const again = await call('POST', '/v1/appScreenshotSets', {
      data: {
        type: 'appScreenshotSets',
        attributes: { screenshotDisplayType: 'APP_IPHONE_67' },
        relationships: {
          appStoreVersionLocalization: { data: { type: 'appStoreVersionLocalizations', id: await localizationId('en-US') } },
        },
      },
    });
    expect(again.status).toBe(409);
  });

  it('refuses changes while the version is not editable', async () => {
    const setId = await createSet();
    fake.setVersionState(APP, 'WAITING_FOR_REVIEW');
    const versions = await call('GET', `/v1/apps/${APP}/appStoreVersions?filter[platform]=IOS&filter[appStoreState]=${EDITABLE}`);
    expect(versions.body.data).toEqual([]);
    await expect(uploadScreenshot(call, setId, 'a.png', await png(1))).rejects.toThrow(/reserve: 409/);
  });

  it('checks bad request bodies the way the store does', async () => {
    const res = await fetch(`${fake.url}/v1/appScreenshotSets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await ascToken(key)}`, 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(res.status).toBe(400);
    const wrongType = await call('POST', '/v1/appScreenshotSets', { data: { type: 'apps', attributes: {} } });
    expect(wrongType.status).toBe(409);
    const badDisplay = await call('POST', '/v1/appScreenshotSets', {
      data: {
        type: 'appScreenshotSets',
        attributes: { screenshotDisplayType: 'IPHONE_99' },
        relationships: {
          appStoreVersionLocalization: { data: { type: 'appStoreVersionLocalizations', id: await localizationId('en-US') } },
        },
      },
    });
    expect(badDisplay.status).toBe(409);
    expect(badDisplay.body.errors[0].detail).toContain('IPHONE_99');
    const setId = await createSet();
    const huge = await call('POST', '/v1/appScreenshots', {
      data: {
        type: 'appScreenshots',
        attributes: { fileName: 'huge.png', fileSize: 10 * 1024 ** 3 },
        relationships: { appScreenshotSet: { data: { type: 'appScreenshotSets', id: setId } } },
      },
    });
    expect(huge.status).toBe(409);
    expect(huge.body.errors[0].detail).toContain('fileSize');
    expect((await call('GET', '/v1/apps/%E0%A4%A')).status).toBe(400);
  });
});
