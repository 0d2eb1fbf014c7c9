/**
 * A worker process for the lease test: it takes the period's retention task, says so, and hangs
 * in it until the test SIGKILLs it, as a worker killed in the middle of a pass would.
 */
import { RETENTION_TASK } from '../../src/tasks/retention.ts';
import { Tasks } from '../../src/tasks/runner.ts';

const tasks = await Tasks.start({
  connectionString: process.env.DB_URL!,
  leaseSeconds: 2,
  retryLimit: 3,
  retryDelaySeconds: 0,
  pollingIntervalSeconds: 0.5,
  maintenanceIntervalSeconds: 1,
});
await tasks.runEvery(RETENTION_TASK, Number(process.env.PERIOD), async (attempt) => {
  process.stdout.write(`running retry=${attempt.retryCount}\n`);
  await new Promise(() => undefined);
});
