/**
 * A set published as a custom product page (target `custom-product-page`): the page, its version
 * and localizations found or made when the publication is applied, the screenshots by the same
 * plan → approve → apply → verify as the product page, and the store's refusals as `store_refused`
 * with Apple's own code and text.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ascClient, md5, png } from '../fake-stores/helpers.ts';
import {
  approveAndRun,
  ASC_APP,
  connectAppStore,
  planVariant,
  publishingHarness,
  succeededJob,
  type PublishingHarness,
} from './support.ts';

let p: PublishingHarness;
beforeEach(async () => {
  p = await publishingHarness();
});
afterEach(async () => p.close());

const STUDENTS = {
  kind: 'custom-product-page',
  name: 'Students',
  promotionalText: { 'en-US': 'Plan a week of meals between lectures.' },
  keywords: { en: ['student', 'budget meals'] },
};

const md5s = (seeds: number[]) => Promise.all(seeds.map(async (s) => md5(await png(s))));
const pages = () => p.asc.customProductPages(ASC_APP);
/** The checksums on the newest version of the page, per locale. */
const onPage = (locale = 'en-US', page = 0) => {
  const version = pages()[page].versions.at(-1)!;
  const l = version.localizations.find((x) => x.locale === locale)!;
  return p.asc.localizationScreenshots(l.id, 'APP_IPHONE_67').map((s) => s.sourceFileChecksum);
};

describe('publishing a set as a custom product page', () => {
  it('makes the page on approval, then re-publishing plans nothing and an edited set uploads only the changed slides', async () => {
    const sc = await connectAppStore(p);
    const job = await succeededJob(p, { device: 'iphone-69', seeds: [1, 2, 3, 4, 5] });
    const first = await planVariant(p, job, sc, STUDENTS);
    expect(first.target).toEqual(STUDENTS);
    expect(first.plan).toMatchObject({ upload: 5, keep: 0, delete: 0 });
    // Planning reads; nothing exists on the store before approval.
    expect(pages()).toEqual([]);

    const done = await approveAndRun(p, first.id);
    expect(done.status, JSON.stringify(done.error)).toBe('published');
    expect(pages()).toHaveLength(1);
    const [page] = pages();
    expect(page).toMatchObject({ name: 'Students', visible: false });
    expect(page.versions).toHaveLength(1);
    expect(page.versions[0]).toMatchObject({ version: '1', state: 'PREPARE_FOR_SUBMISSION' });
    expect(page.versions[0].localizations).toEqual([
      expect.objectContaining({
        locale: 'en-US',
        promotionalText: 'Plan a week of meals between lectures.',
        keywords: ['student', 'budget meals'],
      }),
    ]);
    expect(onPage()).toEqual(await md5s([1, 2, 3, 4, 5]));
    expect(done.variant).toEqual({
      pageId: page.id,
      pageVersionId: page.versions[0].id,
      url: `https://apps.apple.com/us/app/id${ASC_APP}?ppid=${page.id}`,
      experimentId: null,
      treatmentId: null,
    });
    // The product page itself is untouched, and nothing went to review.
    expect(p.asc.screenshots(ASC_APP, 'en-US', 'APP_IPHONE_67')).toEqual([]);
    expect(p.asc.reviewSubmissions(ASC_APP)).toEqual([]);
    expect(done.submission).toBeNull();

    const again = await planVariant(p, job, sc, STUDENTS);
    expect(again.plan).toMatchObject({ upload: 0, keep: 5, delete: 0, reorder: 0 });
    const before = p.asc.calls.length;
    expect((await approveAndRun(p, again.id)).status).toBe('published');
    expect(p.asc.calls.slice(before).filter((c) => c.method !== 'GET')).toEqual([]);

    // Slide 2 changed and slides 4 and 5 swapped.
    const edited = await succeededJob(p, { device: 'iphone-69', seeds: [1, 9, 3, 5, 4] });
    const third = await planVariant(p, edited, sc, STUDENTS);
    expect(third.plan).toMatchObject({ upload: 1, delete: 1, keep: 2, reorder: 2 });
    expect((await approveAndRun(p, third.id)).status).toBe('published');
    expect(onPage()).toEqual(await md5s([1, 9, 3, 5, 4]));
    expect(pages()).toHaveLength(1);
    expect(pages()[0].versions).toHaveLength(1);
    expect(p.asc.calls.filter((c) => c.method === 'POST' && c.path === '/v1/appScreenshots' && c.status === 201)).toHaveLength(6);
  });

  it('gives a page whose version is approved a new version, copied by the store, and uploads only what changed there', async () => {
    const sc = await connectAppStore(p);
    const first = await planVariant(p, await succeededJob(p, { device: 'iphone-69', seeds: [1, 2, 3] }), sc, STUDENTS);
    expect((await approveAndRun(p, first.id)).status).toBe('published');
    p.asc.setPageVersionState(pages()[0].versions[0].id, 'APPROVED');

    const edited = await succeededJob(p, { device: 'iphone-69', seeds: [1, 2, 7] });
    const second = await planVariant(p, edited, sc, STUDENTS);
    // No version can change yet: planned against nothing.
    expect(second.plan).toMatchObject({ upload: 3 });
    const done = await approveAndRun(p, second.id);
    expect(done.status, JSON.stringify(done.error)).toBe('published');
    // The new version started as a copy of the approved one, so the plan was made again against it.
    expect(done.plan).toMatchObject({ upload: 1, keep: 2, delete: 1 });
    const versions = pages()[0].versions;
    expect(versions.map((v) => [v.version, v.state])).toEqual([
      ['1', 'APPROVED'],
      ['2', 'PREPARE_FOR_SUBMISSION'],
    ]);
    expect(onPage()).toEqual(await md5s([1, 2, 7]));
    const old = versions[0].localizations[0];
    expect(p.asc.localizationScreenshots(old.id, 'APP_IPHONE_67').map((s) => s.sourceFileChecksum)).toEqual(await md5s([1, 2, 3]));
    expect(done.variant.pageVersionId).toBe(versions[1].id);
  });

  it('finds a page by id, and adds a localization the page lacks', async () => {
    const sc = await connectAppStore(p);
    const first = await planVariant(p, await succeededJob(p, { device: 'iphone-69', seeds: [1] }), sc, {
      kind: 'custom-product-page',
      name: 'Cooks',
    });
    const done = await approveAndRun(p, first.id);
    const job = await succeededJob(p, { device: 'iphone-69', locales: ['en-US', 'de-DE'], seeds: [1, 2] });
    const byId = await planVariant(p, job, sc, { kind: 'custom-product-page', name: 'ignored', id: done.variant.pageId, visible: true });
    expect((await approveAndRun(p, byId.id)).status).toBe('published');
    expect(pages().map((x) => [x.name, x.visible])).toEqual([['Cooks', true]]);
    expect(pages()[0].versions[0].localizations.map((l) => l.locale)).toEqual(['en-US', 'de-DE']);
    expect(onPage('de-DE')).toEqual([md5(await png(1 + 1000)), md5(await png(2 + 1000))]);
  });

  it('fails with the store’s code and text at the page limit, and leaves nothing behind', async () => {
    const sc = await connectAppStore(p);
    p.asc.setCustomProductPageLimit(1);
    const job = await succeededJob(p, { device: 'iphone-69', seeds: [1, 2] });
    expect((await approveAndRun(p, (await planVariant(p, job, sc, STUDENTS)).id)).status).toBe('published');
    const reservations = p.asc.calls.filter((c) => c.method === 'POST' && c.path === '/v1/appScreenshots').length;
    const refused = await approveAndRun(p, (await planVariant(p, job, sc, { kind: 'custom-product-page', name: 'Parents' })).id);
    expect(refused.status).toBe('failed');
    expect(refused.error).toMatchObject({
      code: 'store_refused',
      storeError: {
        code: 'ENTITY_ERROR.ATTRIBUTE.INVALID',
        detail: expect.stringMatching(/already has 1 custom product pages, the most it can have/),
      },
    });
    expect(refused.error.message).toMatch(/ENTITY_ERROR.ATTRIBUTE.INVALID/);
    expect(pages().map((x) => x.name)).toEqual(['Students']);
    expect(p.asc.calls.filter((c) => c.method === 'POST' && c.path === '/v1/appScreenshots')).toHaveLength(reservations);
  });

  it('refuses texts for a locale the set cannot reach, and any variant on Google Play, naming what the Play Console needs', async () => {
    const sc = await connectAppStore(p);
    const job = await succeededJob(p, { device: 'iphone-69', seeds: [1] });
    const bad = await p.post('/publications', { jobId: job, connectionId: sc, target: { ...STUDENTS, keywords: { ja: ['x'] } } });
    expect(bad.statusCode, bad.body).toBe(400);
    expect(bad.json().errors).toEqual([{ field: 'target/keywords/ja', message: expect.stringMatching(/no locale of this language/) }]);

    const play = await p.post('/store-connections', { store: 'google-play', serviceAccount: p.serviceAccount });
    const android = await succeededJob(p, { device: 'android-phone', seeds: [1] });
    for (const target of [STUDENTS, { kind: 'experiment-treatment', experiment: { name: 'T' }, treatment: 'B' }]) {
      const res = await p.post('/publications', { jobId: android, connectionId: play.json().id, target });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toMatchObject({ code: 'store_api_unsupported', errors: [{ field: 'target/kind' }] });
      expect(res.json().detail).toMatch(/Play Console .*Custom store listings.*Store listing experiments/);
      // The variant's own ZIP for the Play Console, signed like the set's archive URL.
      const name = target.kind === 'custom-product-page' ? 'Students' : 'T-B';
      const { variantArchive } = res.json();
      expect(variantArchive).toEqual({
        name,
        url: expect.stringMatching(new RegExp(`/public/v1/jobs/${android}/archive\\.zip\\?expires=\\d+&sig=[\\w-]{43}&variant=${name}$`)),
      });
      const url = new URL(variantArchive.url);
      // Signed: no key needed, and the signature holds (this test's set has no slides: 404, not 403).
      const download = await p.h.app.inject({ method: 'GET', url: url.pathname + url.search });
      expect(download.json().code, download.body).toBe('job_not_found');
    }
    const plain = await p.post('/publications', { jobId: android, connectionId: play.json().id, target: { kind: 'product-page' } });
    expect(plain.statusCode, plain.body).toBe(201);
    const count = await p.h.t.pool.query(`SELECT count(*)::int AS n FROM publications`);
    expect(count.rows[0].n).toBe(1);
  });

  it('on an App Asset Library connection, places the pictures on the page’s localization', async () => {
    const res = await p.post('/store-connections', {
      store: 'app-store',
      issuerId: p.ascKey.issuerId,
      keyId: p.ascKey.keyId,
      privateKey: p.ascKey.privateKeyPem,
      appStoreUpload: 'asset-library',
    });
    const job = await succeededJob(p, { device: 'iphone-69', seeds: [1, 2, 3], size: [1290, 2796] });
    const first = await planVariant(p, job, res.json().id, STUDENTS);
    expect(first.plan).toMatchObject({ upload: 3 });
    expect(first.plan.items[0].slot).toBe('IPHONE_DYNAMIC_ISLAND_LARGE_PROFILE');
    const done = await approveAndRun(p, first.id);
    expect(done.status, JSON.stringify(done.error)).toBe('published');
    const locId = pages()[0].versions[0].localizations[0].id;
    const pictures = await Promise.all([1, 2, 3].map(async (s) => md5(await png(s, 1290, 2796))));
    expect(p.asc.localizationPlacements(locId, 'IPHONE_DYNAMIC_ISLAND_LARGE_PROFILE')).toEqual(pictures);
    // The product page's own localization has none.
    expect(p.asc.placements(ASC_APP, 'en-US', 'IPHONE_DYNAMIC_ISLAND_LARGE_PROFILE')).toEqual([]);
    const again = await planVariant(p, job, res.json().id, STUDENTS);
    expect(again.plan).toMatchObject({ upload: 0, keep: 3 });
  });

  it('is sent to review only on request, and a second submit sends nothing more; the variants list shows it with its set', async () => {
    const sc = await connectAppStore(p);
    const job = await succeededJob(p, { device: 'iphone-69', seeds: [1, 2] });
    const planned = await planVariant(p, job, sc, STUDENTS);
    const early = await p.post(`/publications/${planned.id}/submit`);
    expect(early.statusCode, early.body).toBe(409);
    expect(early.json().code).toBe('publication_not_ready');
    const done = await approveAndRun(p, planned.id);
    expect(p.asc.reviewSubmissions(ASC_APP)).toEqual([]);

    const submitted = await p.post(`/publications/${done.id}/submit`);
    expect(submitted.statusCode, submitted.body).toBe(200);
    const [review] = p.asc.reviewSubmissions(ASC_APP);
    expect(review).toEqual({
      id: expect.any(String),
      state: 'WAITING_FOR_REVIEW',
      items: [{ type: 'appCustomProductPageVersions', id: done.variant.pageVersionId, state: 'READY_FOR_REVIEW' }],
    });
    expect(submitted.json().submission).toEqual({ reviewSubmissionId: review.id, submittedAt: expect.any(String) });
    expect(pages()[0].versions[0].state).toBe('WAITING_FOR_REVIEW');

    const calls = p.asc.calls.length;
    const again = await p.post(`/publications/${done.id}/submit`);
    expect(again.statusCode).toBe(200);
    expect(again.json().submission).toEqual(submitted.json().submission);
    expect(p.asc.calls.length).toBe(calls);
    expect(p.asc.reviewSubmissions(ASC_APP)).toHaveLength(1);

    const appId = (await p.h.t.pool.query(`SELECT app_id FROM jobs WHERE id = $1`, [job])).rows[0].app_id;
    const variants = await p.get(`/apps/${appId}/variants`);
    expect(variants.statusCode, variants.body).toBe(200);
    expect(variants.json()).toEqual({
      appId,
      storeAppId: ASC_APP,
      connectionId: sc,
      customProductPages: [
        {
          id: done.variant.pageId,
          name: 'Students',
          url: done.variant.url,
          visible: false,
          state: 'WAITING_FOR_REVIEW',
          version: '1',
          versions: [{ id: done.variant.pageVersionId, version: '1', state: 'WAITING_FOR_REVIEW' }],
          jobId: job,
          publicationId: done.id,
        },
      ],
      experiments: [],
    });
    expect((await p.get('/apps/app_01JD2ZK5T8Q3W4E5R6T7Y8U9WH/variants')).json().code).toBe('app_not_found');

    const plain = await approveAndRun(p, (await planVariant(p, job, sc, { kind: 'product-page' })).id);
    const refused = await p.post(`/publications/${plain.id}/submit`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toMatch(/goes to App Review with its app version/);
  });

  it('does not send along what someone else put in an open review submission', async () => {
    const sc = await connectAppStore(p);
    const done = await approveAndRun(
      p,
      (await planVariant(p, await succeededJob(p, { device: 'iphone-69', seeds: [1] }), sc, STUDENTS)).id,
    );
    // Someone prepares a submission by hand in App Store Connect with a page of their own.
    const call = ascClient(p.asc.url, p.ascKey);
    const theirs = await call('POST', '/v1/appCustomProductPages', {
      data: {
        type: 'appCustomProductPages',
        attributes: { name: 'Theirs' },
        relationships: { app: { data: { type: 'apps', id: ASC_APP } } },
      },
    });
    const versions = await call('GET', `/v1/appCustomProductPages/${theirs.body.data.id}/appCustomProductPageVersions`);
    const submission = await call('POST', '/v1/reviewSubmissions', {
      data: { type: 'reviewSubmissions', attributes: { platform: 'IOS' }, relationships: { app: { data: { type: 'apps', id: ASC_APP } } } },
    });
    const item = await call('POST', '/v1/reviewSubmissionItems', {
      data: {
        type: 'reviewSubmissionItems',
        relationships: {
          reviewSubmission: { data: { type: 'reviewSubmissions', id: submission.body.data.id } },
          appCustomProductPageVersion: { data: { type: 'appCustomProductPageVersions', id: versions.body.data[0].id } },
        },
      },
    });
    expect(item.status).toBe(201);
    const refused = await p.post(`/publications/${done.id}/submit`);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'store_refused', detail: expect.stringMatching(/1 item\(s\) shotgen did not put there/) });
    expect(p.asc.reviewSubmissions(ASC_APP)).toEqual([
      expect.objectContaining({ state: 'READY_FOR_REVIEW', items: [expect.objectContaining({ id: versions.body.data[0].id })] }),
    ]);
    expect((await p.get(`/publications/${done.id}`)).json().submission).toBeNull();
  });
});
