/**
 * Assembles a running process from its parts: the database, the LISTEN connection, the caches, the
 * HTTP server and/or the worker, and tears them down in the reverse order on shutdown.
 */
import { AccountViews } from './accounts/account-views.ts';
import { Authenticator } from './accounts/authenticator.ts';
import type { Clock } from './accounts/credits.ts';
import type { Config } from './config.ts';
import { openDatabase, type Database } from './db/database.ts';
import { Notifications } from './db/notifications.ts';
import { NotifyBatcher } from './db/notify-batcher.ts';
import { dashboardPlugin } from './dashboard/index.ts';
import { buildServer } from './http/server.ts';
import type { Api } from './http/services.ts';
import { JobReader } from './jobs/job-reader.ts';
import { screenshotSetRunner } from './jobs/set-runner.ts';
import { Worker } from './jobs/worker.ts';
import { WebhookDispatcher, type DispatcherOptions } from './webhooks/dispatcher.ts';
import { createStoreReaders } from './stores/index.ts';
import { createLogger } from './logger.ts';
import { createRateLimits, type RateLimits } from './http/rate-limit/index.ts';
import { PlanningPool } from './planning/pool.ts';
import { JobWaiters } from './jobs/job-waiters.ts';
import { createObjectStore } from './objects/index.ts';
import { loadSigningSecret, UrlSigner } from './pictures/signed-urls.ts';
import { RenderPool } from './rendering/index.ts';
import { startRetention } from './pictures/retention.ts';
import type { Logger } from 'pino';

export type ServiceRole = 'all' | 'api' | 'worker';

export interface Service {
  database: Database;
  server: Api | null;
  worker: Worker | null;
  /** Sends webhooks, in processes that run jobs. */
  webhooks: WebhookDispatcher | null;
  /** The address the API listens on, when it does. */
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
}

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
  const clock = opts.clock ?? (() => new Date());
  const log = opts.logger ?? createLogger(config);
  const database = opts.database ?? (await openDatabase(config, { role: 'serve', log: (m) => log.info(m), warn: (m) => log.warn(m) }));
  const notifications = new Notifications(database.url, (msg, err) => log.warn({ err }, msg));
  await notifications.start();

  let server: Api | null = null;
  let worker: Worker | null = null;
  let webhooks: WebhookDispatcher | null = null;
  let address: string | null = null;
  let authenticator: Authenticator | null = null;
  let rateLimits: RateLimits | null = null;
  let planner: PlanningPool | null = null;
  const notifier = new NotifyBatcher(database.pool, 3, (msg, err) => log.warn({ err }, msg));
  const objects = createObjectStore(config);
  let waiters: JobWaiters | null = null;
  let renderer: RenderPool | null = null;
  let retention: { stop(): Promise<void> } | null = null;
  try {
    // One job reader (and its cache of finished jobs) and one URL signer for the whole process: in
    // role `all` the API's polls and the webhooks read the same jobs, signed with the same key.
    const jobs = new JobReader(database.pool);
    const signer = new UrlSigner(await loadSigningSecret(database.pool, config.urlSigningSecret));
    if (role !== 'worker') {
      authenticator = new Authenticator(database.pool, notifications, { now: clock });
      rateLimits = await createRateLimits(
        { ...config.rateLimit, redisUrl: config.redisUrl, redisKeyPrefix: config.redisKeyPrefix },
        (msg, err) => log.warn({ err }, msg),
      );
      server = await buildServer(
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
          waiters: (waiters = new JobWaiters(notifications)),
        },
        { logger: log, limits: config.http, trustProxy: config.trustProxy, metricsToken: config.metricsToken, dashboard: dashboardPlugin },
      );
      if (opts.listen !== false) address = await server.listen({ port: config.port, host: config.host });
    }
    if (role !== 'api') {
      planner = new PlanningPool(config.llm, log);
      renderer = new RenderPool();
      const pictures = { objects, renderer, storeImageOrigins: config.storeImageOrigins, now: clock };
      worker = new Worker(database.pool, notifications, screenshotSetRunner({ db: database.pool, planner, pictures, log }), {
        concurrency: config.workerConcurrency,
        leaseMs: config.jobLeaseMs,
        now: clock,
        log,
      });
      worker.start();
      // A webhook carries the job as GET shows it; its picture URLs need the public origin, which
      // a worker has no request to take from: PUBLIC_URL, else this machine's own port.
      const origin = config.publicUrl ?? `http://localhost:${config.port}`;
      const links = () => ({ signer, origin, basePath: config.basePath, now: clock() });
      webhooks = new WebhookDispatcher(database.pool, notifications, {
        ...config.webhooks,
        readJob: (accountId, jobId) => jobs.get(accountId, jobId, links()),
        log,
        ...opts.webhooks,
      });
      webhooks.start();
      retention = startRetention(database.pool, objects, config.jobRetentionDays, { now: clock, log });
    }
  } catch (error) {
    // Whatever had started before the failure stops again: a worker left claiming jobs on a
    // closed pool would be worse than the failed start.
    await Promise.all([server?.close(), worker?.stop(0), webhooks?.stop(0), retention?.stop()]).catch(() => undefined);
    await authenticator?.close();
    await rateLimits?.close();
    await planner?.close();
    await renderer?.close();
    waiters?.close();
    await objects.close();
    await notifications.close();
    if (!opts.database) await database.close();
    throw error;
  }

  let closing: Promise<void> | null = null;
  return {
    database,
    server,
    worker,
    webhooks,
    address,
    close() {
      closing ??= (async () => {
        // Stop taking work first, then finish what is in flight, then close the database. Long
        // polls are answered at once (with the job as it is): they must not hold the shutdown.
        waiters?.close();
        await Promise.all([
          server ? closeServer(server, config.shutdownTimeoutMs) : null,
          worker?.stop(config.shutdownTimeoutMs),
          webhooks?.stop(config.shutdownTimeoutMs),
          retention?.stop(),
        ]);
        await notifier.flush();
        await planner?.close();
        await renderer?.close();
        await objects.close();
        await authenticator?.close();
        await rateLimits?.close();
        await notifications.close();
        if (!opts.database) await database.close();
      })();
      return closing;
    },
  };
}
