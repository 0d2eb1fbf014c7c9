import { describe, expect, it } from 'vitest';
import { queuePublicationStep, workOnPublicationSteps } from '../../src/tasks/publication-step.ts';
import { DEFAULT_TASK_SETTINGS, Tasks } from '../../src/tasks/runner.ts';
import { createTestDatabase } from '../support/db.ts';
import { until } from '../support/jobs.ts';
import { scaled } from '../support/timing.ts';

describe('a deferred publication step', () => {
  // publicationStep re-queues from inside the running task: the stately queue must take a second,
  // later task for the same publication while the first is still active, and hold it until then.
  it('is queued again from its own run, not before the delay, and the run itself completes', { timeout: scaled(60_000) }, async () => {
    const db = await createTestDatabase();
    const tasks = await Tasks.start({ ...DEFAULT_TASK_SETTINGS, connectionString: db.url, pollingIntervalSeconds: 0.5 });
    try {
      const runs: number[] = [];
      await workOnPublicationSteps(
        tasks,
        async (id) => {
          runs.push(Date.now());
          await queuePublicationStep(tasks, id, 90_000);
        },
        1,
      );
      await queuePublicationStep(tasks, 'pub_deferred');
      await until(async () => {
        const { rows } = await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM pgboss.job WHERE state = 'completed'`);
        return rows[0].n === 1;
      }, scaled(20_000));
      const { rows } = await db.pool.query<{ state: string; later: boolean }>(
        `SELECT state, start_after > now() + interval '80 seconds' AS later FROM pgboss.job
         WHERE name = 'publication-advance' AND singleton_key = 'pub_deferred' ORDER BY created_on`,
      );
      expect(rows).toEqual([
        { state: 'completed', later: false },
        { state: 'created', later: true },
      ]);
      expect(runs).toHaveLength(1);
    } finally {
      await tasks.stop(0);
      await db.drop();
    }
  });
});
