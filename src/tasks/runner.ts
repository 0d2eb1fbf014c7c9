/**
 * The task runner: internal tasks on pg-boss, in the service's own PostgreSQL (schema `pgboss`):
 * named queues, per-queue retry with backoff, a short lease renewed while a run lives (so the work
 * of a killed worker is retried within a minute, however long a live run takes), and
 * de-duplication keys (one per publication, policy `stately`: one queued and one running at most;
 * one per period for periodic work, runEvery). Each task is its own file beside this one (its
 * queue, its name, how it is queued and run): this file only sets their queues up and runs them.
 * The public `jobs` table stays the screenshot-set resource (src/queue/). One runner per process:
 * every role may enqueue; only processes that call work()/workOn()/runEvery() run anything.
 */
import pg from 'pg';
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import { onConnection, TASKS_SCHEMA, type SqlClient } from './boss.ts';
import { publicationQueue } from './publication-step.ts';
import { retentionQueue, type PeriodicTask } from './retention.ts';
import { catchUpDeliveryTasks, deliveryQueue } from './webhook-delivery.ts';

/**
 * A task's queue as pg-boss takes it, and whether its runs renew a short lease while they live
 * (see `leased`). The pg-boss expiration (`expireInSeconds`) of a leased queue is the longest a run
 * may take, not the lease: pg-boss v10 has no heartbeat (v11 needs Node 22), and its worker gives
 * up on a run after the expiration it fetched, so that one must stay long.
 */
export interface TaskQueue extends PgBoss.Queue {
  leased?: boolean;
}

/** Every task's queue, one file each: ./publication-step.ts, ./retention.ts, ./webhook-delivery.ts. */
const QUEUES: ((settings: TaskSettings) => TaskQueue)[] = [publicationQueue, retentionQueue, deliveryQueue];
/**
 * pg-boss moves a finished task to its archive 12 hours after it ends (archiveCompletedAfterSeconds'
 * default), and the period's key goes with it: a period longer than that could run twice.
 */
const MAX_PERIOD_SECONDS = 12 * 3600;

/**
 * The lease's end moved to `$4` seconds from now. pg-boss expires an active task when
 * `started_on + expire_in` is past, and copies `expire_in` into the retried task, whose worker
 * then takes it as its run's time limit: so `expire_in` stays the queue's and `started_on` moves
 * (it reads as the lease's base, not the run's start, while a run holds it). `retry_count` names
 * the run: a renewal from a run pg-boss already gave up on changes nothing.
 */
const RENEW_LEASE = `UPDATE pgboss.job SET started_on = now() + make_interval(secs => $4) - expire_in
  WHERE name = $1 AND id = $2 AND retry_count = $3 AND state = 'active'`;

export interface TaskSettings {
  connectionString: string;
  /**
   * Lease of a running publication step or retention run, renewed every quarter of it while the run
   * lives: a worker killed mid-task has it retried once the lease is over and pg-boss's maintenance
   * (every maintenanceIntervalSeconds) sees it.
   */
  leaseSeconds: number;
  /** The longest one such run may take: pg-boss then gives up on it (and retries it) even if it is alive. Default 15 minutes. */
  maxRunSeconds?: number;
  /** Retries after a failure: a publication's store unavailable, a retention run's error (backoff from retryDelaySeconds). */
  retryLimit: number;
  retryDelaySeconds: number;
  pollingIntervalSeconds: number;
  maintenanceIntervalSeconds: number;
  /** Lease of a webhook attempt: the request's deadline (10 s) and a margin; default 30. */
  deliveryLeaseSeconds?: number;
}

/**
 * A killed worker's publication step is taken again within lease + two maintenance intervals
 * (maintenance that starts a little early waits a whole interval more) + one poll: 20 + 20 + 2 =
 * 42 s at most, under a minute (test/tasks/lease.test.ts holds the sum).
 */
export const DEFAULT_TASK_SETTINGS: Omit<TaskSettings, 'connectionString'> = {
  leaseSeconds: 20,
  maxRunSeconds: 15 * 60,
  retryLimit: 8,
  retryDelaySeconds: 15,
  pollingIntervalSeconds: 2,
  maintenanceIntervalSeconds: 10,
  deliveryLeaseSeconds: 30,
};

export interface Attempt {
  retryCount: number;
  lastAttempt: boolean;
}

/** A task's body; `taskId` is the same for every retry of the task. */
type Run = (data: object, attempt: Attempt, taskId: string) => Promise<void>;

export class Tasks {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly runs = new Map<string, Run>();
  private readonly workerIds = new Map<string, string[]>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly stopHooks: ((timeoutMs: number) => Promise<void>)[] = [];

  private constructor(
    private readonly boss: PgBoss,
    readonly settings: TaskSettings,
    /** The queues whose runs renew a short lease while they live (TaskQueue.leased). */
    private readonly leasedQueues: ReadonlySet<string>,
    private readonly log?: Logger,
  ) {}

  static async start(settings: TaskSettings, log?: Logger): Promise<Tasks> {
    const boss = new PgBoss({
      connectionString: settings.connectionString,
      schema: TASKS_SCHEMA,
      max: 3,
      maintenanceIntervalSeconds: settings.maintenanceIntervalSeconds,
      // Nothing reads the state counts: a shorter maintenance interval (which finds lapsed leases)
      // need not count them more often.
      monitorStateIntervalSeconds: Math.max(settings.maintenanceIntervalSeconds, 30),
      schedule: false,
    });
    boss.on('error', (err) => log?.warn({ err }, 'task runner error'));
    const queues = QUEUES.map((q) => q(settings));
    // pg-boss locks its own schema install but not create_queue, whose CREATE TABLE and ATTACH
    // PARTITION deadlock when processes of a split deployment start together: one at a time.
    await oneAtATime(settings.connectionString, async () => {
      await boss.start();
      // create_queue leaves an existing queue as it was: the update brings a database set up by
      // an earlier version to these settings (the publication queue's retry, before leases).
      for (const { leased: _, ...q } of queues) {
        await boss.createQueue(q.name, q);
        await boss.updateQueue(q.name, q);
      }
      // Deliveries written before the queue existed, or whose task pg-boss gave up on.
      const n = await catchUpDeliveryTasks(boss);
      if (n > 0) log?.info({ deliveries: n }, 'webhook deliveries without a task were given one');
    });
    return new Tasks(boss, settings, new Set(queues.filter((q) => q.leased).map((q) => q.name)), log);
  }

  /** Queues a task of `name` (its own file says with which options). Null when a task with its key is already waiting. */
  async send(name: string, data: object, options: PgBoss.SendOptions): Promise<string | null> {
    return this.boss.send(name, data, options);
  }

  /**
   * Queues a task on `db` (a transaction's client: it commits or rolls back with the caller's
   * writes). Null when a task with this key is already waiting (policy `stately`).
   */
  async sendIn(db: SqlClient, name: string, data: object, opts: { singletonKey: string; afterMs?: number }): Promise<string | null> {
    return this.boss.send(name, data, {
      singletonKey: opts.singletonKey,
      // Seconds as text become an interval on the database's clock; fractions are kept.
      ...(opts.afterMs && opts.afterMs > 0 ? { startAfter: opts.afterMs / 1000 } : {}),
      db: onConnection(db),
    });
  }

  /** Completes a running task on `db`, so that it ends exactly when the caller's writes commit. */
  async completeIn(db: SqlClient, name: string, taskId: string): Promise<void> {
    await this.boss.complete(name, taskId, {}, { db: onConnection(db) });
  }

  /** Fails a running task on `db`: pg-boss retries it (at once for a queue without a delay) unless its retries are spent. */
  async failIn(db: SqlClient, name: string, taskId: string, reason: string): Promise<void> {
    await this.boss.fail(name, taskId, { message: reason }, { db: onConnection(db) });
  }

  /** This process stops looking for tasks of `name`; runs in flight go on. */
  async stopWorking(name: string): Promise<void> {
    this.workerIds.delete(name);
    await this.boss.offWork(name);
  }

  /** Has this process's workers of `name` look for work now, or after `afterMs` (a task not due yet). */
  wake(name: string, afterMs = 0): void {
    const notify = () => {
      for (const id of this.workerIds.get(name) ?? []) this.boss.notifyWorker(id);
    };
    if (afterMs <= 0) return notify();
    const t = setTimeout(() => {
      this.timers.delete(t);
      notify();
    }, afterMs + 5);
    t.unref();
    this.timers.add(t);
  }

  /** Runs before the runner stops, given the time left: a worker gives back what it cannot finish. */
  beforeStop(hook: (timeoutMs: number) => Promise<void>): void {
    this.stopHooks.push(hook);
  }

  /**
   * Runs every task of `name` that is due, in this process and with the handler work() gave it,
   * until none is due and none of this process's runs is in flight (a task that waits for
   * later is not due). Tests wait on this instead of sleeping or polling.
   */
  async runDue(name: string): Promise<void> {
    const run = this.runs.get(name);
    if (!run) throw new Error(`no handler for ${name} in this process`);
    for (;;) {
      const jobs = await this.boss.fetch<object>(name, { batchSize: 10, includeMetadata: true });
      if (jobs.length === 0) {
        if (this.inFlight.size === 0) return;
        await Promise.allSettled([...this.inFlight]);
        continue;
      }
      await Promise.all(
        jobs.map(async (job) => {
          try {
            await this.leased(name, job, () =>
              run(job.data, { retryCount: job.retryCount, lastAttempt: job.retryCount >= job.retryLimit }, job.id),
            );
            await this.boss.complete(name, job.id);
          } catch (err) {
            await this.boss.fail(name, job.id, err as object);
          }
        }),
      );
    }
  }

  private track<T>(p: Promise<T>): Promise<T> {
    this.inFlight.add(p);
    return p.finally(() => this.inFlight.delete(p));
  }

  /**
   * Runs `run` (tracked) for `job`, and for a leased queue keeps its lease a few seconds ahead
   * while the run lives: renewed once before the run begins (until then the task holds the queue's
   * whole expiration), then every quarter of the lease. A renewal that fails is logged and the
   * next one tries again; three in a row lose the lease, and another worker may then run the task
   * too (the publication steps hold their store's advisory lock, so that run waits).
   */
  private async leased<T>(name: string, job: { id: string; retryCount: number }, run: () => Promise<T>): Promise<T> {
    if (!this.leasedQueues.has(name)) return this.track(run());
    const seconds = this.settings.leaseSeconds;
    const renew = () =>
      this.boss
        .getDb()
        .executeSql(RENEW_LEASE, [name, job.id, job.retryCount, seconds])
        .then(
          () => undefined,
          (err: unknown) => this.log?.warn({ err, task: name, taskId: job.id }, 'renewing the lease of a running task failed'),
        );
    await renew();
    const timer = setInterval(() => void renew(), seconds * 250);
    timer.unref();
    try {
      return await this.track(run());
    } finally {
      clearInterval(timer);
    }
  }

  /**
   * Runs `handler` once per period of `periodSeconds` across every process on this database.
   * Each process that calls this asks for the current period's run now and four times a period
   * (a drifting timer never skips a period); the asks share one key per period (singletonKey with
   * singletonSeconds, its slots counted on the database's clock, so machines whose clocks differ
   * still agree), so the first is queued and the others are absorbed. Whichever worker is free
   * runs it; a failure is retried with backoff, and a worker killed mid-run has it retried after
   * the lease.
   */
  async runEvery(name: PeriodicTask, periodSeconds: number, handler: (attempt: Attempt) => Promise<void>): Promise<void> {
    if (!Number.isInteger(periodSeconds) || periodSeconds < 1 || periodSeconds > MAX_PERIOD_SECONDS)
      throw new RangeError(`a periodic task runs every 1 to ${MAX_PERIOD_SECONDS} whole seconds, not ${periodSeconds}`);
    // Looking for an hourly task every 2 s would be most of an idle worker's queries: a quarter
    // period, at most 30 s late, is soon enough.
    const pollSeconds = Math.max(this.settings.pollingIntervalSeconds, Math.min(30, periodSeconds / 4));
    const [worker] = await this.work(name, 1, (_data, attempt) => handler(attempt), pollSeconds);
    const ask = async () => {
      // The process whose ask was the one queued starts it now rather than at its next poll.
      if (await this.boss.send(name, {}, { singletonKey: name, singletonSeconds: periodSeconds })) this.boss.notifyWorker(worker);
    };
    await ask();
    const timer = setInterval(() => {
      ask().catch((err: unknown) => this.log?.warn({ err, task: name }, 'asking for a periodic task failed; the next ask will'));
    }, periodSeconds * 250);
    timer.unref();
    this.timers.add(timer);
  }

  /**
   * Runs tasks of `name` in this process, `concurrency` at a time, for a queue that is mostly idle
   * and sometimes gets a burst. pg-boss's workers each poll on their own and wait a whole interval
   * after every task: `concurrency` of them polling every `pollingIntervalSeconds` would cost that
   * many queries a second while idle and run only that many tasks a second in a burst. So one
   * worker is the lookout, polling every `pollingIntervalSeconds`; the others look every 30 s, and
   * a worker that gets a task wakes the others and, once it is done, looks again at once: a burst
   * is drained at full concurrency, and an idle process asks about once per interval.
   */
  async workOn<T extends object>(
    name: string,
    concurrency: number,
    run: (data: T, attempt: Attempt, taskId: string) => Promise<void>,
    pollingIntervalSeconds = this.settings.pollingIntervalSeconds,
  ): Promise<void> {
    this.runs.set(name, run as Run);
    const ids: string[] = [];
    for (let i = 0; i < concurrency; i++) {
      const poll = i === 0 ? pollingIntervalSeconds : Math.max(30, pollingIntervalSeconds);
      const id: string = await this.boss.work<T>(
        name,
        { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: poll },
        async ([job]) => {
          for (const other of ids) if (other !== id) this.boss.notifyWorker(other);
          try {
            await this.leased(name, job, () =>
              run(job.data, { retryCount: job.retryCount, lastAttempt: job.retryCount >= job.retryLimit }, job.id),
            );
          } finally {
            this.boss.notifyWorker(id);
          }
        },
      );
      ids.push(id);
    }
    this.workerIds.set(name, [...(this.workerIds.get(name) ?? []), ...ids]);
  }

  /** Runs tasks of `name` in this process, `concurrency` at a time, each worker polling on its own; returns their ids. */
  async work<T extends object>(
    name: string,
    concurrency: number,
    run: (data: T, attempt: Attempt, taskId: string) => Promise<void>,
    pollingIntervalSeconds = this.settings.pollingIntervalSeconds,
  ): Promise<string[]> {
    this.runs.set(name, run as Run);
    const ids: string[] = [];
    for (let i = 0; i < concurrency; i++)
      ids.push(
        await this.boss.work<T>(name, { batchSize: 1, includeMetadata: true, pollingIntervalSeconds }, async ([job]) => {
          await this.leased(name, job, () =>
            run(job.data, { retryCount: job.retryCount, lastAttempt: job.retryCount >= job.retryLimit }, job.id),
          );
        }),
      );
    this.workerIds.set(name, [...(this.workerIds.get(name) ?? []), ...ids]);
    return ids;
  }

  async stop(timeoutMs = 10_000): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    this.timers.clear();
    // One budget for the whole stop: what the hooks used is not given to pg-boss again.
    const began = Date.now();
    await Promise.allSettled(this.stopHooks.map((h) => h(timeoutMs)));
    const left = timeoutMs - (Date.now() - began);
    await this.boss.stop({ graceful: timeoutMs > 0, timeout: Math.max(left, 1), wait: true });
  }
}

/** A session advisory lock around the task runner's setup, released even when the setup fails. */
async function oneAtATime(connectionString: string, setup: () => Promise<void>): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock(hashtext('shotgen:tasks-setup'))");
    await setup();
  } finally {
    await client.end().catch(() => undefined);
  }
}
