/** What a worker process serves on PORT (src/http/worker-server.ts): health, readiness and metrics only. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_HTTP_LIMITS } from '../../src/http/limits.ts';
import { createPool } from '../../src/db/pool.ts';
import { buildWorkerServer } from '../../src/http/worker-server.ts';
import { expectProblem } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';

describe('the worker’s health and metrics server', () => {
  let t: TestDatabase;
  let app: FastifyInstance;
  beforeEach(async () => {
    t = await createTestDatabase();
    app = await buildWorkerServer({ db: t.pool, limits: DEFAULT_HTTP_LIMITS, metricsToken: null });
  });
  afterEach(async () => {
    await app.close();
    await t.drop();
  });

  it('answers /healthz and /readyz, and /metrics with the worker’s and the queue’s figures', async () => {
    expect((await app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ok' });
    const metrics = await app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.statusCode).toBe(200);
    expect(metrics.headers['content-type']).toMatch(/^text\/plain/);
    for (const name of [
      'shotgen_job_attempts_total',
      'shotgen_worker_jobs_running',
      'shotgen_render_duration_seconds',
      'shotgen_plan_duration_seconds',
      'shotgen_webhook_attempts_total',
      'shotgen_queue_depth',
      'shotgen_jobs',
    ])
      expect(metrics.body).toContain(`# TYPE ${name} `);
  });

  it('serves nothing else: the API’s routes and other methods are 404 problems', async () => {
    expectProblem(await app.inject({ method: 'GET', url: '/api/v1/public/v1/account' }), 404, 'not_found');
    expectProblem(await app.inject({ method: 'POST', url: '/healthz', payload: {} }), 404, 'not_found');
  });

  it('is not ready, with a 503 problem and Retry-After, while its database is unreachable', async () => {
    const dead = createPool('postgres://nobody@127.0.0.1:9/none', 1);
    const unready = await buildWorkerServer({ db: dead, limits: DEFAULT_HTTP_LIMITS, metricsToken: null });
    try {
      const res = await unready.inject({ method: 'GET', url: '/readyz' });
      expectProblem(res, 503, 'service_unavailable');
      expect(res.headers['retry-after']).toBe('1');
      expect((await unready.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      // The process's own figures still come out without the database's.
      expect((await unready.inject({ method: 'GET', url: '/metrics' })).body).toContain('shotgen_job_attempts_total');
    } finally {
      await unready.close();
      await dead.end();
    }
  });

  it('with METRICS_TOKEN, /metrics needs the bearer token', async () => {
    const guarded = await buildWorkerServer({ db: t.pool, limits: DEFAULT_HTTP_LIMITS, metricsToken: 'w0rker-metrics' });
    try {
      expectProblem(await guarded.inject({ method: 'GET', url: '/metrics' }), 401, 'invalid_api_key');
      const wrong = await guarded.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer nope' } });
      expectProblem(wrong, 401, 'invalid_api_key');
      const ok = await guarded.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer w0rker-metrics' } });
      expect(ok.statusCode).toBe(200);
    } finally {
      await guarded.close();
    }
  });
});
