import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildServer } from '../../src/http/server.ts';
import { failJob, claimJobs } from '../../src/sets/job-queue.ts';
import { screenshotSetRunner } from '../../src/sets/run.ts';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { insertApp } from '../support/fixtures.ts';
import { enqueueJobs } from '../support/jobs.ts';

/** The value of one sample in Prometheus text, 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelPart = line.includes('{') ? line.slice(line.indexOf('{') + 1, line.indexOf('}')) : '';
    if (want.every((w) => labelPart.split(',').includes(w))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
}

describe('GET /metrics', () => {
  let h: TestApp;
  beforeEach(async () => {
    h = await createTestApp();
  });
  afterEach(async () => h.close());

  const scrape = async () => {
    const res = await h.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    return res.body;
  };

  it('counts requests by route pattern and status, never by raw path', async () => {
    const before = await scrape();
    const labels = { method: 'GET', route: '/api/v1/public/v1/account', status: '200' };
    for (let i = 0; i < 3; i++) await h.app.inject({ method: 'GET', url: '/api/v1/public/v1/account', headers: h.auth });
    await h.app.inject({ method: 'GET', url: '/api/v1/public/v1/jobs/job_01ARZ3NDEKTSV4RRFFQ69G5FAV', headers: h.auth });
    await h.app.inject({ method: 'GET', url: '/no/such/path/123' });
    const after = await scrape();
    expect(
      sample(after, 'shotgen_http_request_duration_seconds_count', labels) -
        sample(before, 'shotgen_http_request_duration_seconds_count', labels),
    ).toBe(3);
    expect(
      sample(after, 'shotgen_http_request_duration_seconds_count', { route: '/api/v1/public/v1/jobs/:id', status: '404' }),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(after, 'shotgen_http_request_duration_seconds_count', { route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(after).not.toContain('/no/such/path');
    expect(sample(after, 'shotgen_process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('reads jobs by state, queue depth and age, and pool use at scrape time', async () => {
    const appId = await insertApp(h.t.pool, h.account.id);
    await enqueueJobs(h.t.pool, h.account.id, appId, 3);
    await h.t.pool.query("UPDATE jobs SET created_at = now() - interval '90 seconds'");
    let text = await scrape();
    expect(sample(text, 'shotgen_jobs', { state: 'queued' })).toBe(3);
    expect(sample(text, 'shotgen_jobs', { state: 'running' })).toBe(0);
    expect(sample(text, 'shotgen_queue_depth')).toBe(3);
    expect(sample(text, 'shotgen_queue_oldest_age_seconds')).toBeGreaterThanOrEqual(90);
    expect(sample(text, 'shotgen_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
    await claimJobs(h.t.pool, 'w', 1, 60_000);
    text = await scrape();
    expect([
      sample(text, 'shotgen_jobs', { state: 'queued' }),
      sample(text, 'shotgen_jobs', { state: 'running' }),
      sample(text, 'shotgen_queue_depth'),
    ]).toEqual([2, 1, 2]);
  });

  it('moves credits charged and refunded, and plan durations, when jobs happen', async () => {
    const before = await scrape();
    const appId = await insertApp(h.t.pool, h.account.id);
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/v1/public/v1/screenshots',
      headers: { ...h.auth, 'content-type': 'application/json' },
      payload: { appId, device: 'iphone-69' },
    });
    expect(res.statusCode).toBe(201);
    const [claimed] = await claimJobs(h.t.pool, 'w', 1, 60_000);
    // The real planner, in this thread rather than the pool's worker thread.
    const runner = screenshotSetRunner({ db: h.t.pool, planner: { plan: async (input) => planScreenshotSet(input) } });
    await runner(claimed, { signal: new AbortController().signal, progress: () => undefined });
    await failJob(h.t.pool, claimed.id, 'w', { code: 'planning_failed', message: 'x', retryable: false });
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string> = {}) => sample(after, name, labels) - sample(before, name, labels);
    expect(delta('shotgen_credits_charged_total')).toBe(5);
    expect(delta('shotgen_credits_refunded_total')).toBe(5);
    expect(delta('shotgen_plan_duration_seconds_count', { outcome: 'ok' })).toBe(1);
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  it('needs the token', async () => {
    const h = await createTestApp();
    const app = await buildServer(h.services, { metricsToken: 'm3tr1cs-secret' });
    try {
      expect((await app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
      expect((await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer wrong' } })).statusCode).toBe(401);
      // As many characters as the token but more bytes: a 401, not a 500 from timingSafeEqual.
      expect((await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer m3tr1cs-secrét' } })).statusCode).toBe(
        401,
      );
      const ok = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer m3tr1cs-secret' } });
      expect(ok.statusCode).toBe(200);
      expect(ok.body).toContain('shotgen_http_request_duration_seconds');
    } finally {
      await app.close();
      await h.close();
    }
  });
});
