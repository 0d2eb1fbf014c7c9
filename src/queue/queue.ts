/**
 * The queue operations on the jobs table, in plain SQL (the pg-boss / graphile-worker pattern):
 * claim under a lease, fairly across accounts (./claim.ts), extend it by heartbeat, finish only while the
 * lease is still ours, and sweep expired leases back to `queued` (or to `failed` after the last
 * attempt). A finished job keeps `locked_by`: the worker that ran its last attempt.
 *
 * The engine alone: it moves rows and never looks inside a job's payload or result. A JobQueue
 * is typed by both, and carries its owner's hooks (./runner.ts, JobHooks), which run inside the
 * transaction of every end (complete, fail, and the sweep's fail): the screenshot set's refund
 * and webhooks are src/sets/job-queue.ts.
 */
import { transaction, type Db, type Queryable } from '../db/pool.ts';
import { claimJobs, type ClaimedJob, type ClaimOptions } from './claim.ts';
import type { JobError, JobHooks, JobOutcome } from './runner.ts';

export { claimJobs, type ClaimedJob, type ClaimOptions };

/**
 * The jobs table's engine for one kind of job: `P` its payload (the `request` column), `R` its
 * result, `hooks` what its owner does in the transaction of each end. Its operations are bound
 * (they may be passed around or destructured).
 */
export class JobQueue<P, R> {
  constructor(readonly hooks: JobHooks = {}) {}

  readonly claim = (db: Db, workerId: string, limit: number, leaseMs: number, opts: ClaimOptions = {}): Promise<ClaimedJob<P>[]> =>
    claimJobs<P>(db, workerId, limit, leaseMs, opts);

  readonly complete = (db: Db, workerId: string, jobId: string, outcome: JobOutcome<R>): Promise<boolean> =>
    completeJob(db, this.hooks, workerId, jobId, outcome);

  readonly fail = (db: Db, jobId: string, workerId: string | null, error: JobError, now: Date = new Date()): Promise<boolean> =>
    failJob(db, this.hooks, jobId, workerId, error, now);

  readonly sweep = (db: Db, now: Date = new Date()): Promise<SweepResult> => sweepExpiredLeases(db, this.hooks, now);

  readonly nextLeaseEnd = nextLeaseEnd;

  readonly heartbeat = heartbeat;
  readonly release = releaseJob;
  readonly setProgress = setProgress;
}

/** Extends the leases this worker still holds; returns the ids it no longer holds. */
export async function heartbeat(db: Queryable, workerId: string, jobIds: string[], leaseMs: number): Promise<string[]> {
  if (jobIds.length === 0) return [];
  const { rows } = await db.query<{ id: string }>(
    `UPDATE jobs SET lease_expires_at = now() + make_interval(secs => $3::float8 / 1000)
     WHERE id = ANY($2) AND status = 'running' AND locked_by = $1 RETURNING id`,
    [workerId, jobIds, leaseMs],
  );
  const held = new Set(rows.map((r) => r.id));
  return jobIds.filter((id) => !held.has(id));
}

/**
 * Returns false when the lease was lost (another worker owns the job now): the result is dropped.
 * `save` writes the attempt's outputs in the same transaction; the jobs_ended trigger adds the
 * job's event, its webhook deliveries and its notification to it, and the hooks' onEnded runs on
 * it last.
 */
async function completeJob<R>(db: Db, hooks: JobHooks, workerId: string, jobId: string, outcome: JobOutcome<R>): Promise<boolean> {
  return transaction(db, async (tx) => {
    const { rows } = await tx.query<{ account_id: string }>(
      `UPDATE jobs SET status = 'succeeded', result = $3, lease_expires_at = NULL, progress_done = NULL, progress_total = NULL, updated_at = now()
       WHERE id = $1 AND status = 'running' AND locked_by = $2 RETURNING account_id`,
      [jobId, workerId, outcome.result],
    );
    if (!rows[0]) return false;
    await outcome.save?.(tx);
    await hooks.onEnded?.(tx, { id: jobId, accountId: rows[0].account_id });
    return true;
  });
}

/** A running job's progress, while this worker holds it. */
export async function setProgress(db: Queryable, workerId: string, jobId: string, done: number, total: number): Promise<void> {
  await db.query(
    `UPDATE jobs SET progress_done = $3, progress_total = $4, updated_at = now() WHERE id = $1 AND status = 'running' AND locked_by = $2`,
    [jobId, workerId, done, total],
  );
}

/**
 * Mark failed, in one transaction with the hooks' onFailed (a refund) and onEnded (the webhooks'
 * tasks): if either throws, the job is not failed. `workerId` null: the sweep, which holds no lease.
 */
async function failJob(db: Db, hooks: JobHooks, jobId: string, workerId: string | null, error: JobError, now: Date): Promise<boolean> {
  const ended = await transaction(db, async (tx) => {
    const { rows } = await tx.query<{ account_id: string }>(
      `UPDATE jobs SET status = 'failed', error = $3, lease_expires_at = NULL, progress_done = NULL, progress_total = NULL, updated_at = now()
       WHERE id = $1 AND status = 'running' AND (locked_by = $2 OR ($2::text IS NULL AND lease_expires_at < now()))
       RETURNING account_id`,
      [jobId, workerId, error],
    );
    if (!rows[0]) return null;
    const job = { id: jobId, accountId: rows[0].account_id };
    const afterCommit = await hooks.onFailed?.(tx, job, now);
    await hooks.onEnded?.(tx, job);
    return { afterCommit };
  });
  ended?.afterCommit?.();
  return ended !== null;
}

/**
 * Give a job back to the queue: after a retryable failure (the attempt counts, and the job waits
 * `delayMs`), or from a worker shutting down (the attempt does not count).
 */
export async function releaseJob(db: Queryable, workerId: string, jobId: string, countAttempt: boolean, delayMs = 0): Promise<boolean> {
  const res = await db.query(
    `UPDATE jobs SET status = 'queued', attempts = attempts - $3::int, lease_expires_at = NULL, locked_by = NULL, progress_done = NULL, progress_total = NULL,
       run_at = now() + make_interval(secs => $4::float8 / 1000), updated_at = now()
     WHERE id = $1 AND status = 'running' AND locked_by = $2`,
    [jobId, workerId, countAttempt ? 0 : 1, delayMs],
  );
  return res.rowCount === 1;
}

/**
 * Milliseconds until the first lease held by another worker than `workerId` ends, by the
 * database's clock (no skew with ours); null when no other worker holds one. Read from the
 * jobs_running_leases index.
 */
export async function nextLeaseEnd(db: Queryable, workerId: string): Promise<number | null> {
  const { rows } = await db.query<{ ms: number | null }>(
    `SELECT extract(epoch FROM min(lease_expires_at) - now())::float8 * 1000 AS ms FROM jobs WHERE status = 'running' AND locked_by <> $1`,
    [workerId],
  );
  return rows[0]?.ms ?? null;
}

export interface SweepResult {
  requeued: string[];
  failed: string[];
}

/** Jobs whose worker died: back to the queue, or failed (with the hooks) after the last attempt. */
async function sweepExpiredLeases(db: Db, hooks: JobHooks, now: Date): Promise<SweepResult> {
  const requeued = await db.query<{ id: string }>(
    `UPDATE jobs SET status = 'queued', lease_expires_at = NULL, locked_by = NULL, progress_done = NULL, progress_total = NULL, updated_at = now()
     WHERE id IN (SELECT id FROM jobs WHERE status = 'running' AND lease_expires_at < now() AND attempts < max_attempts FOR UPDATE SKIP LOCKED)
     RETURNING id`,
  );
  const exhausted = await db.query<{ id: string; attempts: number }>(
    `SELECT id, attempts FROM jobs WHERE status = 'running' AND lease_expires_at < now() AND attempts >= max_attempts`,
  );
  const failed: string[] = [];
  for (const { id, attempts } of exhausted.rows) {
    const message = `The job did not finish in ${attempts} attempts.`;
    if (await failJob(db, hooks, id, null, { code: 'attempts_exhausted', message, retryable: false }, now)) failed.push(id);
  }
  return { requeued: requeued.rows.map((r) => r.id), failed };
}
