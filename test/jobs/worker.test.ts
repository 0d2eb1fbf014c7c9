import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getBalance } from '../../src/accounts/credits.ts';
import { Notifications } from '../../src/db/notifications.ts';
import { JobReader } from '../../src/jobs/job-reader.ts';
import { PermanentJobError, type JobRunner } from '../../src/jobs/job-runner.ts';
import { Worker } from '../../src/jobs/worker.ts';
import type { ScreenshotSetResult } from '../../src/planning/types.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { accountWithKey, insertApp } from '../support/fixtures.ts';
import { enqueueJobs, jobRows, ledger, until } from '../support/jobs.ts';

const result = (device: string): ScreenshotSetResult =>
  ({ device, width: 1320, height: 2868, narrativeId: null, captionStyle: 'aso-expert', captionLength: 'short', slides: [], warnings: [] }) as unknown as ScreenshotSetResult;

describe('the worker', () => {
  let t: TestDatabase;
  let notifications: Notifications;
  let accountId: string;
  let appId: string;
  const workers: Worker[] = [];
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

  const startWorker = (run: JobRunner, opts: Partial<ConstructorParameters<typeof Worker>[3]> = {}) => {
    const w = new Worker(t.pool, notifications, run, { concurrency: 4, leaseMs: 60_000, pollIntervalMs: 60_000, ...opts });
    workers.push(w);
    w.start();
    return w;
  };
  const statuses = async () => (await jobRows(t.pool)).map((r) => r.status);

  it('wakes on NOTIFY (no polling), runs each job and stores its result', async () => {
    startWorker(async (job) => result(job.request.device));
    await new Promise((r) => setTimeout(r, 50));
    const ids = await enqueueJobs(t.pool, accountId, appId, 6);
    await until(async () => (await statuses()).every((s) => s === 'succeeded'), 5_000);
    const reader = new JobReader(t.pool);
    const job = await reader.getJson(accountId, ids[0]);
    expect(job?.job).toMatchObject({ status: 'succeeded', error: null, result: { device: 'iphone-69' } });
    expect(await reader.getJson('acc_other', ids[0])).toBeNull();
  });

  it('a permanent failure fails the job at once and refunds it', async () => {
    startWorker(async () => {
      throw new PermanentJobError({ code: 'planning_failed', message: 'nothing to plan', retryable: false });
    });
    const [id] = await enqueueJobs(t.pool, accountId, appId, 1);
    await until(async () => (await statuses())[0] === 'failed');
    expect((await jobRows(t.pool))[0]).toMatchObject({ attempts: 1, error: { code: 'planning_failed', message: 'nothing to plan', retryable: false } });
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
    startWorker(
      async (job) => {
        peak = Math.max(peak, ++active);
        await new Promise((r) => setTimeout(r, 20));
        active--;
        return result(job.request.device);
      },
      { concurrency: 3 },
    );
    await enqueueJobs(t.pool, accountId, appId, 10);
    await until(async () => (await statuses()).every((s) => s === 'succeeded'), 10_000);
    expect(peak).toBe(3);
  });

  it('on stop, lets running jobs finish within the deadline and gives back the rest', async () => {
    let releaseSlow!: () => void;
    const slow = new Promise<void>((r) => (releaseSlow = r));
    const w = startWorker(async (job) => {
      if (job.request.device === 'ipad-pro') await slow;
      else await new Promise((r) => setTimeout(r, 50));
      return result(job.request.device);
    });
    const [fast] = await enqueueJobs(t.pool, accountId, appId, 1, 'iphone-69');
    const [stuck] = await enqueueJobs(t.pool, accountId, appId, 1, 'ipad-pro');
    await until(async () => (await statuses()).every((s) => s === 'running'));
    await w.stop(300);
    releaseSlow();
    const rows = await jobRows(t.pool);
    expect(rows.find((r) => r.id === fast)).toMatchObject({ status: 'succeeded' });
    // Given back without counting the attempt, and the late result was dropped.
    expect(rows.find((r) => r.id === stuck)).toMatchObject({ status: 'queued', attempts: 0 });
    await new Promise((r) => setTimeout(r, 20));
    expect((await jobRows(t.pool)).find((r) => r.id === stuck)?.status).toBe('queued');
  });
});
