/** What a worker does with a claimed job: plan the set from the app's stored listings. */
import { findApp } from '../apps/apps.ts';
import type { Queryable } from '../db/pool.ts';
import type { PlanningPool } from '../planning/pool.ts';
import { planDuration, timed } from '../metrics/index.ts';
import { isProblem } from '../problem.ts';
import { TranslationFailed } from '../planning/errors.ts';
import { FatalJobError, RetryableJobError, type JobRunner } from './runner.ts';

export interface SetRunnerDeps {
  db: Queryable;
  planner: Pick<PlanningPool, 'plan'>;
  log?: { warn(obj: object, msg: string): void };
}

export function screenshotSetRunner({ db, planner, log }: SetRunnerDeps): JobRunner {
  return async (job, { signal }) => {
    const app = await findApp(db, job.accountId, job.appId);
    if (!app) throw new FatalJobError({ code: 'planning_failed', message: 'The app of this job no longer exists.', retryable: false });
    const listings = [app.iosListing, app.androidListing].filter((l) => l !== null);
    try {
      return { result: await timed(planDuration, () => planner.plan({ listings, extraContext: app.extraContext, request: job.request }, signal)) };
    } catch (error) {
      if (signal.aborted) throw error;
      // The planner is otherwise pure (its caption model call falls back on any failure), so the same input would
      // fail the same way again: fail at once rather than retry.
      // A model that could not translate a locale may well answer later: retry, refund at the last attempt.
      if (error instanceof TranslationFailed) throw new RetryableJobError({ code: 'planning_failed', message: error.message, retryable: true });
      if (isProblem(error)) throw new FatalJobError({ code: 'planning_failed', message: error.detail, retryable: false });
      log?.warn({ err: error, jobId: job.id }, 'planner failed');
      throw new FatalJobError({ code: 'internal_error', message: 'Planning this set failed on our side; the credits were refunded.', retryable: false });
    }
  };
}
