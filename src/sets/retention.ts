/**
 * How long pictures are kept (JOB_RETENTION_DAYS, 30 by default; 0 keeps them for ever). Store
 * screenshots are meant to be downloaded and uploaded to the stores, not served from here for ever:
 * past the retention a job's files (its PNGs and ZIP) and the bytes of screens deleted that long ago
 * are removed. The job itself stays, with its plan, as does the credit ledger: the account's
 * history and its accounting never shrink. A job whose pictures are gone shows no `image` or
 * `archive`, and its picture URLs answer 404.
 */
import type { Queryable } from '../db/pool.ts';
import { deleteExpiredIdempotencyKeys } from './idempotency.ts';
import type { ObjectStore } from '../objects/index.ts';
import { RETENTION_TASK } from '../tasks/retention.ts';
import type { Tasks } from '../tasks/runner.ts';

export interface RetentionResult {
  jobs: number;
  screens: number;
}

const BATCH = 100;

/** One pass: everything past the retention, in batches. Safe to run in several processes at once. */
export async function purgeExpiredPictures(db: Queryable, objects: ObjectStore, days: number, now: Date): Promise<RetentionResult> {
  const out = { jobs: 0, screens: 0 };
  if (days <= 0) return out;
  const cutoff = new Date(now.getTime() - days * 86_400_000);
  for (;;) {
    const { rows } = await db.query<{ job_id: string }>(
      `SELECT DISTINCT f.job_id FROM job_files f JOIN jobs j ON j.id = f.job_id WHERE j.updated_at < $1 LIMIT $2`,
      [cutoff, BATCH],
    );
    for (const { job_id } of rows) {
      // The bytes first: a row is never left pointing at nothing for a reader to trip on.
      await objects.deletePrefix(`jobs/${job_id}`);
      await db.query('DELETE FROM job_files WHERE job_id = $1', [job_id]);
    }
    out.jobs += rows.length;
    if (rows.length < BATCH) break;
  }
  for (;;) {
    const { rows } = await db.query<{ id: string; object_key: string }>(
      'SELECT id, object_key FROM screens WHERE deleted_at < $1 LIMIT $2',
      [cutoff, BATCH],
    );
    for (const r of rows) {
      await objects.delete(r.object_key);
      await db.query('DELETE FROM screens WHERE id = $1', [r.id]);
    }
    out.screens += rows.length;
    if (rows.length < BATCH) break;
  }
  return out;
}

/**
 * Retention as a task (src/tasks): once an hour across every worker process of a deployment, not
 * once per process. It also deletes Idempotency-Key records past their 24 hours (a lookup already
 * ignores an expired one: deleting them only keeps the table small). A failed pass is retried by
 * the task runner with backoff, and the next period runs regardless.
 */
export async function scheduleRetention(
  tasks: Pick<Tasks, 'runEvery'>,
  db: Queryable,
  objects: ObjectStore,
  days: number,
  opts: { now(): Date; periodSeconds?: number; log?: { warn(o: object, m: string): void; info(o: object, m: string): void } },
): Promise<void> {
  await tasks.runEvery(RETENTION_TASK, opts.periodSeconds ?? 3600, async (attempt) => {
    try {
      const now = opts.now();
      const r = await purgeExpiredPictures(db, objects, days, now);
      const idempotencyKeys = await deleteExpiredIdempotencyKeys(db, now);
      if (r.jobs || r.screens || idempotencyKeys) opts.log?.info({ ...r, idempotencyKeys }, 'data past its retention removed');
    } catch (err) {
      opts.log?.warn({ err, retry: attempt.retryCount }, 'removing data past its retention failed; the task will be retried');
      throw err;
    }
  });
}
