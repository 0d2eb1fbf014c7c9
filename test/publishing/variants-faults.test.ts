/**
 * The variants' own calls under faults: 503, 504 and 429 on every new kind of call (three in a
 * row, the fourth passes: FAST_RETRY allows four), and answers lost after the store did the work
 * on every call that makes or changes something. Each run must end with exactly one page,
 * version, test, treatment and localization where one is wanted, the set in order, and nothing
 * reserved or submitted twice.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FakeCall } from '../../src/fake-stores/types.ts';
import { md5, png } from '../fake-stores/helpers.ts';
import {
  approveAndRun,
  ASC_APP,
  connectAppStore,
  planVariant,
  publishingHarness,
  succeededJob,
  type PublishingHarness,
} from './support.ts';

interface Kind {
  name: string;
  method: string;
  path: RegExp;
}

const PAGE_KINDS: Kind[] = [
  { name: 'versions', method: 'GET', path: /^\/v1\/apps\/[^/]+\/appStoreVersions/ },
  { name: 'list pages', method: 'GET', path: /^\/v1\/apps\/[^/]+\/appCustomProductPages/ },
  { name: 'create a page', method: 'POST', path: /^\/v1\/appCustomProductPages$/ },
  { name: 'show or hide a page', method: 'PATCH', path: /^\/v1\/appCustomProductPages\/[^/?]+$/ },
  { name: 'page versions', method: 'GET', path: /^\/v1\/appCustomProductPages\/[^/]+\/appCustomProductPageVersions/ },
  { name: 'create a page version', method: 'POST', path: /^\/v1\/appCustomProductPageVersions$/ },
  { name: 'page localizations', method: 'GET', path: /^\/v1\/appCustomProductPageVersions\/[^/]+\/appCustomProductPageLocalizations/ },
  { name: 'create a page localization', method: 'POST', path: /^\/v1\/appCustomProductPageLocalizations$/ },
  { name: 'promotional text', method: 'PATCH', path: /^\/v1\/appCustomProductPageLocalizations\/[^/?]+$/ },
  { name: 'keywords', method: 'GET', path: /^\/v1\/appCustomProductPageLocalizations\/[^/]+\/searchKeywords/ },
  { name: 'add keywords', method: 'POST', path: /\/relationships\/searchKeywords$/ },
  { name: 'remove keywords', method: 'DELETE', path: /\/relationships\/searchKeywords$/ },
  { name: "a page localization's sets", method: 'GET', path: /^\/v1\/appCustomProductPageLocalizations\/[^/]+\/appScreenshotSets/ },
  { name: 'create a set', method: 'POST', path: /^\/v1\/appScreenshotSets$/ },
  { name: 'reserve', method: 'POST', path: /^\/v1\/appScreenshots$/ },
  { name: 'commit', method: 'PATCH', path: /^\/v1\/appScreenshots\/[^/?]+$/ },
  { name: 'order', method: 'PATCH', path: /^\/v1\/appScreenshotSets\/[^/]+\/relationships\/appScreenshots$/ },
];

const TEST_KINDS: Kind[] = [
  { name: 'list tests', method: 'GET', path: /^\/v1\/apps\/[^/]+\/appStoreVersionExperimentsV2/ },
  { name: 'create a test', method: 'POST', path: /^\/v2\/appStoreVersionExperiments$/ },
  { name: 'change traffic', method: 'PATCH', path: /^\/v2\/appStoreVersionExperiments\/[^/?]+$/ },
  { name: 'treatments', method: 'GET', path: /^\/v2\/appStoreVersionExperiments\/[^/]+\/appStoreVersionExperimentTreatments/ },
  { name: 'create a treatment', method: 'POST', path: /^\/v1\/appStoreVersionExperimentTreatments$/ },
  {
    name: 'treatment localizations',
    method: 'GET',
    path: /^\/v1\/appStoreVersionExperimentTreatments\/[^/]+\/appStoreVersionExperimentTreatmentLocalizations/,
  },
  { name: 'create a treatment localization', method: 'POST', path: /^\/v1\/appStoreVersionExperimentTreatmentLocalizations$/ },
  {
    name: "a treatment localization's sets",
    method: 'GET',
    path: /^\/v1\/appStoreVersionExperimentTreatmentLocalizations\/[^/]+\/appScreenshotSets/,
  },
];

const REVIEW_KINDS: Kind[] = [
  { name: 'read the test', method: 'GET', path: /^\/v2\/appStoreVersionExperiments\/[^/?]+(\?|$)/ },
  { name: 'review submissions', method: 'GET', path: /^\/v1\/reviewSubmissions\?/ },
  { name: 'create a submission', method: 'POST', path: /^\/v1\/reviewSubmissions$/ },
  { name: 'submission items', method: 'GET', path: /^\/v1\/reviewSubmissions\/[^/]+\/items/ },
  { name: 'add an item', method: 'POST', path: /^\/v1\/reviewSubmissionItems$/ },
  { name: 'submit', method: 'PATCH', path: /^\/v1\/reviewSubmissions\/[^/?]+$/ },
  { name: 'start', method: 'PATCH', path: /^\/v2\/appStoreVersionExperiments\/[^/?]+$/ },
];

const STATUSES = [503, 504, 429];
const matches = (k: Kind) => (c: FakeCall) => c.method === k.method && k.path.test(c.path);

let p: PublishingHarness;
beforeEach(async () => {
  p = await publishingHarness();
});
afterEach(async () => p.close());

function injectAll(kinds: Kind[]) {
  for (const k of kinds)
    for (const status of STATUSES)
      p.asc.fail({ method: k.method, path: k.path, status, headers: status === 429 ? { 'Retry-After': '0' } : undefined });
}
const unspent = (kinds: Kind[]) =>
  kinds.filter((k) => STATUSES.some((s) => !p.asc.calls.some((c) => matches(k)(c) && c.status === s))).map((k) => k.name);
const sums = (seeds: number[], offset = 0) => Promise.all(seeds.map(async (s) => md5(await png(s + offset))));
const created = (path: string) => p.asc.calls.filter((c) => c.method === 'POST' && c.path === path && c.status === 201).length;

async function publish(seeds: number[], target: unknown, locales?: string[]) {
  const sc = await connectAppStore(p);
  const job = await succeededJob(p, { device: 'iphone-69', seeds, ...(locales ? { locales } : {}) });
  const done = await approveAndRun(p, (await planVariant(p, job, sc, target)).id);
  expect(done.status, JSON.stringify(done.error)).toBe('published');
  return done;
}

/** The page's newest version, per locale, as checksums. */
function pageState() {
  const pages = p.asc.customProductPages(ASC_APP);
  return pages.map((page) => ({
    name: page.name,
    visible: page.visible,
    versions: page.versions.map((v) => v.state),
    locales: Object.fromEntries(
      page.versions.at(-1)!.localizations.map((l) => [
        l.locale,
        {
          promo: l.promotionalText,
          keywords: l.keywords,
          shots: p.asc.localizationScreenshots(l.id, 'APP_IPHONE_67').map((s) => s.sourceFileChecksum),
        },
      ]),
    ),
  }));
}

describe('variants under 503, 504 and 429 on every new kind of call', () => {
  it('a custom product page: made, given a locale and new texts, a new version, submitted; one of each', async () => {
    const page = (extra: Record<string, unknown>) => ({ kind: 'custom-product-page', name: 'Students', ...extra });
    injectAll(PAGE_KINDS);
    await publish([1, 2], page({ promotionalText: { 'en-US': 'One' }, keywords: { 'en-US': ['a', 'b'] } }));
    // The same page: a second locale (its localization made), new texts, shown.
    await publish([1, 3], page({ promotionalText: { 'en-US': 'Two' }, keywords: { 'en-US': ['b', 'c'] }, visible: true }), [
      'en-US',
      'de-DE',
    ]);
    p.asc.setPageVersionState(p.asc.customProductPages(ASC_APP)[0].versions[0].id, 'APPROVED');
    const last = await publish([4, 3], page({}), ['en-US', 'de-DE']);
    expect(unspent(PAGE_KINDS)).toEqual([]);
    expect(pageState()).toEqual([
      {
        name: 'Students',
        visible: true,
        versions: ['APPROVED', 'PREPARE_FOR_SUBMISSION'],
        locales: {
          'en-US': { promo: 'Two', keywords: ['b', 'c'], shots: await sums([4, 3]) },
          'de-DE': { promo: null, keywords: [], shots: await sums([4, 3], 1000) },
        },
      },
    ]);
    expect(created('/v1/appCustomProductPages')).toBe(1);
    expect(created('/v1/appCustomProductPageVersions')).toBe(1);
    expect(created('/v1/appCustomProductPageLocalizations')).toBe(1);

    injectAll(REVIEW_KINDS.filter((k) => !['read the test', 'start'].includes(k.name)));
    const submitted = await p.post(`/publications/${last.id}/submit`);
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(p.asc.reviewSubmissions(ASC_APP)).toEqual([
      {
        id: expect.any(String),
        state: 'WAITING_FOR_REVIEW',
        items: [{ type: 'appCustomProductPageVersions', id: last.variant.pageVersionId, state: 'READY_FOR_REVIEW' }],
      },
    ]);
  });

  it('a test: made, three treatments each with a localization, submitted once and started; one of each', async () => {
    p.asc.setVersionState(ASC_APP, 'READY_FOR_SALE');
    injectAll(TEST_KINDS);
    const done = [];
    for (const [t, seeds] of [
      ['A', [1, 2]],
      ['B', [3, 4]],
      ['C', [5, 6]],
    ] as const)
      done.push(
        await publish([...seeds], {
          kind: 'experiment-treatment',
          experiment: { name: 'Spring', trafficProportion: t === 'C' ? 60 : 30 },
          treatment: t,
        }),
      );
    expect(unspent(TEST_KINDS)).toEqual([]);
    const [test] = p.asc.experiments(ASC_APP);
    expect(p.asc.experiments(ASC_APP)).toHaveLength(1);
    expect(test.trafficProportion).toBe(60);
    expect(test.treatments.map((t) => [t.name, t.localizations.map((l) => l.locale)])).toEqual([
      ['A', ['en-US']],
      ['B', ['en-US']],
      ['C', ['en-US']],
    ]);
    for (const [i, t] of test.treatments.entries())
      expect(p.asc.localizationScreenshots(t.localizations[0].id, 'APP_IPHONE_67').map((s) => s.sourceFileChecksum)).toEqual(
        await sums([1 + 2 * i, 2 + 2 * i]),
      );

    injectAll(REVIEW_KINDS.filter((k) => k.name !== 'start'));
    for (const d of done) expect((await p.post(`/publications/${d.id}/submit`)).statusCode).toBe(200);
    expect(p.asc.reviewSubmissions(ASC_APP).map((s) => [s.state, s.items.length])).toEqual([['WAITING_FOR_REVIEW', 1]]);
    p.asc.completeReview(ASC_APP);
    injectAll(REVIEW_KINDS.filter((k) => k.name === 'start' || k.name === 'read the test'));
    const started = await p.post(`/experiments/${test.id}/start`);
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().running).toBe(true);
    expect(unspent(REVIEW_KINDS)).toEqual([]);
  });
});

describe('variants with answers lost after the store did the work', () => {
  it('on every creation and change, leave no duplicate page, version, localization, test, treatment or submission', async () => {
    const lost = [...PAGE_KINDS, ...TEST_KINDS, ...REVIEW_KINDS].filter((k) => k.method !== 'GET' && k.name !== 'start');
    for (const k of lost) p.asc.fail({ method: k.method, path: k.path, status: 503, after: true });
    p.asc.setVersionState(ASC_APP, 'READY_FOR_SALE');
    const page = { kind: 'custom-product-page', name: 'Students', keywords: { 'en-US': ['a'] } };
    await publish([1], page);
    await publish([2], { ...page, promotionalText: { 'en-US': 'Two' }, keywords: { 'en-US': ['b'] }, visible: true }, ['en-US', 'de-DE']);
    p.asc.setPageVersionState(p.asc.customProductPages(ASC_APP)[0].versions[0].id, 'APPROVED');
    const pagePub = await publish([3], page, ['en-US', 'de-DE']);
    const treatments = [];
    for (const t of ['A', 'B'])
      treatments.push(
        await publish([4], {
          kind: 'experiment-treatment',
          experiment: { name: 'Spring', trafficProportion: t === 'B' ? 50 : 30 },
          treatment: t,
        }),
      );
    expect((await p.post(`/publications/${pagePub.id}/submit`)).statusCode).toBe(200);
    for (const t of treatments) expect((await p.post(`/publications/${t.id}/submit`)).statusCode).toBe(200);

    for (const k of lost)
      expect(
        p.asc.calls.some((c) => matches(k)(c) && c.status === 503),
        k.name,
      ).toBe(true);
    expect(pageState()).toEqual([
      {
        name: 'Students',
        visible: true,
        versions: ['APPROVED', 'WAITING_FOR_REVIEW'],
        locales: {
          'en-US': { promo: 'Two', keywords: ['a'], shots: await sums([3]) },
          'de-DE': { promo: null, keywords: [], shots: await sums([3], 1000) },
        },
      },
    ]);
    const tests = p.asc.experiments(ASC_APP);
    expect(tests.map((t) => [t.name, t.state, t.trafficProportion, t.treatments.map((x) => [x.name, x.localizations.length])])).toEqual([
      [
        'Spring',
        'WAITING_FOR_REVIEW',
        50,
        [
          ['A', 1],
          ['B', 1],
        ],
      ],
    ]);
    // One submission for the page version, one for the test; B's submit found the test sent already.
    expect(p.asc.reviewSubmissions(ASC_APP).map((r) => [r.state, r.items.map((i) => i.type)])).toEqual([
      ['WAITING_FOR_REVIEW', ['appCustomProductPageVersions']],
      ['WAITING_FOR_REVIEW', ['appStoreVersionExperiments']],
    ]);
  });
});
