/** The contract between the worker loop and the work it runs. */
import type { DbClient } from '../db/pool.ts';
import type { ScreenshotSetResult } from '../core/set.ts';
import type { JobError } from './jobs.ts';
import type { ClaimedJob } from './queue.ts';

export interface JobContext {
  /** Aborted when the attempt is abandoned: it ran over its time, lost its lease, or the worker stops. */
  signal: AbortSignal;
  /** Report how far a running job is; GET job shows it. Cheap to call often: writes are coalesced. */
  progress(done: number, total: number): void;
}

export interface JobOutcome {
  result: ScreenshotSetResult;
  /**
   * Writes the attempt's outputs (rows that describe stored pictures, say) inside the transaction
   * that completes the job, so a job is never seen succeeded without them, nor they without it.
   */
  save?(tx: DbClient): Promise<void>;
}

export type JobRunner = (job: ClaimedJob, ctx: JobContext) => Promise<JobOutcome>;

/** A failure that retrying cannot fix: the job fails at once (and is refunded). */
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
