import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { md5 } from '../fake-stores/helpers.ts';
import { png } from '../fake-stores/helpers.ts';
import { ASC_APP, connectAppStore, type PublishingHarness, succeededJob, publishingHarness } from './support.ts';

let p: PublishingHarness;
beforeEach(async () => {
  p = await publishingHarness();
});
afterEach(async () => p.close());

const connect = () => connectAppStore(p);

async function publish(jobId: string, connectionId: string, locales?: Record<string, string>) {
  const created = await p.post('/publications', { jobId, connectionId, ...(locales ? { locales } : {}) });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().id as string;
  expect(created.json().status).toBe('planning');
  await p.drain();
  const planned = (await p.get(`/publications/${id}`)).json();
  expect(planned.status, JSON.stringify(planned.error)).toBe('awaiting_approval');
  return { id, planned };
}

async function approveAndRun(id: string) {
  const res = await p.post(`/publications/${id}/approve`);
  expect(res.statusCode, res.body).toBe(202);
  await p.drain();
  return (await p.get(`/publications/${id}`)).json();
}

const shots = (locale = 'en-US') => p.asc.screenshots(ASC_APP, locale, 'APP_IPHONE_67');

describe('publishing to App Store Connect (fake)', () => {
  it('publishes a 5-slide set exactly and in order; the same set again plans zero uploads; an edited set uploads only what changed', async () => {
    const sc = await connect();
    const job = await succeededJob(p, { device: 'iphone-69', seeds: [1, 2, 3, 4, 5] });
    const first = await publish(job, sc);
    expect(first.planned.plan).toMatchObject({ upload: 5, keep: 0, delete: 0 });
    expect(first.planned.locales).toEqual({ en: 'en-US' });
    const done = await approveAndRun(first.id);
    expect(done.status, JSON.stringify(done.error)).toBe('published');
    const expected = await Promise.all([1, 2, 3, 4, 5].map(async (s) => md5(await png(s))));
    expect(shots().map((s) => s.sourceFileChecksum)).toEqual(expected);
    expect(shots().every((s) => s.assetDeliveryState === 'COMPLETE')).toBe(true);

    const again = await publish(job, sc);
    expect(again.planned.plan).toMatchObject({ upload: 0, keep: 5, delete: 0, reorder: 0 });
    const callsBefore = p.asc.calls.length;
    expect((await approveAndRun(again.id)).status).toBe('published');
    expect(p.asc.calls.slice(callsBefore).filter((c) => c.method !== 'GET')).toEqual([]);

    // Slide 2 changed and slides 4 and 5 swapped: one upload, one delete, the rest reordered or kept.
    const edited = await succeededJob(p, { device: 'iphone-69', seeds: [1, 9, 3, 5, 4] });
    const third = await publish(edited, sc);
    expect(third.planned.plan).toMatchObject({ upload: 1, delete: 1, keep: 2, reorder: 2 });
    expect((await approveAndRun(third.id)).status).toBe('published');
    expect(shots().map((s) => s.sourceFileChecksum)).toEqual(await Promise.all([1, 9, 3, 5, 4].map(async (s) => md5(await png(s)))));
  });

  it('refuses a version that is not editable, never creating one', async () => {
    const sc = await connect();
    p.asc.setVersionState(ASC_APP, 'READY_FOR_SALE');
    const job = await succeededJob(p, { device: 'iphone-65', seeds: [1, 2] });
    const res = await p.post('/publications', { jobId: job, connectionId: sc });
    await p.drain();
    const pub = (await p.get(`/publications/${res.json().id}`)).json();
    expect(pub.status).toBe('failed');
    expect(pub.error.message).toMatch(/no iOS version whose screenshots can be edited/);
    expect(p.asc.calls.some((c) => c.method === 'POST' && c.path.startsWith('/v1/appStoreVersions'))).toBe(false);
  });

  // A Mac set goes to the MAC_OS version's APP_DESKTOP: mac.test.ts.
  it('puts a 6.3" iPhone set in APP_IPHONE_61 and a 13" iPad set in APP_IPAD_PRO_3GEN_129', async () => {
    const sc = await connect();
    for (const [device, type] of [
      ['iphone-63', 'APP_IPHONE_61'],
      ['ipad-13', 'APP_IPAD_PRO_3GEN_129'],
    ] as const) {
      const job = await succeededJob(p, { device, seeds: [4, 5] });
      const { id } = await publish(job, sc);
      expect((await approveAndRun(id)).status).toBe('published');
      expect(p.asc.screenshots(ASC_APP, 'en-US', type).map((s) => s.sourceFileChecksum)).toEqual(
        await Promise.all([4, 5].map(async (s) => md5(await png(s)))),
      );
    }
    expect(shots()).toEqual([]);
  });

  it('publishes several locales, each to its own localization', async () => {
    const sc = await connect();
    const job = await succeededJob(p, { device: 'iphone-69', locales: ['en-US', 'de-DE'], seeds: [1, 2, 3] });
    const { id, planned } = await publish(job, sc);
    expect(planned.plan.upload).toBe(6);
    expect((await approveAndRun(id)).status).toBe('published');
    expect(shots('en-US')).toHaveLength(3);
    expect(shots('de-DE')).toHaveLength(3);
    expect(shots('fr-FR')).toHaveLength(0);
  });
});
