/**
 * A publishing worker in its own process, for the SIGKILL tests: pg-boss tasks with a short lease
 * (LEASE_SECONDS, default 2) running the service's own task body (publicationStep, whose store
 * failures wait RETRY_DELAY_SECONDS, default 0, with backoff) against the fake stores given in the
 * environment.
 */
// JavaScript, so that it runs without tsx: it loads dist/ when that is a build of the current
// sources (vitest.config.ts says so in SHOTGEN_FROM_SOURCE, as it does for bin/shotgen.js), else the
// sources through tsx. tsx's loader hooks cost each of the file's eight workers about 0.5 CPU-s
// more, even for dist/'s files.
const fromSource = process.env.SHOTGEN_FROM_SOURCE !== '0';
if (fromSource) (await import('tsx/esm/api')).register();
const load = (name) => import(fromSource ? `../../src/${name}.ts` : `../../dist/${name}.js`);
const [
  { createPool },
  { FileObjectStore },
  { publicationStep },
  { Keyring },
  { publicationBackoffMs, queuePublicationStep, workOnPublicationSteps },
  { Tasks },
] = await Promise.all(
  ['db/pool', 'objects/filesystem', 'publishing/start', 'secrets/envelope', 'tasks/publication-step', 'tasks/runner'].map(load),
);

const env = process.env;
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
