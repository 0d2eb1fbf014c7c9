/**
 * Assembles a running process from its parts: the database, the LISTEN connection, the caches, the
 * HTTP server and/or the worker, and tears them down in the reverse order on shutdown.
 */
import { ScreenReader } from './screens/reader.ts';
import { configureServiceHeap } from './heap.ts';
import { AccountViews } from './accounts/account-views.ts';
import { Authenticator } from './accounts/authenticator.ts';
import type { Clock } from './accounts/credits.ts';
import type { Config } from './config.ts';
import { openDatabase, type Database } from './db/database.ts';
import { Notifications } from './db/notifications.ts';
import { NotifyBatcher } from './db/notify-batcher.ts';
import { buildWorkerServer } from './http/worker-server.ts';
import type { Api } from './http/services.ts';
import { JobReader } from './sets/reader.ts';
import { screenshotSetRunner } from './sets/run.ts';
import { Worker } from './queue/worker.ts';
import { setJobs, type SetWorker } from './sets/job-queue.ts';
import { WebhookDispatcher, type DispatcherOptions } from './webhooks/dispatcher.ts';
import { createStoreReaders } from './stores/index.ts';
import { createLogger } from './logger.ts';
import { Teardown } from './teardown.ts';
import { createRateLimits } from './http/rate-limit/index.ts';
import { PlanningPool } from './planning/pool.ts';
import { closeFillability } from './planning/fillable.ts';
import { planFillChecks } from './sets/fill-checks.ts';
import { pgAnswerCache } from './captions/model/answer-cache.ts';
import { JobWaiters } from './sets/waiters.ts';
import { createObjectStore } from './objects/index.ts';
import { loadSigningSecret, UrlSigner } from './sets/signed-urls.ts';
import { RenderPool } from './rendering/index.ts';
import { Previewer } from './sets/revisions/preview.ts';
import { scheduleRetention } from './sets/retention.ts';
import type { Logger } from 'pino';
import type { FastifyInstance } from 'fastify';
import { startPublishing } from './publishing/start.ts';
import { openSecrets } from './secrets/startup.ts';
import { DEFAULT_TASK_SETTINGS, Tasks } from './tasks/runner.ts';

export type ServiceRole = 'all' | 'api' | 'worker';

export interface Service {
  database: Database;
  server: Api | null;
  worker: SetWorker | null;
  /** Sends webhooks, in processes that run jobs. */
  webhooks: WebhookDispatcher | null;
  /** The API's parked long polls (tests wait for a poll to park on it). */
  waiters: JobWaiters | null;
  /** A worker-only process's /healthz, /readyz and /metrics (src/http/worker-server.ts). */
  workerServer: FastifyInstance | null;
  /** The address the API (or, in role worker, the worker's health and metrics server) listens on. */
  address: string | null;
  close(): Promise<void>;
}

export interface StartOptions {
  role?: ServiceRole;
  clock?: Clock;
  /** Use this database instead of opening one from the config (tests). */
  database?: Database;
  listen?: boolean;
  logger?: Logger;
  /** Tests: a quicker retry schedule, a resolver that points made-up names at 127.0.0.1. */
  webhooks?: Partial<Pick<DispatcherOptions, 'retryDelaysMs' | 'resolve' | 'pollIntervalMs' | 'timeoutMs'>>;
  /**
   * Tests: threads the process already runs, used instead of the service's own and never closed by
   * it. A thread's start costs about a CPU-second (tsx, the fonts or the language model), and a test
   * process starts a service in many files; `serve` starts one service and owns its threads.
   */
  threads?: SharedThreads;
}

export interface SharedThreads {
  /** Renders the worker's sets. */
  renderer?: RenderPool;
  /** Renders the editor's previews (`serve`: a thread of its own at normal priority). */
  previews?: RenderPool;
  /** Plans the worker's sets; only for a config without a model (its answers are kept per database). */
  planner?: PlanningPool;
  /** Leave the process's fillability thread (planning/fillable.ts) running at close, for the next service. */
  fillability?: 'keep';
}

/** A pool the service uses but another owner closes. */
const borrowed = (pool: RenderPool): Pick<RenderPool, 'preview' | 'close'> => ({
  preview: (...args) => pool.preview(...args),
  close: async () => undefined,
});

/**
 * Fastify's close waits for every in-flight request, and a client that stops reading a download
 * keeps its request in flight until the idle timeout: past SHUTDOWN_TIMEOUT_MS the remaining
 * connections are cut, so a stop is bounded whatever the clients do.
 */
async function closeServer(server: Api, timeoutMs: number): Promise<void> {
  const closing = server.close();
  const timer = setTimeout(() => server.server.closeAllConnections(), timeoutMs);
  try {
    await closing;
  } finally {
    clearTimeout(timer);
  }
}

export async function startService(config: Config, opts: StartOptions = {}): Promise<Service> {
  const role = opts.role ?? 'all';
  configureServiceHeap();
  const clock = opts.clock ?? (() => new Date());
  const log = opts.logger ?? createLogger(config);
  const database = opts.database ?? (await openDatabase(config, { role: 'serve', log: (m) => log.info(m), warn: (m) => log.warn(m) }));
  const teardown = new Teardown();
  if (!opts.database) teardown.add('database', 'the database', () => database.close());
  const notifications = new Notifications(database.url, (msg, err) => log.warn({ err }, msg));
  teardown.add('notifications', 'notifications', () => notifications.close());
  await notifications.start();

  let server: Api | null = null;
  let workerServer: FastifyInstance | null = null;
  let waiters: JobWaiters | null = null;
  let worker: SetWorker | null = null;
  let webhooks: WebhookDispatcher | null = null;
  let address: string | null = null;
  const notifier = new NotifyBatcher(database.pool, 3, (msg, err) => log.warn({ err }, msg));
  teardown.add('flush', 'notification batches', () => notifier.flush());
  const objects = createObjectStore(config);
  teardown.add('resources', 'the object store', () => objects.close());
  try {
    // One job reader (and its cache of finished jobs) and one URL signer for the whole process: in
    // role `all` the API's polls and the webhooks read the same jobs, signed with the same key.
    const jobs = new JobReader(database.pool);
    const keyring = await openSecrets(config, database.pool, log);
    const signer = new UrlSigner(await loadSigningSecret(database.pool, config.urlSigningSecret, keyring));
    // One task runner a process: the api role only enqueues on it, the others also run tasks.
    const tasks = await Tasks.start({ ...DEFAULT_TASK_SETTINGS, connectionString: database.url }, log);
    teardown.add('intake', 'the task runner', (ms) => tasks.stop(ms));
    const publishing = await startPublishing(config, { keyring, db: database.pool, tasks, objects, log, runWorkers: role !== 'api' });
    // Each uploaded screen is read once, where it is stored (the API), and each listing screenshot
    // by the first set that frames it (the worker): one low-priority thread a process, started on first use.
    const screenReader = new ScreenReader(database.pool, log);
    teardown.add('resources', 'the screen reader', () => screenReader.close());
    if (role !== 'worker') {
      const authenticator = new Authenticator(database.pool, notifications, { now: clock });
      teardown.add('resources', 'the authenticator', () => authenticator.close());
      if (opts.threads?.fillability !== 'keep') teardown.add('resources', 'the fillability thread', () => closeFillability());
      const rateLimits = await createRateLimits(
        { ...config.rateLimit, redisUrl: config.redisUrl, redisKeyPrefix: config.redisKeyPrefix },
        (msg, err) => log.warn({ err }, msg),
      );
      teardown.add('resources', 'the rate limits', () => rateLimits.close());
      // Long polls are answered at once (with the job as it is): they must not hold the shutdown.
      const jobWaiters = new JobWaiters(notifications);
      waiters = jobWaiters;
      teardown.add('intake', 'long polls', () => jobWaiters.close());
      const previewer = new Previewer({
        db: database.pool,
        objects,
        renderer: opts.threads?.previews
          ? borrowed(opts.threads.previews)
          : new RenderPool({ threads: 1, nice: 0, idleTimeout: 10 * 60_000 }),
        storeImageOrigins: config.storeImageOrigins,
        queue: { perAccount: config.revisions.previewsAtOnce },
      });
      teardown.add('resources', 'the preview renderer', () => previewer.close());
      // Loaded here, not at the top: a worker never serves the API, and its routes, schemas and
      // the dashboard are about a hundred modules every worker process loaded for nothing.
      const [{ buildServer }, { dashboardPlugin }] = await Promise.all([import('./http/server.ts'), import('./dashboard/index.ts')]);
      const api = await buildServer(
        {
          config,
          db: database.pool,
          authenticator,
          accountViews: new AccountViews(database.pool, notifications, clock),
          stores: createStoreReaders({
            appStoreLookupUrl: config.appStoreLookupUrl,
            googlePlayUrl: config.googlePlayUrl,
            timeoutMs: config.storeTimeoutMs,
            cacheTtlMs: config.storeCacheTtlMs,
            logger: log,
          }),
          jobs,
          notifier,
          clock,
          rateLimits,
          objects,
          signer,
          waiters: jobWaiters,
          // Its own thread, at normal priority: a preview answers while the user types, whatever the queue holds.
          previews: previewer,
          screenReader,
          publishing: publishing.services,
          planFillChecks: (app) => planFillChecks(database.pool, app).usual,
        },
        { logger: log, limits: config.http, trustProxy: config.trustProxy, metricsToken: config.metricsToken, dashboard: dashboardPlugin },
      );
      server = api;
      teardown.add('intake', 'the HTTP server', (ms) => closeServer(api, ms));
      if (opts.listen !== false) address = await api.listen({ port: config.port, host: config.host });
    }
    if (role !== 'api') {
      if (opts.threads?.planner && config.llm) throw new Error('a shared planning pool is only for a config without a model');
      const planner = opts.threads?.planner ?? new PlanningPool(config.llm, log, 1, pgAnswerCache(database.pool));
      if (!opts.threads?.planner) teardown.add('resources', 'the planning pool', () => planner.close());
      const renderer = opts.threads?.renderer ?? new RenderPool();
      if (!opts.threads?.renderer) teardown.add('resources', 'the render pool', () => renderer.close());
      const pictures = { objects, renderer, storeImageOrigins: config.storeImageOrigins, now: clock };
      const jobWorker = new Worker(
        database.pool,
        notifications,
        screenshotSetRunner({ db: database.pool, planner, pictures, log, sendPictures: !!config.llm?.vision, screenReader }),
        {
          queue: setJobs,
          concurrency: config.workerConcurrency,
          perAccount: config.accountJobConcurrency,
          leaseMs: config.jobLeaseMs,
          now: clock,
          log,
        },
      );
      worker = jobWorker;
      teardown.add('intake', 'the worker', (ms) => jobWorker.stop(ms));
      jobWorker.start();
      // A webhook carries the job as GET shows it; its picture URLs need the public origin, which
      // a worker has no request to take from: PUBLIC_URL, else this machine's own port.
      const origin = config.publicUrl ?? `http://localhost:${config.port}`;
      const links = () => ({ signer, origin, basePath: config.basePath, now: clock() });
      // Stopped with the task runner, which gives it the time left to finish or give back its attempts.
      const dispatcher = new WebhookDispatcher(database.pool, tasks, {
        ...config.webhooks,
        readJob: (accountId, jobId) => jobs.get(accountId, jobId, links()),
        keyring,
        log,
        ...opts.webhooks,
      });
      webhooks = dispatcher;
      await dispatcher.start();
      await scheduleRetention(tasks, database.pool, objects, config.jobRetentionDays, { now: clock, log });
    }
    if (role === 'worker') {
      const health = await buildWorkerServer({ db: database.pool, logger: log, limits: config.http, metricsToken: config.metricsToken });
      workerServer = health;
      teardown.add('intake', 'the health server', (ms) => closeServer(health, ms));
      if (opts.listen !== false) address = await workerServer.listen({ port: config.port, host: config.host });
    }
  } catch (error) {
    // Whatever had started before the failure stops again: a worker left claiming jobs on a
    // closed pool would be worse than the failed start. The start's own error is the one to see.
    await teardown.run(0).catch((e: unknown) => log.warn({ err: e }, 'stopping after a failed start'));
    throw error;
  }

  return {
    database,
    server,
    worker,
    webhooks,
    workerServer,
    waiters,
    address,
    // Stop taking work first, then finish what is in flight, then close the database.
    close: () => teardown.run(config.shutdownTimeoutMs),
  };
}
