/**
 * The publication-step task: one run of a publication's steps (its body: publicationStep in
 * src/publishing/start.ts). One key per publication and policy `stately`: one step queued and one
 * running at most, so a step asked for twice runs once. Its runs hold a short lease renewed while
 * they live (src/tasks/runner.ts), so a killed worker's step is taken again within a minute.
 */
import type { Attempt, TaskQueue, Tasks, TaskSettings } from './runner.ts';

export const PUBLICATION_TASK = 'publication-advance';

/**
 * A publication step's attempt: `retryCount` is the store failures so far (the handler's own
 * retries, carried in the task), `lastAttempt` whether this run may not ask for another.
 */
export type PublicationHandler = (publicationId: string, attempt: Attempt) => Promise<void>;

interface StepData {
  publicationId: string;
  /** Store failures so far, when the handler queued this step as a retry. */
  failures?: number;
}

export const publicationQueue = (settings: TaskSettings): TaskQueue => ({
  name: PUBLICATION_TASK,
  policy: 'stately',
  // pg-boss's retry is left for a run that died (its lease over) or was stopped, and it is owed at
  // once: its backoff would add 15-30 s (minutes after earlier failures) to the lease. A store
  // that is unavailable is retried by the handler, with that backoff (publicationStep in
  // src/publishing/start.ts, publicationBackoffMs below).
  retryLimit: settings.retryLimit,
  retryDelay: 0,
  retryBackoff: false,
  expireInSeconds: settings.maxRunSeconds ?? 15 * 60,
  leased: true,
});

/**
 * Queues the next step of a publication (`afterMs`: not before then; `failures`: the store
 * failures so far, when the handler retries); a step already queued for it absorbs this one.
 */
export async function queuePublicationStep(tasks: Pick<Tasks, 'send'>, publicationId: string, afterMs = 0, failures = 0): Promise<void> {
  await tasks.send(
    PUBLICATION_TASK,
    { publicationId, ...(failures > 0 ? { failures } : {}) },
    { singletonKey: publicationId, ...(afterMs > 0 ? { startAfter: Math.ceil(afterMs / 1000) } : {}) },
  );
}

/** How long to wait before the retry after the `failures`-th failure: pg-boss's own backoff (15-30 s, 30-60 s, …). */
export function publicationBackoffMs(tasks: Pick<Tasks, 'settings'>, failures: number): number {
  return tasks.settings.retryDelaySeconds * 1000 * 2 ** (Math.min(16, Math.max(1, failures)) - 1) * (1 + Math.random());
}

/** Runs publication steps in this process, `concurrency` at a time. */
export async function workOnPublicationSteps(
  tasks: Pick<Tasks, 'work' | 'settings'>,
  handler: PublicationHandler,
  concurrency = 2,
): Promise<void> {
  await tasks.work<StepData>(PUBLICATION_TASK, concurrency, (data, attempt) => {
    // The store failures are counted in the task (the handler queues each retry); pg-boss's own
    // count is the runs that died, and its last one is a last attempt too.
    const failures = data.failures ?? 0;
    return handler(data.publicationId, {
      retryCount: failures,
      lastAttempt: failures >= tasks.settings.retryLimit || attempt.lastAttempt,
    });
  });
}
