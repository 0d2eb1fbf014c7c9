/** The contract between the worker loop and the work it runs. */
import type { ScreenshotSetResult } from '../planning/types.ts';
import type { JobError } from './jobs.ts';
import type { ClaimedJob } from './queue.ts';

export type JobRunner = (job: ClaimedJob) => Promise<ScreenshotSetResult>;

/** A failure that retrying cannot fix: the job fails at once (and is refunded). */
export class PermanentJobError extends Error {
  constructor(readonly jobError: JobError) {
    super(jobError.message);
  }
}
