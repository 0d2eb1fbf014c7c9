import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getBalance } from '../../src/accounts/credits.ts';
import { Notifications } from '../../src/db/notifications.ts';
import { JobReader } from '../../src/sets/reader.ts';
import { FatalJobError, RetryableJobError } from '../../src/queue/runner.ts';
import { retryDelay, Worker, type WorkerOptions } from '../../src/queue/worker.ts';
import { setJobs, type SetJobOutcome, type SetJobRunner, type SetWorker } from '../../src/sets/job-queue.ts';
import type { StoredPlanRequest } from '../../src/sets/jobs.ts';
import type { ScreenshotSetResult } from '../../src/core/set.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { accountWithKey, insertApp } from '../support/fixtures.ts';
import { enqueueJobs, jobRows, ledger, until } from '../support/jobs.ts';

const result = (device: string): SetJobOutcome => ({
  result: {
    device,
    width: 1320,
    height: 2868,
    narrativeId: null,
    captionStyle: 'aso-expert',
    captionLength: 'short',
    slides: [],
    warnings: [],
  } as unknown as ScreenshotSetResult,
});

describe('the worker', () => {
  let t: TestDatabase;
  let notifications: Notifications;
  let accountId: string;
  let appId: string;
  const workers: SetWorker[] = [];
  beforeEach(async () => {
    t = await createTestDatabase();
    notifications = new Notifications(t.url);
    await notifications.start();
    accountId = (await accountWithKey(t.pool)).account.id;
    appId = await insertApp(t.pool, accountId);
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop(0)));
    await notifications.close();
    await t.drop();
  });

  const startWorker = (run: SetJobRunner, opts: Partial<WorkerOptions<StoredPlanRequest, ScreenshotSetResult>> = {}) => {
    const w = new Worker(t.pool, notifications, run, { queue: setJobs, concurrency: 4, leaseMs: 60_000, pollIntervalMs: 60_000, ...opts });
    workers.push(w);
    w.start();
    return w;
  };
  const statuses = async () => (await jobRows(t.pool)).map((r) => r.status);

  it('wakes on NOTIFY (no polling), runs each job and stores its result', async () => {
    // The first claim (at start) finds nothing; polling is off, so only a NOTIFY can wake it after.
    await startWorker(async (job) => result(job.request.device)).runOnce();
    const ids = await enqueueJobs(t.pool, accountId, appId, 6);
    await until(async () => (await statuses()).every((s) => s === 'succeeded'), 5_000);
    const reader = new JobReader(t.pool);
    const job = await reader.get(accountId, ids[0]);
    expect(job).toMatchObject({ status: 'succeeded', error: null, result: { device: 'iphone-69' } });
    expect(await reader.get('acc_other', ids[0])).toBeNull();
  });

  it('a permanent failure fails the job at once and refunds it', async () => {
    startWorker(async () => {
      throw new FatalJobError({ code: 'planning_failed', message: 'nothing to plan', retryable: false });
    });
    const [id] = await enqueueJobs(t.pool, accountId, appId, 1);
    await until(async () => (await statuses())[0] === 'failed');
    expect((await jobRows(t.pool))[0]).toMatchObject({
      attempts: 1,
      error: { code: 'planning_failed', message: 'nothing to plan', retryable: false },
    });
    expect((await ledger(t.pool, accountId)).map((l) => `${l.kind}:${l.job_id}`)).toEqual([`charge:${id}`, `refund:${id}`]);
  });

  it('retries a failing job, then fails it after 3 attempts, refunded once', async () => {
    let calls = 0;
    startWorker(
      async () => {
        calls++;
        throw new Error('planner crashed');
      },
      { retryDelayMs: () => 0 },
    );
    await enqueueJobs(t.pool, accountId, appId, 1);
    await until(async () => (await statuses())[0] === 'failed');
    expect(calls).toBe(3);
    expect(await t.pool.query(`SELECT 1 FROM jobs WHERE run_at > created_at`).then((r) => r.rowCount)).toBe(1);
    expect((await jobRows(t.pool))[0]).toMatchObject({ attempts: 3, error: { code: 'attempts_exhausted', retryable: false } });
    expect((await ledger(t.pool, accountId)).filter((l) => l.kind === 'refund')).toHaveLength(1);
    expect((await getBalance(t.pool, accountId, new Date())).remaining).toBe(50);
  });

  it('waits out the retry delay before the next attempt', async () => {
    const seen: number[] = [];
    startWorker(
      async () => {
        seen.push(Date.now());
        throw new Error('flaky store');
      },
      { retryDelayMs: () => 300, pollIntervalMs: 50 },
    );
    await enqueueJobs(t.pool, accountId, appId, 1);
    await until(async () => seen.length >= 2, 5_000);
    expect(seen[1] - seen[0]).toBeGreaterThanOrEqual(250);
  });

  it('never runs more than `concurrency` jobs at once', async () => {
    let active = 0;
    let peak = 0;
    // Queued before the worker starts: jobs trickling in one by one on a loaded machine could
    // each finish before the next arrives, and the peak would say nothing about the limit.
    await enqueueJobs(t.pool, accountId, appId, 10);
    startWorker(
      async (job) => {
        peak = Math.max(peak, ++active);
        await new Promise((r) => setTimeout(r, 20));
        active--;
        return result(job.request.device);
      },
      { concurrency: 3 },
    );
    await until(async () => (await statuses()).every((s) => s === 'succeeded'), 10_000);
    expect(peak).toBe(3);
  });

  it('on stop, lets running jobs finish within the deadline and gives back the rest', async () => {
    let releaseSlow!: () => void;
    const slow = new Promise<void>((r) => (releaseSlow = r));
    // The fast job is held too until both are seen running: left to its 50 ms, it could end
    // before the other was claimed on a busy machine, and "both running" would never be seen.
    let releaseFast!: () => void;
    const fastGate = new Promise<void>((r) => (releaseFast = r));
    let slowAttempt: Promise<unknown> | null = null;
    const w = startWorker((job) => {
      const attempt = (async () => {
        if (job.request.device === 'ipad-pro') await slow;
        else await fastGate.then(() => new Promise((r) => setTimeout(r, 50)));
        return result(job.request.device);
      })();
      if (job.request.device === 'ipad-pro') slowAttempt = attempt;
      return attempt;
    });
    const [fast] = await enqueueJobs(t.pool, accountId, appId, 1, 'iphone-69');
    const [stuck] = await enqueueJobs(t.pool, accountId, appId, 1, 'ipad-pro');
    await until(async () => (await statuses()).every((s) => s === 'running'));
    releaseFast();
    await w.stop(300);
    releaseSlow();
    const rows = await jobRows(t.pool);
    expect(rows.find((r) => r.id === fast)).toMatchObject({ status: 'succeeded' });
    // Given back without counting the attempt, and the late result was dropped.
    expect(rows.find((r) => r.id === stuck)).toMatchObject({ status: 'queued', attempts: 0 });
    // The abandoned attempt now returns its result: nothing of it may reach the job.
    expect(slowAttempt).not.toBeNull();
    await slowAttempt;
    await w.runOnce();
    expect((await jobRows(t.pool)).find((r) => r.id === stuck)?.status).toBe('queued');
  });

  /** One job, as if a worker had claimed it and died: running, its lease ending `inMs` from now. */
  const orphan = async (inMs: number) => {
    const [id] = await enqueueJobs(t.pool, accountId, appId, 1);
    await t.pool.query(
      `UPDATE jobs SET status = 'running', attempts = 1, locked_by = 'wrk_dead', started_at = now(),
         lease_expires_at = now() + make_interval(secs => $2::float8 / 1000) WHERE id = $1`,
      [id, inMs],
    );
    return id;
  };

  it("resumes a dead worker's job when its lease ends, not at the next interval's sweep", async () => {
    await orphan(300);
    // Sweeps an hour apart: only the sweep at the lease's end (learnt by the sweep at start) can
    // bring the job back within the deadline.
    startWorker(async (job) => result(job.request.device), { sweepIntervalMs: 3_600_000 });
    await until(async () => (await statuses())[0] === 'succeeded', 5_000);
    expect((await jobRows(t.pool))[0].attempts).toBe(2);
  });

  it('resumes at its start a job whose worker died before it started', async () => {
    await orphan(-1_000);
    startWorker(async (job) => result(job.request.device), { sweepIntervalMs: 3_600_000 });
    await until(async () => (await statuses())[0] === 'succeeded', 5_000);
    expect((await jobRows(t.pool))[0].attempts).toBe(2);
  });

  it("shows a running job's progress, and clears it when the job ends", async () => {
    let finish!: () => void;
    const gate = new Promise<void>((r) => (finish = r));
    startWorker(async (job, ctx) => {
      for (let i = 1; i <= 3; i++) ctx.progress(i, 5);
      await gate;
      return result(job.request.device);
    });
    const [id] = await enqueueJobs(t.pool, accountId, appId, 1);
    const reader = new JobReader(t.pool);
    const running = await until(async () => {
      const j = await reader.get(accountId, id);
      return j?.progress?.done === 3 ? j : null;
    });
    expect(running).toMatchObject({ status: 'running', progress: { done: 3, total: 5 } });
    finish();
    await until(async () => (await statuses())[0] === 'succeeded');
    expect((await reader.get(accountId, id))?.progress).toBeNull();
  });

  it('an attempt that runs over its time is aborted through its signal, then retried', async () => {
    let aborted = 0;
    let calls = 0;
    startWorker(
      async (job, ctx) => {
        if (++calls === 1) {
          await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => (aborted++, resolve())));
          return result('never-stored');
        }
        return result(job.request.device);
      },
      { attemptTimeoutMs: 100, retryDelayMs: () => 0, pollIntervalMs: 50 },
    );
    await enqueueJobs(t.pool, accountId, appId, 1);
    await until(async () => (await statuses())[0] === 'succeeded');
    expect(aborted).toBe(1);
    expect((await jobRows(t.pool))[0]).toMatchObject({ attempts: 2, result: { device: 'iphone-69' } });
  });

  it('a retryable error fails the job with its own code after the last attempt', async () => {
    startWorker(
      async () => {
        throw new RetryableJobError({ code: 'store_unavailable', message: 'The store image host did not answer.', retryable: true });
      },
      { retryDelayMs: () => 0, pollIntervalMs: 50 },
    );
    await enqueueJobs(t.pool, accountId, appId, 1);
    await until(async () => (await statuses())[0] === 'failed');
    expect((await jobRows(t.pool))[0]).toMatchObject({ attempts: 3, error: { code: 'store_unavailable', retryable: true } });
  });

  it('ending a job writes its event and notifies shotgen_job_done in the same transaction', async () => {
    const heard: string[] = [];
    const off = notifications.subscribe('shotgen_job_done', { onNotify: (id) => heard.push(id), onReset: () => undefined });
    startWorker(async (job) => {
      if (job.request.device === 'ipad-pro') throw new FatalJobError({ code: 'planning_failed', message: 'no', retryable: false });
      return result(job.request.device);
    });
    const [ok] = await enqueueJobs(t.pool, accountId, appId, 1);
    const [bad] = await enqueueJobs(t.pool, accountId, appId, 1, 'ipad-pro');
    await until(async () => heard.length === 2);
    off();
    expect(heard.sort()).toEqual([ok, bad].sort());
    const { rows } = await t.pool.query('SELECT job_id, account_id, type FROM job_events ORDER BY job_id');
    expect(rows).toEqual(
      [
        { job_id: ok, account_id: accountId, type: 'job.succeeded' },
        { job_id: bad, account_id: accountId, type: 'job.failed' },
      ].sort((a, b) => a.job_id.localeCompare(b.job_id)),
    );
  });

  it('save() runs in the completing transaction: if it fails, the job is not succeeded', async () => {
    let calls = 0;
    startWorker(
      async (job) => ({
        ...result(job.request.device),
        save: async (tx) => {
          await tx.query('SELECT 1');
          if (++calls === 1) throw new Error('object rows could not be written');
        },
      }),
      { retryDelayMs: () => 0, pollIntervalMs: 50 },
    );
    await enqueueJobs(t.pool, accountId, appId, 1);
    await until(async () => (await statuses())[0] === 'succeeded');
    expect(calls).toBe(2);
    expect((await t.pool.query('SELECT count(*)::int AS n FROM job_events')).rows[0].n).toBe(1);
  });
});

describe('retry backoff', () => {
  it('grows exponentially, is capped, and is jittered by ±50 %', () => {
    expect(retryDelay(1, 1000, 60_000, () => 0.5)).toBe(1000);
    expect(retryDelay(3, 1000, 60_000, () => 0.5)).toBe(4000);
    expect(retryDelay(20, 1000, 60_000, () => 0.5)).toBe(60_000);
    expect(retryDelay(2, 1000, 60_000, () => 0)).toBe(1000);
    expect(retryDelay(2, 1000, 60_000, () => 0.999)).toBeGreaterThan(2990);
  });
});
