import { describe, expect, it } from 'vitest';
import { queuePublicationStep, workOnPublicationSteps } from '../../src/tasks/publication-step.ts';
import { DEFAULT_TASK_SETTINGS, Tasks, type Attempt } from '../../src/tasks/runner.ts';
import { createTestDatabase } from '../support/db.ts';
import { until } from '../support/jobs.ts';
import { scaled } from '../support/timing.ts';

describe('the lease of a publication step', () => {
  it('is short by default: a dead worker’s step is taken again within a minute, a live one may run 15', () => {
    const s = DEFAULT_TASK_SETTINGS;
    // The lease, then maintenance (which may run a little early and so wait a whole interval more),
    // then one poll. test/publishing/sigkill.test.ts kills a worker and sees the next one take it.
    expect(s.leaseSeconds + 2 * s.maintenanceIntervalSeconds + s.pollingIntervalSeconds).toBeLessThan(60);
    expect(s.maxRunSeconds).toBe(15 * 60);
  });

  it('is renewed while the step runs: a step that outlives its lease many times is run once', { timeout: scaled(60_000) }, async () => {
    const db = await createTestDatabase();
    const tasks = await Tasks.start({
      connectionString: db.url,
      leaseSeconds: 2,
      retryLimit: 3,
      retryDelaySeconds: 0,
      pollingIntervalSeconds: 0.5,
      maintenanceIntervalSeconds: 1,
    });
    try {
      const runs: Attempt[] = [];
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      // Two workers: a task pg-boss took back would be run again by the idle one.
      await workOnPublicationSteps(
        tasks,
        async (_id, attempt) => {
          runs.push(attempt);
          await released;
        },
        2,
      );
      await queuePublicationStep(tasks, 'pub_long');
      await until(async () => runs.length === 1, 10_000);
      const began = (await db.pool.query<{ now: Date }>('SELECT now()')).rows[0].now.getTime();
      // pg-boss's maintenance (which fails a task whose lease is over) has run after three leases
      // would have ended without renewal, and once more after that, so that run is finished.
      const maintained = async () =>
        (await db.pool.query<{ at: Date | null }>('SELECT maintained_on AS at FROM pgboss.version')).rows[0].at?.getTime() ?? 0;
      const late = await until(async () => ((await maintained()) > began + 3 * 2000 ? maintained() : null), 30_000, 100);
      await until(async () => (await maintained()) > late, 10_000, 100);
      const task = async () =>
        (
          await db.pool.query<{ state: string; retry_count: number }>(
            `SELECT state, retry_count FROM pgboss.job WHERE name = 'publication-advance'`,
          )
        ).rows;
      expect(await task()).toEqual([{ state: 'active', retry_count: 0 }]);
      expect(runs).toEqual([{ retryCount: 0, lastAttempt: false }]);
      release();
      await until(async () => (await task())[0]?.state === 'completed', 10_000);
    } finally {
      await tasks.stop(0);
      await db.drop();
    }
  });
});
