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
});
