/**
 * A publishing worker in its own process, for the SIGKILL tests: pg-boss tasks with a short lease
 * (LEASE_SECONDS, default 2) running the service's own task body (publicationStep, whose store
 * failures wait RETRY_DELAY_SECONDS, default 0, with backoff) against the fake stores given in the
 * environment.
 */
import { createPool } from '../../src/db/pool.ts';
import { FileObjectStore } from '../../src/objects/filesystem.ts';
import { publicationStep } from '../../src/publishing/start.ts';
import { Keyring } from '../../src/secrets/envelope.ts';
import { publicationBackoffMs, queuePublicationStep, workOnPublicationSteps } from '../../src/tasks/publication-step.ts';
import { Tasks } from '../../src/tasks/runner.ts';

const env = process.env as Record<string, string>;
const db = createPool(env.DB_URL, 3);
const tasks = await Tasks.start({
  connectionString: env.DB_URL,
  leaseSeconds: Number(env.LEASE_SECONDS ?? 2),
  retryLimit: 30,
  retryDelaySeconds: Number(env.RETRY_DELAY_SECONDS ?? 0),
  pollingIntervalSeconds: 0.5,
  maintenanceIntervalSeconds: 1,
});
const runner = {
  db,
  objects: new FileObjectStore(env.OBJECTS_DIR),
  keyring: new Keyring(Buffer.from(env.SECRETS_KEY, 'base64')),
  appStoreConnectUrl: env.ASC_URL,
  googlePlayApiUrl: env.PLAY_URL,
  retry: { attempts: 3, baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 2_000 },
  appStore: { pollIntervalMs: 50, pollTimeoutMs: 20_000 },
};
// Started ahead (HOLD=1), it loads and connects while the worker before it runs, and takes no task
// until the test writes a line: a process start costs 4-5 s on a loaded runner.
if (env.HOLD === '1') {
  process.stdout.write('worker loaded\n');
  await new Promise((resolve) => process.stdin.once('data', resolve));
}
await workOnPublicationSteps(
  tasks,
  publicationStep(
    runner,
    (id, afterMs, failures) => queuePublicationStep(tasks, id, afterMs, failures),
    undefined,
    (n) => publicationBackoffMs(tasks, n),
  ),
  1,
);
process.stdout.write('worker ready\n');
