/**
 * A finished job is answered from memory after its first read, without a promise: the same bytes
 * on every poll, Preference-Applied still said, and never to another account.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claimJobs, failJob } from '../../src/sets/job-queue.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { accountWithKey, insertApp } from '../support/fixtures.ts';
import { enqueueJobs } from '../support/jobs.ts';

describe('GET /public/v1/jobs/{id} of a finished job held in memory', () => {
  let h: TestApp;
  let jobId: string;
  beforeEach(async () => {
    h = await createTestApp();
    [jobId] = await enqueueJobs(h.t.pool, h.account.id, await insertApp(h.t.pool, h.account.id), 1);
    await claimJobs(h.t.pool, 'w', 1, 60_000);
    await failJob(h.t.pool, jobId, 'w', { code: 'planning_failed', message: 'x', retryable: false });
  });
  afterEach(async () => h.close());

  const get = (headers: Record<string, string>, prefer?: string) =>
    h.app.inject({ method: 'GET', url: `/api/v1/public/v1/jobs/${jobId}`, headers: { ...headers, ...(prefer ? { prefer } : {}) } });

  it('answers the same bytes from memory, with no query, and says Preference-Applied', async () => {
    const first = await get(h.auth);
    expect(first.statusCode).toBe(200);
    expect(first.json().status).toBe('failed');
    let queries = 0;
    const query = h.t.pool.query.bind(h.t.pool);
    h.t.pool.query = ((...args: Parameters<typeof query>) => (queries++, query(...args))) as typeof query;
    try {
      const again = await get(h.auth, 'wait=5');
      expect(again.statusCode).toBe(200);
      expect(again.body).toBe(first.body);
      expect(again.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(again.headers['preference-applied']).toBe('wait=5');
      expect(again.headers['retry-after']).toBeUndefined();
      expect(queries).toBe(0);
    } finally {
      h.t.pool.query = query;
    }
  });

  it('is job_not_found to another account even once held in memory', async () => {
    expect((await get(h.auth)).statusCode).toBe(200);
    const other = await accountWithKey(h.t.pool);
    const res = await get({ authorization: `Bearer ${other.key}` });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('job_not_found');
    expect(res.body).not.toContain(h.account.id);
  });

  it('refuses a request without a key before looking at the job', async () => {
    const res = await get({});
    expect(res.statusCode).toBe(401);
  });
});
