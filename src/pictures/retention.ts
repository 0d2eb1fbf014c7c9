/**
 * How long pictures are kept (JOB_RETENTION_DAYS, 30 by default; 0 keeps them for ever). Store
 * screenshots are meant to be downloaded and uploaded to the stores, not served from here for ever:
 * past the retention a job's files (its PNGs and ZIP) and the bytes of screens deleted that long ago
 * are removed. The job itself stays, with its plan, as does the credit ledger: the account's
 * history and its accounting never shrink. A job whose pictures are gone shows no `image` or
 * `archive`, and its picture URLs answer 404.
 */
import type { Queryable } from '../db/pool.ts';
import type { ObjectStore } from '../objects/index.ts';

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

/** Runs the purge now and every `everyMs` (an hour by default) until stopped. */
export function startRetention(
  db: Queryable,
  objects: ObjectStore,
  days: number,
  opts: { now(): Date; everyMs?: number; log?: { warn(o: object, m: string): void; info(o: object, m: string): void } },
): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  const run = () => {
    running = running.then(async () => {
      try {
        const r = await purgeExpiredPictures(db, objects, days, opts.now());
        if (r.jobs || r.screens) opts.log?.info(r, 'pictures past their retention removed');
      } catch (err) {
        opts.log?.warn({ err }, 'removing pictures past their retention failed; will try again');
      }
    });
  };
  if (days <= 0) return { stop: async () => undefined };
  run();
  const timer = setInterval(run, opts.everyMs ?? 3_600_000);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
