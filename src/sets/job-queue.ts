/**
 * The screenshot set on the jobs queue (src/queue/, which knows nothing of sets): the payload a
 * set's job stores (StoredPlanRequest), its result (ScreenshotSetResult), and what a set's end
 * does beside the queue's own row update, in the same transaction: a failed set's charge is
 * refunded, and every end queues the tasks of its webhook deliveries (the jobs_ended trigger has
 * written the deliveries by then). Every worker, test or tool that ends a set's job goes through
 * `setJobs` (or the functions bound from it below), so none ends one without its refund.
 */
import { refund } from '../accounts/credits.ts';
import type { ScreenshotSetResult } from '../core/set.ts';
import type { DbClient } from '../db/pool.ts';
import { creditsRefunded } from '../metrics/index.ts';
import { JobQueue, type ClaimedJob } from '../queue/queue.ts';
import type { EndedJob, JobHooks, JobOutcome, JobRunner } from '../queue/runner.ts';
import type { Worker } from '../queue/worker.ts';
import { queueDeliveryTasks } from '../tasks/webhook-delivery.ts';
import type { StoredPlanRequest } from './jobs.ts';

export type SetJob = ClaimedJob<StoredPlanRequest>;
export type SetJobOutcome = JobOutcome<ScreenshotSetResult>;
export type SetJobRunner = JobRunner<StoredPlanRequest, ScreenshotSetResult>;
export type SetWorker = Worker<StoredPlanRequest, ScreenshotSetResult>;

/**
 * Refunds a failed set's charge. The statement before, in this transaction, failed the row and
 * holds its lock, and a failed row never changes again (jobs_terminal_guard): the charge read
 * here is the one taken, and a second end (a concurrent sweep) finds no running row to fail and
 * never gets here. The metric is counted once committed.
 */
async function refundFailedSet(tx: DbClient, job: EndedJob, now: Date): Promise<(() => void) | void> {
  const { rows } = await tx.query<{ period_start: string; cost: number }>(
    `SELECT to_char(period_start, 'YYYY-MM-DD') AS period_start, cost FROM jobs WHERE id = $1`,
    [job.id],
  );
  const cost = rows[0]?.cost ?? 0;
  if (cost <= 0) return;
  await refund(tx, job.accountId, rows[0].period_start, cost, job.id, now);
  return () => creditsRefunded.inc(cost);
}

export const SET_JOB_HOOKS: JobHooks = {
  onFailed: refundFailedSet,
  onEnded: async (tx, job) => void (await queueDeliveryTasks(tx, { accountId: job.accountId, jobId: job.id })),
};

/** The jobs queue as the screenshot set uses it. */
export const setJobs = new JobQueue<StoredPlanRequest, ScreenshotSetResult>(SET_JOB_HOOKS);

export const { claim: claimJobs, complete: completeJob, fail: failJob, sweep: sweepExpiredLeases } = setJobs;
