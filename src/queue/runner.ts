/**
 * The contract between the worker loop and the work it runs, generic over the job's payload `P`
 * (the jobs table's `request` column) and result `R` (its `result` column): the queue moves rows,
 * and whoever owns the work says what they hold and what an end does beyond the row (JobHooks).
 */
import type { Static } from '@sinclair/typebox';
import type { JOB_ERROR_CODES, JobErrorSchema } from '../core/job-schemas.ts';
import type { DbClient } from '../db/pool.ts';
import type { ClaimedJob } from './claim.ts';

/** Why a job failed, as its `error` column and the public Job show it (core/job-schemas.ts). */
export type JobErrorCode = (typeof JOB_ERROR_CODES)[number];
export type JobError = Static<typeof JobErrorSchema>;

export interface JobContext {
  /** Aborted when the attempt is abandoned: it ran over its time, lost its lease, or the worker stops. */
  signal: AbortSignal;
  /** Report how far a running job is; GET job shows it. Cheap to call often: writes are coalesced. */
  progress(done: number, total: number): void;
}

export interface JobOutcome<R> {
  result: R;
  /**
   * Writes the attempt's outputs (rows that describe stored pictures, say) inside the transaction
   * that completes the job, so a job is never seen succeeded without them, nor they without it.
   */
  save?(tx: DbClient): Promise<void>;
}

export type JobRunner<P, R> = (job: ClaimedJob<P>, ctx: JobContext) => Promise<JobOutcome<R>>;

/** A job that has just ended, as its hooks see it. */
export interface EndedJob {
  id: string;
  accountId: string;
}

/**
 * What the owner of the work adds to a job's end, inside the transaction that ends it: it commits
 * with the row's new status or not at all. Ending a job twice is not possible (the row is updated
 * only while running, and a terminal row never changes: jobs_terminal_guard), so each hook runs
 * once per job's end.
 */
export interface JobHooks {
  /**
   * A job failed (a worker's failure, or the sweep after its last attempt), right after its row
   * was marked failed (and locked by that update): a refund, say. It may return what to do once
   * the transaction has committed (a metric counted only for what committed).
   */
  onFailed?(tx: DbClient, job: EndedJob, now: Date): Promise<(() => void) | void>;
  /** Any end, succeeded or failed, after everything else in its transaction: its webhooks' tasks, say. */
  onEnded?(tx: DbClient, job: EndedJob): Promise<void>;
}

/** A failure that retrying cannot fix: the job fails at once. */
export class FatalJobError extends Error {
  constructor(readonly jobError: JobError) {
    super(jobError.message);
  }
}

/** A failure worth another attempt (a store that did not answer); the last one fails the job with it. */
export class RetryableJobError extends Error {
  constructor(readonly jobError: JobError) {
    super(jobError.message);
  }
}
