/**
 * Publishing in a running process: the keyring, the credential check, and its workers on the
 * process's task runner (src/tasks, started and stopped by src/service.ts with the other tasks).
 */
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Db } from '../db/pool.ts';
import type { ObjectStore } from '../objects/index.ts';
import type { Keyring } from '../secrets/envelope.ts';
import { loadKeyring } from '../secrets/keys.ts';
import type { Tasks } from '../tasks/runner.ts';
import { publicationBackoffMs, queuePublicationStep, workOnPublicationSteps, type PublicationHandler } from '../tasks/publication-step.ts';
import { storeCredentialCheck } from './check.ts';
import { advancePublication, Deferred, RetryLater, type RunnerDeps } from './runner.ts';
import type { PublishingServices } from './services.ts';

export interface Publishing {
  services: PublishingServices;
}

/**
 * The task body: one run of a publication's steps. Planning ends awaiting approval; an approved
 * run goes on within the same task. A deferred run (the store's budget) queues the next one later
 * and ends well, so the wait spends none of the task's retries. A store still unavailable queues
 * the next run after `backoffMs` and ends well too, counting the failure in the task: pg-boss's own
 * retry is kept for a run that died, which is owed at once (src/tasks/publication-step.ts).
 */
export function publicationStep(
  runner: RunnerDeps,
  requeue: (id: string, afterMs: number, failures: number) => Promise<void>,
  log?: Pick<Logger, 'info'>,
  backoffMs: (failures: number) => number = (n) => 15_000 * 2 ** (n - 1),
): PublicationHandler {
  return async (id, attempt) => {
    try {
      await advancePublication(runner, id, { lastAttempt: attempt.lastAttempt });
    } catch (e) {
      if (e instanceof Deferred) {
        log?.info({ publicationId: id, delayMs: e.delayMs }, e.message);
        return requeue(id, e.delayMs, attempt.retryCount);
      }
      if (!(e instanceof RetryLater)) throw e;
      const failures = attempt.retryCount + 1;
      const delayMs = backoffMs(failures);
      log?.info({ publicationId: id, failures, delayMs }, `retrying later: ${e.message}`);
      await requeue(id, delayMs, failures);
    }
  };
}

export async function startPublishing(
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'secretsKey' | 'secretsKeyPrevious' | 'appStoreConnectUrl' | 'googlePlayApiUrl'>,
  deps: {
    db: Db;
    tasks: Tasks;
    objects: ObjectStore;
    log?: Logger;
    runWorkers: boolean;
    /** The process's keyring when it has opened one already (src/secrets/startup.ts). */
    keyring?: Keyring | null;
  },
  overrides: { runner?: Partial<RunnerDeps> } = {},
): Promise<Publishing> {
  const keyring = deps.keyring !== undefined ? deps.keyring : loadKeyring(config);
  const { tasks } = deps;
  if (deps.runWorkers) {
    const runner: RunnerDeps = {
      db: deps.db,
      objects: deps.objects,
      keyring,
      appStoreConnectUrl: config.appStoreConnectUrl,
      googlePlayApiUrl: config.googlePlayApiUrl,
      ...overrides.runner,
    };
    await workOnPublicationSteps(
      tasks,
      publicationStep(
        runner,
        (id, afterMs, failures) => queuePublicationStep(tasks, id, afterMs, failures),
        deps.log,
        (n) => publicationBackoffMs(tasks, n),
      ),
    );
  }
  return {
    services: {
      keyring,
      check: storeCredentialCheck({ appStoreConnectUrl: config.appStoreConnectUrl }),
      allowedTokenOrigins: [new URL(config.googlePlayApiUrl).origin, new URL(config.appStoreConnectUrl).origin],
      advance: (id) => queuePublicationStep(tasks, id),
      appStoreConnectUrl: config.appStoreConnectUrl,
      // The API's own store calls hold a request open: a few quick tries, and no long Retry-After.
      retry: { attempts: 3, baseDelayMs: 250, maxDelayMs: 2_000, maxRetryAfterMs: 5_000 },
    },
  };
}
