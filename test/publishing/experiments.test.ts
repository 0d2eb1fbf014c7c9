/**
 * Sets published as the treatments of a product page optimization test (target
 * `experiment-treatment`): the test, each treatment and its localizations found or made on
 * approval, and Apple's limits (three treatments, one running test, a released version needed)
 * as `store_refused` with Apple's code and text, nothing left behind.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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

let p: PublishingHarness;
beforeEach(async () => {
  p = await publishingHarness();
});
afterEach(async () => p.close());

const treatment = (name: string, extra: Record<string, unknown> = {}) => ({
  kind: 'experiment-treatment',
  experiment: { name: 'Spring screenshots', ...extra },
  treatment: name,
});
const md5s = (seeds: number[]) => Promise.all(seeds.map(async (s) => md5(await png(s))));
const tests = () => p.asc.experiments(ASC_APP);
const onTreatment = (name: string, locale = 'en-US') => {
  const t = tests()[0].treatments.find((x) => x.name === name)!;
  const l = t.localizations.find((x) => x.locale === locale)!;
  return p.asc.localizationScreenshots(l.id, 'APP_IPHONE_67').map((s) => s.sourceFileChecksum);
};
const reservations = () => p.asc.calls.filter((c) => c.method === 'POST' && c.path === '/v1/appScreenshots').length;

/** The app's only version is released: a test needs one, and its locales are the variants'. */
const released = () => p.asc.setVersionState(ASC_APP, 'READY_FOR_SALE');

async function publish(sc: string, seeds: number[], target: unknown) {
  const job = await succeededJob(p, { device: 'iphone-69', seeds });
  return approveAndRun(p, (await planVariant(p, job, sc, target)).id);
}

describe('publishing sets as the treatments of a test', () => {
  it('puts three sets in treatments A, B and C of one test; a fourth is refused with the store’s reason and nothing left behind', async () => {
    released();
    const sc = await connectAppStore(p);
    const published = [];
    for (const [name, seeds] of [
      ['A', [1, 2, 3]],
      ['B', [4, 5, 6]],
      ['C', [7, 8, 9]],
    ] as const) {
      const done = await publish(sc, [...seeds], treatment(name, { trafficProportion: 45 }));
      expect(done.status, JSON.stringify(done.error)).toBe('published');
      published.push(done);
    }
    expect(tests()).toHaveLength(1);
    expect(tests()[0]).toMatchObject({
      name: 'Spring screenshots',
      state: 'PREPARE_FOR_SUBMISSION',
      trafficProportion: 45,
      startDate: null,
    });
    expect(tests()[0].treatments.map((t) => t.name)).toEqual(['A', 'B', 'C']);
    expect(onTreatment('A')).toEqual(await md5s([1, 2, 3]));
    expect(onTreatment('B')).toEqual(await md5s([4, 5, 6]));
    expect(onTreatment('C')).toEqual(await md5s([7, 8, 9]));
    expect(new Set(published.map((x) => x.variant.experimentId))).toEqual(new Set([tests()[0].id]));
    expect(published.map((x) => x.variant.treatmentId)).toEqual(tests()[0].treatments.map((t) => t.id));

    // Re-publishing a treatment plans nothing.
    const again = await planVariant(p, published[1].jobId, sc, treatment('B'));
    expect(again.plan).toMatchObject({ upload: 0, keep: 3 });

    const before = reservations();
    const fourth = await publish(sc, [10, 11], treatment('D'));
    expect(fourth.status).toBe('failed');
    expect(fourth.error).toMatchObject({
      code: 'store_refused',
      storeError: { code: 'ENTITY_ERROR.RELATIONSHIP.INVALID', detail: expect.stringMatching(/at most 3 treatments/) },
    });
    expect(fourth.variant).toBeNull();
    expect(tests()).toHaveLength(1);
    expect(tests()[0].treatments.map((t) => t.name)).toEqual(['A', 'B', 'C']);
    expect(reservations()).toBe(before);
    expect(p.asc.reviewSubmissions(ASC_APP)).toEqual([]);
  });

  it('refuses a test for an app with no version ready for distribution, with Apple’s code, making nothing', async () => {
    const sc = await connectAppStore(p);
    const done = await publish(sc, [1, 2], treatment('A'));
    expect(done.status).toBe('failed');
    expect(done.error.storeError).toMatchObject({ code: 'STATE_ERROR.PPO_CREATE_ONLY_ALLOWED_WITH_APP_STORE_DISTRIBUTION' });
    expect(done.error.message).toMatch(/PPO_CREATE_ONLY_ALLOWED_WITH_APP_STORE_DISTRIBUTION/);
    expect(tests()).toEqual([]);
    expect(reservations()).toBe(0);
  });
  it('refuses a new test while another runs, and a treatment of the running one', async () => {
    released();
    const sc = await connectAppStore(p);
    expect((await publish(sc, [1], treatment('A'))).status).toBe('published');
    const running = tests()[0];
    p.asc.setExperimentState(running.id, 'APPROVED');
    const start = await p.post(`/experiments/${running.id}/start`);
    expect(start.statusCode, start.body).toBe(200);

    const other = await publish(sc, [2], { kind: 'experiment-treatment', experiment: { name: 'Autumn' }, treatment: 'A' });
    expect(other.status).toBe('failed');
    expect(other.error.storeError).toMatchObject({ code: 'STATE_ERROR', detail: expect.stringMatching(/running; only one test can run/) });
    const changed = await publish(sc, [3], treatment('B'));
    expect(changed.status).toBe('failed');
    expect(changed.error.message).toMatch(/'Spring screenshots' is running on App Store Connect; its treatments can no longer change/);
    expect(tests().map((t) => [t.name, t.treatments.length])).toEqual([['Spring screenshots', 1]]);
  });

  it('submits the test once for all its treatments, and starts it only on request, once approved', async () => {
    released();
    const sc = await connectAppStore(p);
    const a = await publish(sc, [1, 2], treatment('A'));
    const b = await publish(sc, [3, 4], treatment('B'));
    const test = tests()[0];
    expect((await p.post(`/experiments/${test.id}/start`)).json()).toMatchObject({
      code: 'store_refused',
      storeError: { code: 'STATE_ERROR', detail: expect.stringMatching(/only an approved test can start/) },
    });

    const first = await p.post(`/publications/${a.id}/submit`);
    expect(first.statusCode, first.body).toBe(200);
    expect(p.asc.reviewSubmissions(ASC_APP)).toEqual([
      {
        id: first.json().submission.reviewSubmissionId,
        state: 'WAITING_FOR_REVIEW',
        items: [{ type: 'appStoreVersionExperiments', id: test.id, state: 'READY_FOR_REVIEW' }],
      },
    ]);
    // B's publication is in the same test, sent already: nothing more is sent.
    const calls = p.asc.calls.length;
    const second = await p.post(`/publications/${b.id}/submit`);
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().submission.reviewSubmissionId).toBe(first.json().submission.reviewSubmissionId);
    expect(p.asc.calls.slice(calls).filter((c) => c.method !== 'GET')).toEqual([]);
    expect(tests()[0]).toMatchObject({ state: 'WAITING_FOR_REVIEW', startDate: null });

    p.asc.completeReview(ASC_APP);
    expect(tests()[0].startDate).toBeNull();
    const started = await p.post(`/experiments/${test.id}/start`);
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json()).toMatchObject({
      id: test.id,
      name: 'Spring screenshots',
      state: 'APPROVED',
      running: true,
      trafficProportion: 30,
    });
    const before = p.asc.calls.length;
    expect((await p.post(`/experiments/${test.id}/start`)).json().running).toBe(true);
    expect(p.asc.calls.slice(before).filter((c) => c.method !== 'GET')).toEqual([]);
    expect((await p.post('/experiments/not-ours/start')).json().code).toBe('experiment_not_found');

    const appId = (await p.h.t.pool.query(`SELECT app_id FROM jobs WHERE id = $1`, [a.jobId])).rows[0].app_id;
    const variants = (await p.get(`/apps/${appId}/variants`)).json();
    expect(variants.experiments).toEqual([
      {
        id: test.id,
        name: 'Spring screenshots',
        state: 'APPROVED',
        running: true,
        trafficProportion: 30,
        startDate: expect.any(String),
        endDate: null,
        treatments: [
          { id: a.variant.treatmentId, name: 'A', jobId: a.jobId, publicationId: a.id },
          { id: b.variant.treatmentId, name: 'B', jobId: b.jobId, publicationId: b.id },
        ],
      },
    ]);
  });
});
