/** What a worker does with a claimed job: plan the set from the app's stored listings. */
import { findApp } from '../apps/apps.ts';
import type { Queryable } from '../db/pool.ts';
import { planWithLlm, type LlmSettings } from '../planning/llm.ts';
import { isProblem } from '../problem.ts';
import { PermanentJobError, type JobRunner } from './job-runner.ts';

export function planningRunner(db: Queryable, llm: LlmSettings | null, log?: { warn(obj: object, msg: string): void }): JobRunner {
  return async (job) => {
    const app = await findApp(db, job.accountId, job.appId);
    if (!app) throw new PermanentJobError({ code: 'planning_failed', message: 'The app of this job no longer exists.', retryable: false });
    const listings = [app.iosListing, app.androidListing].filter((l) => l !== null);
    try {
      return await planWithLlm({ listings, extraContext: app.extraContext, request: job.request }, llm, log);
    } catch (error) {
      // The planner is pure (its model call falls back on any failure), so the same input would
      // fail the same way again: fail at once rather than retry.
      if (isProblem(error)) throw new PermanentJobError({ code: 'planning_failed', message: error.detail, retryable: false });
      log?.warn({ err: error, jobId: job.id }, 'planner failed');
      throw new PermanentJobError({ code: 'internal_error', message: 'Planning this set failed on our side; the credits were refunded.', retryable: true });
    }
  };
}
