/** `Prefer: wait=N`: answers when the job ends, woken by its notification, or after N seconds. */
import { AsyncLocalStorage } from 'node:async_hooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claimJobs, completeJob, failJob } from '../../src/sets/job-queue.ts';
import { preferredWait } from '../../src/api/get-job.ts';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { insertApp, sampleListing } from '../support/fixtures.ts';
import { enqueueJobs, until } from '../support/jobs.ts';
import { scaled } from '../support/timing.ts';

describe('preferredWait', () => {
  it('reads wait=N from Prefer, clamped to 1..30', () => {
    expect(preferredWait('wait=5')).toBe(5);
    expect(preferredWait('respond-async, wait=100')).toBe(30);
    expect(preferredWait('wait=0')).toBe(1);
    expect(preferredWait('return=minimal')).toBeNull();
    expect(preferredWait(undefined)).toBeNull();
  });
});

describe('GET /public/v1/jobs/{id} with Prefer: wait', () => {
  let h: TestApp;
  let jobIds: string[];
  beforeEach(async () => {
    h = await createTestApp();
    jobIds = await enqueueJobs(h.t.pool, h.account.id, await insertApp(h.t.pool, h.account.id), 2);
  });
  afterEach(async () => h.close());

  const poll = (id: string, prefer?: string) =>
    h.app.inject({ method: 'GET', url: `/api/v1/public/v1/jobs/${id}`, headers: { ...h.auth, ...(prefer ? { prefer } : {}) } });

  it('answers after N seconds with the current state, saying Preference-Applied', async () => {
    const started = Date.now();
    const res = await poll(jobIds[0], 'wait=1');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(res.json().status).toBe('queued');
    expect(res.headers['preference-applied']).toBe('wait=1');
    expect(res.headers['retry-after']).toBe('1');
  });

  it('is woken as soon as the job ends, and many waiters cost no queries while they wait', async () => {
    await claimJobs(h.t.pool, 'w', 2, 60_000);
    // A request is parked when its handler awaits the waiter's `ended` (after its last read): seen
    // here, exactly, by the first look at `ended`. A handler that never parks never counts.
    let parked = 0;
    const wait = h.services.waiters.wait.bind(h.services.waiters);
    h.services.waiters.wait = (...args) => {
      const w = wait(...args);
      return {
        cancel: w.cancel,
        get ended() {
          parked++;
          return w.ended;
        },
      };
    };
    // From the last request parked to the job's end notification, nobody touches the database:
    // every statement and checkout the pool serves in that span is counted, except the worker's own
    // completion (run in its own async context below). No fixed wait: the span ends on the event.
    const completing = new AsyncLocalStorage<true>();
    let open = false;
    let queries = 0;
    const seen = () => {
      if (open && !completing.getStore()) queries++;
    };
    const pool = h.t.pool;
    const query = pool.query.bind(pool);
    const connect = pool.connect.bind(pool);
    pool.query = ((...args: Parameters<typeof query>) => (seen(), query(...args))) as typeof query;
    pool.connect = ((...args: Parameters<typeof connect>) => (seen(), connect(...args))) as typeof connect;
    const unsubscribe = h.notifications.subscribe('shotgen_job_done', { onNotify: () => (open = false), onReset: () => undefined });
    const waiting = Array.from({ length: 50 }, () => poll(jobIds[0], 'wait=20'));
    const other = poll(jobIds[1], 'wait=20');
    await until(async () => parked === 51, 5_000);
    // The key's last use is written in batches every 10 s: written now, a tick inside the span (on
    // a slow machine) finds nothing to write, and what is counted is the waiting alone.
    await h.authenticator.flush();
    open = true;
    const started = Date.now();
    const result = planScreenshotSet({ listings: [sampleListing()], extraContext: null, request: { device: 'iphone-69', count: 3 } });
    await completing.run(true, () => completeJob(h.t.pool, 'w', jobIds[0], { result }));
    const answers = await Promise.all(waiting);
    expect(open).toBe(false);
    expect(queries).toBe(0);
    unsubscribe();
    pool.query = query;
    pool.connect = connect;
    // Woken, not timed out: the wait was 20 s; scaled (at most 12 s) for a loaded runner.
    expect(Date.now() - started).toBeLessThan(scaled(2_000));
    expect(answers.every((a) => a.json().status === 'succeeded')).toBe(true);
    expect(answers[0].headers['retry-after']).toBeUndefined();
    await failJob(h.t.pool, jobIds[1], 'w', { code: 'planning_failed', message: 'x', retryable: false });
    expect((await other).json().status).toBe('failed');
    expect(h.services.waiters.size).toBe(0);
  });

  it('answers a finished job at once', async () => {
    await claimJobs(h.t.pool, 'w', 1, 60_000);
    await failJob(h.t.pool, jobIds[0], 'w', { code: 'planning_failed', message: 'x', retryable: false });
    const started = Date.now();
    const res = await poll(jobIds[0], 'wait=30');
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(res.headers['preference-applied']).toBe('wait=30');
  });
});

describe('a long poll and shutdown', () => {
  it('is answered at once when the service stops, so it never holds the shutdown', async () => {
    const { createTestDatabase } = await import('../support/db.ts');
    const { loadConfig } = await import('../../src/config.ts');
    const { startService } = await import('../../src/service.ts');
    const { accountWithKey } = await import('../support/fixtures.ts');
    const t = await createTestDatabase();
    try {
      const { account, key } = await accountWithKey(t.pool);
      const [jobId] = await enqueueJobs(t.pool, account.id, await insertApp(t.pool, account.id), 1);
      const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATA_DIR: '/tmp/shotgen-unused-data' });
      const service = await startService(config, {
        role: 'api',
        database: { pool: t.pool, url: t.url, embedded: null, close: async () => undefined },
      });
      const poll = fetch(`${service.address}/api/v1/public/v1/jobs/${jobId}`, {
        headers: { authorization: `Bearer ${key}`, prefer: 'wait=30' },
      });
      // The poll has read the job and is parked: only then does closing have a poll to answer.
      await until(async () => service.waiters!.size === 1, 5_000);
      const started = Date.now();
      await service.close();
      const res = await poll;
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { status: string }).status).toBe('queued');
    } finally {
      await t.drop();
    }
  });
});
