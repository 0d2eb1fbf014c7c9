/**
 * The fake App Store Connect's variants, spoken to over plain HTTP: custom product pages with
 * their versions, localizations, keywords and screenshot sets; product page optimization tests
 * with their treatments; review submissions; and Apple's limits and states as Apple-shaped errors.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeAppStoreConnect, type FakeAppStoreConnectServer } from '../../src/fake-stores/app-store-connect.ts';
import { generateAppStoreKey } from '../../src/fake-stores/keys.ts';
import { ascClient, md5, png, uploadScreenshot, type Answer, type AscCall } from './helpers.ts';

const APP = '1234567890';
const NEW_APP = '555';

let fake: FakeAppStoreConnectServer;
let call: AscCall;

beforeEach(async () => {
  fake = await startFakeAppStoreConnect();
  const key = generateAppStoreKey();
  fake.addKey(key.issuerId, key.keyId, key.publicKeyPem);
  fake.addApp({ appId: APP, locales: ['en-US', 'de-DE'], liveVersion: true });
  fake.addApp({ appId: NEW_APP, locales: ['en-US'] });
  call = ascClient(fake.url, key);
});
afterEach(() => fake.close());

/** An Apple-shaped refusal: one error with status, code, title and detail. */
function refused(res: Answer, status: number, code: string, detail: RegExp) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.errors).toHaveLength(1);
  expect(res.body.errors[0]).toMatchObject({ status: String(status), code });
  expect(res.body.errors[0].title).toEqual(expect.any(String));
  expect(res.body.errors[0].detail).toMatch(detail);
}

const newPage = (name: string, locales = ['en-US'], app = APP) =>
  call('POST', '/v1/appCustomProductPages', {
    data: {
      type: 'appCustomProductPages',
      attributes: { name },
      relationships: {
        app: { data: { type: 'apps', id: app } },
        appCustomProductPageVersions: { data: [{ type: 'appCustomProductPageVersions', id: '${v}' }] },
      },
    },
    included: [
      {
        type: 'appCustomProductPageVersions',
        id: '${v}',
        relationships: {
          appCustomProductPageLocalizations: {
            data: locales.map((_, i) => ({ type: 'appCustomProductPageLocalizations', id: `\${l${i}}` })),
          },
        },
      },
      ...locales.map((locale, i) => ({
        type: 'appCustomProductPageLocalizations',
        id: `\${l${i}}`,
        attributes: { locale, promotionalText: `Promo ${locale}` },
      })),
    ],
  });

const setOn = (relationship: string, type: string, id: string) =>
  call('POST', '/v1/appScreenshotSets', {
    data: {
      type: 'appScreenshotSets',
      attributes: { screenshotDisplayType: 'APP_IPHONE_67' },
      relationships: { [relationship]: { data: { type, id } } },
    },
  });

describe('fake App Store Connect: custom product pages', () => {
  it('makes a page with its first version and localizations in one POST, with a ppid URL', async () => {
    const created = await newPage('Students', ['en-US', 'de-DE']);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const page = created.body.data;
    expect(page.attributes).toMatchObject({ name: 'Students', visible: false });
    expect(page.attributes.url).toBe(`https://apps.apple.com/us/app/id${APP}?ppid=${page.id}`);
    const version = created.body.included.find((i: { type: string }) => i.type === 'appCustomProductPageVersions');
    expect(version.attributes).toMatchObject({ version: '1', state: 'PREPARE_FOR_SUBMISSION' });

    const listed = await call('GET', `/v1/apps/${APP}/appCustomProductPages`);
    expect(listed.body.data.map((p: { id: string }) => p.id)).toEqual([page.id]);
    const versions = await call('GET', `/v1/appCustomProductPages/${page.id}/appCustomProductPageVersions`);
    const locs = await call('GET', `/v1/appCustomProductPageVersions/${versions.body.data[0].id}/appCustomProductPageLocalizations`);
    expect(locs.body.data.map((l: { attributes: { locale: string; promotionalText: string } }) => l.attributes)).toEqual([
      { locale: 'en-US', promotionalText: 'Promo en-US' },
      { locale: 'de-DE', promotionalText: 'Promo de-DE' },
    ]);
    refused(await newPage('Students'), 409, 'ENTITY_ERROR.ATTRIBUTE.INVALID', /named 'Students' already exists/);
  });

  it('takes screenshot sets, keywords and promotional text on a page localization, only through its own relationship', async () => {
    const page = (await newPage('Runners')).body;
    const locId = page.included.find((i: { type: string }) => i.type === 'appCustomProductPageLocalizations').id;
    // A page localization is not an App Store version's.
    expect((await setOn('appStoreVersionLocalization', 'appStoreVersionLocalizations', locId)).status).toBe(404);
    const set = await setOn('appCustomProductPageLocalization', 'appCustomProductPageLocalizations', locId);
    expect(set.status, JSON.stringify(set.body)).toBe(201);
    expect(set.body.data.relationships.appCustomProductPageLocalization.data.id).toBe(locId);
    const bytes = await png(1);
    await uploadScreenshot(call, set.body.data.id, 'a.png', bytes);
    expect(fake.localizationScreenshots(locId, 'APP_IPHONE_67').map((s) => s.sourceFileChecksum)).toEqual([md5(bytes)]);
    const sets = await call('GET', `/v1/appCustomProductPageLocalizations/${locId}/appScreenshotSets`);
    expect(sets.body.data.map((s: { id: string }) => s.id)).toEqual([set.body.data.id]);

    const linkages = (ks: string[]) => ({ data: ks.map((id) => ({ type: 'appKeywords', id })) });
    const kwPath = `/v1/appCustomProductPageLocalizations/${locId}/relationships/searchKeywords`;
    expect((await call('POST', kwPath, linkages(['running', 'marathon']))).status).toBe(204);
    expect((await call('DELETE', kwPath, linkages(['marathon']))).status).toBe(204);
    const kws = await call('GET', `/v1/appCustomProductPageLocalizations/${locId}/searchKeywords`);
    expect(kws.body.data.map((k: { id: string }) => k.id)).toEqual(['running']);
    const patched = await call('PATCH', `/v1/appCustomProductPageLocalizations/${locId}`, {
      data: { type: 'appCustomProductPageLocalizations', id: locId, attributes: { promotionalText: 'Run more.' } },
    });
    expect(patched.body.data.attributes.promotionalText).toBe('Run more.');
  });

  it('refuses a page past the limit, and a second open version; an approved version is followed by a copy of it', async () => {
    fake.setCustomProductPageLimit(2);
    expect((await newPage('A')).status).toBe(201);
    const b = (await newPage('B')).body;
    refused(await newPage('C'), 409, 'ENTITY_ERROR.ATTRIBUTE.INVALID', /already has 2 custom product pages, the most it can have \(2\)/);
    expect(fake.customProductPages(APP).map((p) => p.name)).toEqual(['A', 'B']);

    const newVersion = () =>
      call('POST', '/v1/appCustomProductPageVersions', {
        data: {
          type: 'appCustomProductPageVersions',
          relationships: { appCustomProductPage: { data: { type: 'appCustomProductPages', id: b.data.id } } },
        },
      });
    refused(await newVersion(), 409, 'STATE_ERROR', /already has version 1 in PREPARE_FOR_SUBMISSION/);
    const locId = b.included.find((i: { type: string }) => i.type === 'appCustomProductPageLocalizations').id;
    const set = await setOn('appCustomProductPageLocalization', 'appCustomProductPageLocalizations', locId);
    await uploadScreenshot(call, set.body.data.id, 'a.png', await png(2));
    fake.setPageVersionState(fake.customProductPages(APP)[1].versions[0].id, 'APPROVED');
    // An approved version's screenshots no longer change.
    refused(await setOn('appCustomProductPageLocalization', 'appCustomProductPageLocalizations', locId), 409, 'STATE_ERROR', /APPROVED/);
    const v2 = await newVersion();
    expect(v2.status, JSON.stringify(v2.body)).toBe(201);
    expect(v2.body.data.attributes).toMatchObject({ version: '2', state: 'PREPARE_FOR_SUBMISSION' });
    const copied = fake.customProductPages(APP)[1].versions[1].localizations;
    expect(copied.map((l) => [l.locale, l.promotionalText])).toEqual([['en-US', 'Promo en-US']]);
    expect(fake.localizationScreenshots(copied[0].id, 'APP_IPHONE_67').map((s) => s.sourceFileChecksum)).toEqual([md5(await png(2))]);
  });
});

const newTest = (name: string, app = APP) =>
  call('POST', '/v2/appStoreVersionExperiments', {
    data: {
      type: 'appStoreVersionExperiments',
      attributes: { name, platform: 'IOS', trafficProportion: 30 },
      relationships: { app: { data: { type: 'apps', id: app } } },
    },
  });
const newTreatment = (experimentId: string, name: string) =>
  call('POST', '/v1/appStoreVersionExperimentTreatments', {
    data: {
      type: 'appStoreVersionExperimentTreatments',
      attributes: { name },
      relationships: { appStoreVersionExperimentV2: { data: { type: 'appStoreVersionExperiments', id: experimentId } } },
    },
  });

describe('fake App Store Connect: product page optimization tests and review', () => {
  it('refuses a test for an app with no version ready for distribution, and a fourth treatment', async () => {
    refused(
      await newTest('Icons', NEW_APP),
      409,
      'STATE_ERROR.PPO_CREATE_ONLY_ALLOWED_WITH_APP_STORE_DISTRIBUTION',
      /version ready for distribution/,
    );
    const test = await newTest('Screens');
    expect(test.status, JSON.stringify(test.body)).toBe(201);
    expect(test.body.data).toMatchObject({
      type: 'appStoreVersionExperiments',
      attributes: { state: 'PREPARE_FOR_SUBMISSION', trafficProportion: 30 },
    });
    const id = test.body.data.id;
    for (const t of ['A', 'B', 'C']) expect((await newTreatment(id, t)).status).toBe(201);
    refused(await newTreatment(id, 'D'), 409, 'ENTITY_ERROR.RELATIONSHIP.INVALID', /at most 3 treatments/);
    const listed = await call('GET', `/v2/appStoreVersionExperiments/${id}/appStoreVersionExperimentTreatments`);
    expect(listed.body.data.map((t: { attributes: { name: string } }) => t.attributes.name)).toEqual(['A', 'B', 'C']);
    const tl = await call('POST', '/v1/appStoreVersionExperimentTreatmentLocalizations', {
      data: {
        type: 'appStoreVersionExperimentTreatmentLocalizations',
        attributes: { locale: 'en-US' },
        relationships: {
          appStoreVersionExperimentTreatment: { data: { type: 'appStoreVersionExperimentTreatments', id: listed.body.data[0].id } },
        },
      },
    });
    expect(tl.status).toBe(201);
    const set = await setOn(
      'appStoreVersionExperimentTreatmentLocalization',
      'appStoreVersionExperimentTreatmentLocalizations',
      tl.body.data.id,
    );
    expect(set.status, JSON.stringify(set.body)).toBe(201);
  });

  it('sends a test to review in a submission, starts it only once approved, and runs one test at a time', async () => {
    const test = (await newTest('Screens')).body.data;
    await newTreatment(test.id, 'A');
    const start = (id: string) =>
      call('PATCH', `/v2/appStoreVersionExperiments/${id}`, {
        data: { type: 'appStoreVersionExperiments', id, attributes: { started: true } },
      });
    refused(await start(test.id), 409, 'STATE_ERROR', /only an approved test can start/);

    const submission = await call('POST', '/v1/reviewSubmissions', {
      data: { type: 'reviewSubmissions', attributes: { platform: 'IOS' }, relationships: { app: { data: { type: 'apps', id: APP } } } },
    });
    expect(submission.status).toBe(201);
    const sid = submission.body.data.id;
    refused(
      await call('POST', '/v1/reviewSubmissions', {
        data: { type: 'reviewSubmissions', attributes: { platform: 'IOS' }, relationships: { app: { data: { type: 'apps', id: APP } } } },
      }),
      409,
      'STATE_ERROR',
      /already has a review submission in preparation/,
    );
    const item = () =>
      call('POST', '/v1/reviewSubmissionItems', {
        data: {
          type: 'reviewSubmissionItems',
          relationships: {
            reviewSubmission: { data: { type: 'reviewSubmissions', id: sid } },
            appStoreVersionExperimentV2: { data: { type: 'appStoreVersionExperiments', id: test.id } },
          },
        },
      });
    expect((await item()).status).toBe(201);
    refused(await item(), 409, 'ENTITY_ERROR.RELATIONSHIP.INVALID', /already in review submission/);
    const open = await call('GET', `/v1/reviewSubmissions?filter[app]=${APP}&filter[state]=READY_FOR_REVIEW`);
    expect(open.body.data.map((s: { id: string }) => s.id)).toEqual([sid]);
    const submit = () =>
      call('PATCH', `/v1/reviewSubmissions/${sid}`, { data: { type: 'reviewSubmissions', id: sid, attributes: { submitted: true } } });
    expect((await submit()).body.data.attributes.state).toBe('WAITING_FOR_REVIEW');
    refused(await submit(), 409, 'STATE_ERROR', /cannot be submitted again/);
    expect(fake.experiments(APP)[0].state).toBe('WAITING_FOR_REVIEW');

    fake.completeReview(APP);
    expect(fake.experiments(APP)[0].state).toBe('APPROVED');
    const started = await start(test.id);
    expect(started.status).toBe(200);
    expect(started.body.data.attributes.startDate).toEqual(expect.any(String));
    refused(await newTest('Next'), 409, 'STATE_ERROR', /'Screens' is running; only one test can run at a time/);
  });
});
