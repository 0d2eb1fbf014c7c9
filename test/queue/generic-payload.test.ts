/**
 * The jobs queue is the jobs table's engine alone, generic over its payload: a payload that is no
 * screenshot set (a number to square) is claimed, run, completed, failed and swept with its own
 * types, and the owner's hooks run inside the transaction that ends each job, so what they write
 * (the screenshot set's refund, src/sets/job-queue.ts) commits with the end or not at all.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DbClient, Queryable } from '../../src/db/pool.ts';
import { JobQueue } from '../../src/queue/queue.ts';
import { FatalJobError, type EndedJob, type JobRunner } from '../../src/queue/runner.ts';
import { Worker } from '../../src/queue/worker.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { accountWithKey, insertApp } from '../support/fixtures.ts';
import { jobRows, ledger } from '../support/jobs.ts';

interface Square {
  n: number;
}
interface Squared {
  square: number;
}

describe('the jobs queue with a payload that is not a screenshot set', () => {
  let t: TestDatabase;
  let accountId: string;
  let appId: string;
  beforeEach(async () => {
    t = await createTestDatabase();
    accountId = (await accountWithKey(t.pool)).account.id;
    appId = await insertApp(t.pool, accountId);
  });
  afterEach(async () => t.drop());

  /** Queued jobs of `request`s, uncharged (cost 0): nothing of a set's creation is involved. */
  const enqueue = async (...requests: Square[]) => {
    const ids = requests.map((_, i) => `job_sq${i}`);
    for (const [i, request] of requests.entries())
      await t.pool.query(
        `INSERT INTO jobs (id, account_id, app_id, request, cost, period_start, created_at)
         VALUES ($1, $2, $3, $4, 0, current_date, now() + make_interval(secs => $5))`,
        [ids[i], accountId, appId, request, i / 1000],
      );
    return ids;
  };

  it('a worker runs typed jobs of it, and the hooks see every end', async () => {
    const ended: string[] = [];
    const queue = new JobQueue<Square, Squared>({ onEnded: async (_tx, job) => void ended.push(job.id) });
    const [four, bad] = await enqueue({ n: 4 }, { n: -1 });
    const run: JobRunner<Square, Squared> = async (job) => {
      if (job.request.n < 0) throw new FatalJobError({ code: 'planning_failed', message: 'no negative squares', retryable: false });
      return { result: { square: job.request.n ** 2 } };
    };
    await new Worker(t.pool, null, run, { queue, concurrency: 2, leaseMs: 60_000 }).runOnce();
    expect((await jobRows(t.pool)).map((r) => [r.id, r.status, r.result])).toEqual([
      [four, 'succeeded', { square: 16 }],
      [bad, 'failed', null],
    ]);
    expect(ended.sort()).toEqual([four, bad].sort());
    // Nothing of a set's: no charge was taken, and none is refunded.
    expect(await ledger(t.pool, accountId)).toEqual([]);
  });

  it('onFailed runs in the failing transaction: seen failed inside it, running outside, and undone if it throws', async () => {
    const seen: { inside: string; outside: string }[] = [];
    let refuse = true;
    const committed: string[] = [];
    const onFailed = async (tx: DbClient, job: EndedJob) => {
      const status = async (q: Queryable) =>
        (await q.query<{ status: string }>('SELECT status FROM jobs WHERE id = $1', [job.id])).rows[0].status;
      seen.push({ inside: await status(tx), outside: await status(t.pool) });
      if (refuse) throw new Error('the hook failed');
      return () => void committed.push(job.id);
    };
    const queue = new JobQueue<Square, Squared>({ onFailed });
    const [id] = await enqueue({ n: 2 });
    const [job] = await queue.claim(t.pool, 'w1', 1, 60_000);
    expect(job.request.n).toBe(2);
    const error = { code: 'planning_failed', message: 'no', retryable: false } as const;

    await expect(queue.fail(t.pool, id, 'w1', error)).rejects.toThrow('the hook failed');
    expect((await jobRows(t.pool))[0].status).toBe('running');
    expect(committed).toEqual([]);

    refuse = false;
    expect(await queue.fail(t.pool, id, 'w1', error)).toBe(true);
    expect(seen).toEqual([
      { inside: 'failed', outside: 'running' },
      { inside: 'failed', outside: 'running' },
    ]);
    expect((await jobRows(t.pool))[0].status).toBe('failed');
    // The after-commit part ran once, after the commit; a second end finds no running job.
    expect(committed).toEqual([id]);
    expect(await queue.fail(t.pool, id, 'w1', error)).toBe(false);
    expect(committed).toEqual([id]);
  });

  it('the sweep fails an exhausted job with the hooks, and completes only under the lease', async () => {
    const failed: string[] = [];
    const queue = new JobQueue<Square, Squared>({ onFailed: async (_tx, job) => void failed.push(job.id) });
    const [lost, kept] = await enqueue({ n: 1 }, { n: 3 });
    await t.pool.query('UPDATE jobs SET max_attempts = 1');
    await queue.claim(t.pool, 'w1', 2, 60_000);
    await t.pool.query(`UPDATE jobs SET lease_expires_at = now() - interval '1 second' WHERE id = $1`, [lost]);
    expect(await queue.sweep(t.pool)).toEqual({ requeued: [], failed: [lost] });
    expect(failed).toEqual([lost]);
    expect(await queue.complete(t.pool, 'someone-else', kept, { result: { square: 9 } })).toBe(false);
    expect(await queue.complete(t.pool, 'w1', kept, { result: { square: 9 } })).toBe(true);
    expect((await jobRows(t.pool)).map((r) => [r.id, r.status, r.error?.code ?? null])).toEqual([
      [lost, 'failed', 'attempts_exhausted'],
      [kept, 'succeeded', null],
    ]);
  });
});
