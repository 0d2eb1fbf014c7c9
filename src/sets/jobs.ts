/**
 * The job row as the screenshot set's: the public Job resource (its status, result and error as
 * the API shows them) and the request a set's job stores. The queue that moves the row is
 * src/queue/; the set's use of it is ./job-queue.ts.
 */
import type { ThemeId } from '../core/themes.ts';
import type { Orientation } from '../core/orientation.ts';
import type { Static } from '@sinclair/typebox';
import type { Queryable } from '../db/pool.ts';
import type { JOB_STATUSES, JobSchema } from '../core/job-schemas.ts';
import type { PlanRequest, ScreenshotSetResult } from '../core/set.ts';
import type { JobError } from '../queue/runner.ts';
import type { StoredRevision } from './revisions/types.ts';

export type JobStatus = (typeof JOB_STATUSES)[number];
export const TERMINAL: ReadonlySet<JobStatus> = new Set(['succeeded', 'failed']);

/** The job's public shape; its schema (src/core/job-schemas.ts) is the source. */
export type PublicJob = Static<typeof JobSchema>;

interface PublicJobRow {
  id: string;
  status: JobStatus;
  result: ScreenshotSetResult | null;
  error: JobError | null;
  progress_done: number | null;
  progress_total: number | null;
  parent_job_id: string | null;
  created_at: Date;
  updated_at: Date;
}

/** The request as stored with the job: defaults resolved, so a retry plans exactly the same set. */
export type StoredPlanRequest = Required<Omit<PlanRequest, 'narrativeId' | 'slides' | 'locales' | 'size' | 'orientation'>> & {
  narrativeId: string | null;
  /** The slides' size when the request asked for one of the device's other sizes; absent: the device's own. */
  size?: string;
  /** The orientation the request asked for; absent: decided from the screens (core/orientation.ts). */
  orientation?: Orientation;
  slides?: PlanRequest['slides'];
  locales?: string[];
  /** The uploaded screens the slides frame, in order (cycling); absent: the family's uploads, else the listing's. */
  screenIds?: string[];
  /** The request's theme; absent: the brand kit's default (src/brand/resolve.ts). */
  theme?: ThemeId;
  /** A revision of a succeeded set (src/sets/revisions/): its plan is stored here and rendered, not planned. */
  revision?: StoredRevision;
};

const toPublic = (r: PublicJobRow): PublicJob => ({
  id: r.id,
  status: r.status,
  result: r.result,
  error: r.error,
  progress: r.status === 'running' && r.progress_total !== null ? { done: r.progress_done ?? 0, total: r.progress_total } : null,
  parentJobId: r.parent_job_id,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});

/** A job of this account, or null: another account's job is as unknown as a missing one. */
export async function findJob(db: Queryable, accountId: string, jobId: string): Promise<PublicJob | null> {
  // Named (prepared once per connection): polling runs it more than anything else.
  const { rows } = await db.query<PublicJobRow>({
    name: 'find-job',
    text: 'SELECT id, status, result, error, progress_done, progress_total, parent_job_id, created_at, updated_at FROM jobs WHERE id = $1 AND account_id = $2',
    values: [jobId, accountId],
  });
  return rows[0] ? toPublic(rows[0]) : null;
}
