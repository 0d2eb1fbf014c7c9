import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { md5, png } from '../fake-stores/helpers.ts';
import { ASC_APP, connectAppStore, type PublishingHarness, succeededJob, publishingHarness } from './support.ts';

let p: PublishingHarness;
let sc: string;
beforeEach(async () => {
  p = await publishingHarness();
  sc = await connectAppStore(p);
});
afterEach(async () => p.close());

const shots = () => p.asc.screenshots(ASC_APP, 'en-US', 'APP_IPHONE_67');
const sums = (seeds: number[]) => Promise.all(seeds.map(async (s) => md5(await png(s))));

async function plannedPublication(seeds: number[]): Promise<string> {
  const job = await succeededJob(p, { device: 'iphone-69', seeds });
  const id = (await p.post('/publications', { jobId: job, connectionId: sc })).json().id;
  await p.drain();
  return id;
}

async function approveAndRun(id: string) {
  await p.post(`/publications/${id}/approve`);
  await p.drain();
  return (await p.get(`/publications/${id}`)).json();
}

describe('App Store Connect faults', () => {
  it('rides out 503 on reserve, 504 on commit, 503 on an upload part and 429 with Retry-After, with no duplicate', async () => {
    const id = await plannedPublication([1, 2, 3]);
    p.asc.fail({ method: 'POST', path: /^\/v1\/appScreenshots$/, status: 503, times: 2 });
    p.asc.fail({ method: 'PATCH', path: /^\/v1\/appScreenshots\//, status: 504, times: 2 });
    p.asc.fail({ method: 'PUT', path: /^\/upload\//, status: 503, times: 1 });
    p.asc.fail({ method: 'GET', path: /^\/v1\/appScreenshots\//, status: 429, times: 1, headers: { 'Retry-After': '1' } });
    const started = Date.now();
    const done = await approveAndRun(id);
    expect(done.status, JSON.stringify(done.error)).toBe('published');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(shots().map((s) => s.sourceFileChecksum)).toEqual(await sums([1, 2, 3]));
    expect(p.asc.calls.filter((c) => c.method === 'POST' && c.path === '/v1/appScreenshots' && c.status === 201)).toHaveLength(3);
  });

  it('answers lost after the work (reserve, commit) or a dropped connection leave no duplicate reservation', async () => {
    const id = await plannedPublication([1, 2, 3]);
    p.asc.fail({ method: 'POST', path: /^\/v1\/appScreenshots$/, status: 503, after: true, times: 1 });
    p.asc.fail({ method: 'POST', path: /^\/v1\/appScreenshots$/, status: 0, drop: true, after: true, times: 1 });
    p.asc.fail({ method: 'PATCH', path: /^\/v1\/appScreenshots\//, status: 504, after: true, times: 1 });
    p.asc.fail({ method: 'POST', path: /^\/v1\/appScreenshots$/, status: 429, times: 1, headers: { 'Retry-After': '1' } });
    const done = await approveAndRun(id);
    expect(done.status, JSON.stringify(done.error)).toBe('published');
    expect(shots().map((s) => s.sourceFileChecksum)).toEqual(await sums([1, 2, 3]));
    // Reservations were made whose answers never arrived: found by name and removed, not left behind.
    expect(p.asc.calls.filter((c) => c.method === 'POST' && c.path === '/v1/appScreenshots').length).toBeGreaterThanOrEqual(5);
  });

  it('a store down past the retries leaves the publication applying for the task to retry, and the retry finishes it', async () => {
    const id = await plannedPublication([1, 2]);
    p.asc.fail({ method: 'POST', path: /^\/v1\/appScreenshots$/, status: 503, times: 5 });
    await p.post(`/publications/${id}/approve`);
    await expect(p.drain({ lastAttempt: false })).rejects.toThrow(/503/);
    expect((await p.get(`/publications/${id}`)).json().status).toBe('applying');
    p.queued.push(id);
    await p.drain();
    expect((await p.get(`/publications/${id}`)).json().status).toBe('published');
    expect(shots()).toHaveLength(2);
  });

  it('a FAILED delivery fails the publication with the store’s reason', async () => {
    const id = await plannedPublication([1, 2]);
    const first = (await p.get(`/publications/${id}`)).json().plan.items[0];
    expect(first.action).toBe('upload');
    p.asc.failDelivery(`shotgen-${id.slice(-10).toLowerCase()}-1-1.png`);
    const done = await approveAndRun(id);
    expect(done.status).toBe('failed');
    expect(done.error.message).toMatch(/could not process slides\/1.png/);
  });

  it('a delete that does not take is tried again until it does', async () => {
    const first = await plannedPublication([1, 2, 3]);
    expect((await approveAndRun(first)).status).toBe('published');
    const id = await plannedPublication([1, 2]);
    expect((await p.get(`/publications/${id}`)).json().plan).toMatchObject({ keep: 2, delete: 1 });
    p.asc.ignoreDeletes(2);
    const done = await approveAndRun(id);
    expect(done.status, JSON.stringify(done.error)).toBe('published');
    expect(shots().map((s) => s.sourceFileChecksum)).toEqual(await sums([1, 2]));
  });

  it('a store changed after planning is planned again before anything is applied', async () => {
    const id = await plannedPublication([1, 2]);
    const other = await plannedPublication([7]);
    expect((await approveAndRun(other)).status).toBe('published');
    const done = await approveAndRun(id);
    expect(done.status).toBe('published');
    expect(done.plan).toMatchObject({ upload: 2, delete: 1 });
    expect(shots().map((s) => s.sourceFileChecksum)).toEqual(await sums([1, 2]));
  });

  it('a revoked key fails the publication with store_credentials_rejected', async () => {
    const id = await plannedPublication([1]);
    p.asc.removeKey(p.ascKey.keyId);
    const done = await approveAndRun(id);
    expect(done.status).toBe('failed');
    expect(done.error.code).toBe('store_credentials_rejected');
    expect(shots()).toHaveLength(0);
  });
});
