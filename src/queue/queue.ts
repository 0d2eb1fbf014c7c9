/**
 * The queue operations on the jobs table, in plain SQL (the pg-boss / graphile-worker pattern):
 * claim under a lease, fairly across accounts (./claim.ts), extend it by heartbeat, finish only while the
 * lease is still ours, and sweep expired leases back to `queued` (or to `failed` after the last
 * attempt). Failing a job refunds its charge in the same transaction. A finished job keeps
 * `locked_by`: the worker that ran its last attempt. Every end (completeJob, failJob, which the
 * sweep uses too) queues the tasks of its webhook deliveries in its own transaction.
 */
import { refund } from '../accounts/credits.ts';
import { transaction, type Db, type Queryable } from '../db/pool.ts';
import { creditsRefunded } from '../metrics/index.ts';
import { queueDeliveryTasks } from '../tasks/webhook-delivery.ts';
import type { JobOutcome } from './runner.ts';
import type { JobError } from './jobs.ts';

export { claimJobs, type ClaimedJob, type ClaimOptions } from './claim.ts';

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
 * job's event, its webhook deliveries and its notification to it, and the deliveries' tasks are
 * queued on it too.
 */
export async function completeJob(db: Db, workerId: string, jobId: string, outcome: JobOutcome): Promise<boolean> {
  return transaction(db, async (tx) => {
    const { rows } = await tx.query<{ account_id: string }>(
      `UPDATE jobs SET status = 'succeeded', result = $3, lease_expires_at = NULL, progress_done = NULL, progress_total = NULL, updated_at = now()
       WHERE id = $1 AND status = 'running' AND locked_by = $2 RETURNING account_id`,
      [jobId, workerId, outcome.result],
    );
    if (!rows[0]) return false;
    await outcome.save?.(tx);
    await queueDeliveryTasks(tx, { accountId: rows[0].account_id, jobId });
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

/** Mark failed and refund, in one transaction with the webhooks' tasks. `workerId` null: the sweep, which holds no lease. */
export async function failJob(db: Db, jobId: string, workerId: string | null, error: JobError, now: Date = new Date()): Promise<boolean> {
  const refunded = await transaction(db, async (tx) => {
    const { rows } = await tx.query<{ account_id: string; period_start: string; cost: number }>(
      `UPDATE jobs SET status = 'failed', error = $3, lease_expires_at = NULL, progress_done = NULL, progress_total = NULL, updated_at = now()
       WHERE id = $1 AND status = 'running' AND (locked_by = $2 OR ($2::text IS NULL AND lease_expires_at < now()))
       RETURNING account_id, to_char(period_start, 'YYYY-MM-DD') AS period_start, cost`,
      [jobId, workerId, error],
    );
    if (!rows[0]) return null;
    if (rows[0].cost > 0) await refund(tx, rows[0].account_id, rows[0].period_start, rows[0].cost, jobId, now);
    await queueDeliveryTasks(tx, { accountId: rows[0].account_id, jobId });
    return rows[0].cost;
  });
  // Counted once committed.
  if (refunded) creditsRefunded.inc(refunded);
  return refunded !== null;
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

export interface SweepResult {
  requeued: string[];
  failed: string[];
}

/** Jobs whose worker died: back to the queue, or failed and refunded after the last attempt. */
export async function sweepExpiredLeases(db: Db, now: Date = new Date()): Promise<SweepResult> {
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
    if (await failJob(db, id, null, { code: 'attempts_exhausted', message, retryable: false }, now)) failed.push(id);
  }
  return { requeued: requeued.rows.map((r) => r.id), failed };
}
