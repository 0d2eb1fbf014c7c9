/**
 * The fake App Store Connect holds a version per platform (IOS, MAC_OS) as the real one does, and
 * a version takes its own platform's screenshot display types only: a Mac set (APP_DESKTOP) in an
 * IOS version is refused, an iPhone set in a MAC_OS version too.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeAppStoreConnect, type FakeAppStoreConnectServer } from '../../src/fake-stores/app-store-connect.ts';
import { generateAppStoreKey } from '../../src/fake-stores/keys.ts';
import { ascClient, png, type AscCall } from './helpers.ts';

const APP = '1234567890';

let fake: FakeAppStoreConnectServer;
let call: AscCall;

beforeEach(async () => {
  fake = await startFakeAppStoreConnect();
  const key = generateAppStoreKey();
  fake.addKey(key.issuerId, key.keyId, key.publicKeyPem);
  fake.addApp({ appId: APP, locales: ['en-US'], platforms: ['IOS', 'MAC_OS'] });
  call = ascClient(fake.url, key);
});
afterEach(() => fake.close());

async function localizationOf(platform: string): Promise<string> {
  const versions = await call('GET', `/v1/apps/${APP}/appStoreVersions?filter[platform]=${platform}`);
  expect(versions.body.data).toHaveLength(1);
  expect(versions.body.data[0].attributes.platform).toBe(platform);
  const localizations = await call('GET', `/v1/appStoreVersions/${versions.body.data[0].id}/appStoreVersionLocalizations`);
  return localizations.body.data[0].id;
}

const createSet = (localizationId: string, displayType: string) =>
  call('POST', '/v1/appScreenshotSets', {
    data: {
      type: 'appScreenshotSets',
      attributes: { screenshotDisplayType: displayType },
      relationships: { appStoreVersionLocalization: { data: { type: 'appStoreVersionLocalizations', id: localizationId } } },
    },
  });

describe('fake App Store Connect: versions per platform', () => {
  it('lists each platform’s version under its own filter', async () => {
    const all = await call('GET', `/v1/apps/${APP}/appStoreVersions`);
    expect(all.body.data.map((v: { attributes: { platform: string } }) => v.attributes.platform).sort()).toEqual(['IOS', 'MAC_OS']);
    expect(await localizationOf('IOS')).not.toBe(await localizationOf('MAC_OS'));
    // An app added without platforms is iOS only.
    fake.addApp({ appId: '77', locales: ['en-US'] });
    expect((await call('GET', '/v1/apps/77/appStoreVersions?filter[platform]=MAC_OS')).body.data).toEqual([]);
  });

  it('refuses a Mac screenshot set in the IOS version and an iPhone set in the MAC_OS version', async () => {
    const ios = await localizationOf('IOS');
    const mac = await localizationOf('MAC_OS');
    const wrongMac = await createSet(ios, 'APP_DESKTOP');
    expect(wrongMac.status).toBe(409);
    expect(wrongMac.body.errors[0]).toMatchObject({ code: 'ENTITY_ERROR.ATTRIBUTE.INVALID' });
    expect(wrongMac.body.errors[0].detail).toMatch(/APP_DESKTOP.*IOS/);
    expect((await createSet(mac, 'APP_IPHONE_67')).status).toBe(409);

    expect((await createSet(mac, 'APP_DESKTOP')).status).toBe(201);
    expect((await createSet(ios, 'APP_IPHONE_67')).status).toBe(201);
  });

  it('seeds and reads a Mac set in the MAC_OS version', async () => {
    fake.seedScreenshots(APP, 'en-US', 'APP_DESKTOP', [{ fileName: 'mac.png', bytes: await png(1, 160, 100) }]);
    expect(fake.screenshots(APP, 'en-US', 'APP_DESKTOP').map((s) => s.fileName)).toEqual(['mac.png']);
    const sets = await call('GET', `/v1/appStoreVersionLocalizations/${await localizationOf('MAC_OS')}/appScreenshotSets`);
    expect(sets.body.data.map((s: { attributes: { screenshotDisplayType: string } }) => s.attributes.screenshotDisplayType)).toEqual([
      'APP_DESKTOP',
    ]);
    // The version state of each platform is its own.
    fake.setVersionState(APP, 'WAITING_FOR_REVIEW', 'MAC_OS');
    expect((await createSet(await localizationOf('IOS'), 'APP_IPHONE_67')).status).toBe(201);
  });
});
