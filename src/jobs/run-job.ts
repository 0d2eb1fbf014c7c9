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
      // A planner Problem is about the request or the listing: the same input fails the same way.
      if (isProblem(error)) throw new PermanentJobError({ code: 'planning_failed', message: error.detail, retryable: false });
      throw error;
    }
  };
}
