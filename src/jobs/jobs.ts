/** The job row, which is both the public Job resource and the queue entry. */
import type { Queryable } from '../db/pool.ts';
import type { PlanRequest, ScreenshotSetResult } from '../planning/types.ts';

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed';
export const TERMINAL: ReadonlySet<JobStatus> = new Set(['succeeded', 'failed']);

export type JobErrorCode = 'store_unavailable' | 'planning_failed' | 'attempts_exhausted' | 'internal_error';

export interface JobError {
  code: JobErrorCode;
  message: string;
  retryable: boolean;
}

export interface PublicJob {
  id: string;
  status: JobStatus;
  result: ScreenshotSetResult | null;
  error: JobError | null;
  createdAt: string;
  updatedAt: string;
}

interface PublicJobRow {
  id: string;
  status: JobStatus;
  result: ScreenshotSetResult | null;
  error: JobError | null;
  created_at: Date;
  updated_at: Date;
}

/** The request as stored with the job: defaults resolved, so a retry plans exactly the same set. */
export type StoredPlanRequest = Required<Omit<PlanRequest, 'narrativeId'>> & { narrativeId: string | null };

const toPublic = (r: PublicJobRow): PublicJob => ({
  id: r.id,
  status: r.status,
  result: r.result,
  error: r.error,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});

/** A job of this account, or null: another account's job is as unknown as a missing one. */
export async function findJob(db: Queryable, accountId: string, jobId: string): Promise<PublicJob | null> {
  // Named (prepared once per connection): polling runs it more than anything else.
  const { rows } = await db.query<PublicJobRow>({
    name: 'find-job',
    text: 'SELECT id, status, result, error, created_at, updated_at FROM jobs WHERE id = $1 AND account_id = $2',
    values: [jobId, accountId],
  });
  return rows[0] ? toPublic(rows[0]) : null;
}
