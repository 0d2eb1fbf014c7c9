/**
 * The retention task: deletes what is past its time (its body: scheduleRetention in
 * src/sets/retention.ts), once a period whatever the number of workers (Tasks.runEvery). A failed
 * pass is retried with backoff; its runs hold a short lease renewed while they live.
 */
import type { TaskQueue, TaskSettings } from './runner.ts';

export const RETENTION_TASK = 'retention';
/** The tasks that run once a period (Tasks.runEvery). */
export type PeriodicTask = typeof RETENTION_TASK;

export const retentionQueue = (settings: TaskSettings): TaskQueue => ({
  name: RETENTION_TASK,
  policy: 'standard',
  retryLimit: settings.retryLimit,
  retryDelay: settings.retryDelaySeconds,
  retryBackoff: true,
  expireInSeconds: settings.maxRunSeconds ?? 15 * 60,
  leased: true,
});
