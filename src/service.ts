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
import { buildServer, type Api } from './http/server.ts';
import { JobReader } from './jobs/job-reader.ts';
import { planningRunner } from './jobs/run-job.ts';
import { Worker } from './jobs/worker.ts';
import { createStoreReaders } from './stores/index.ts';
import { createLogger } from './logger.ts';
import type { Logger } from 'pino';

export type Role = 'all' | 'api' | 'worker';

export interface Service {
  database: Database;
  server: Api | null;
  worker: Worker | null;
  /** The address the API listens on, when it does. */
  address: string | null;
  close(): Promise<void>;
}

export interface StartOptions {
  role?: Role;
  clock?: Clock;
  /** Use this database instead of opening one from the config (tests). */
  database?: Database;
  listen?: boolean;
  logger?: Logger;
}

export async function startService(config: Config, opts: StartOptions = {}): Promise<Service> {
  const role = opts.role ?? 'all';
  const clock = opts.clock ?? (() => new Date());
  const log = opts.logger ?? createLogger(config);
  const database = opts.database ?? (await openDatabase(config, { role: 'serve' }));
  const notifications = new Notifications(database.url, (msg, err) => log.warn({ err }, msg));
  await notifications.start();

  let server: Api | null = null;
  let worker: Worker | null = null;
  let address: string | null = null;
  let authenticator: Authenticator | null = null;
  const notifier = new NotifyBatcher(database.pool, 3, (msg, err) => log.warn({ err }, msg));
  try {
    if (role !== 'worker') {
      authenticator = new Authenticator(database.pool, notifications, { now: clock });
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
          jobs: new JobReader(database.pool),
          notifier,
          clock,
        },
        { logger: log },
      );
      if (opts.listen !== false) address = await server.listen({ port: config.port, host: config.host });
    }
    if (role !== 'api') {
      worker = new Worker(database.pool, notifications, planningRunner(database.pool, config.llm, log), {
        concurrency: config.workerConcurrency,
        leaseMs: config.jobLeaseMs,
        now: clock,
        log,
      });
      worker.start();
    }
  } catch (error) {
    await notifications.close();
    if (!opts.database) await database.close();
    throw error;
  }

  let closing: Promise<void> | null = null;
  return {
    database,
    server,
    worker,
    address,
    close() {
      closing ??= (async () => {
        // Stop taking work first, then finish what is in flight, then close the database.
        await Promise.all([server?.close(), worker?.stop(config.shutdownTimeoutMs)]);
        await notifier.flush();
        await authenticator?.close();
        await notifications.close();
        if (!opts.database) await database.close();
      })();
      return closing;
    },
  };
}
