/**
 * Webhook deliveries as pg-boss tasks (queue DELIVERY_TASK, src/tasks): each delivery row comes
 * with a task, queued through pg-boss's API in the transaction that ends the job or the
 * publication (src/tasks/webhook-delivery.ts). A task makes one attempt. The retry schedule is the CONTRACT's (5 s … 6 h,
 * ±20 %), which pg-boss's exponential backoff cannot express, so a failed attempt is not a failed
 * task: in one transaction the attempt is recorded on the row, the next attempt is queued under
 * the same key not before its delay, and this task is completed; nothing of one attempt can be
 * committed without the rest. pg-boss's own retry is left for a worker that died (after the
 * lease, DELIVERY_TASK's expireInSeconds) or stopped (at once). Attempts run beside the job
 * worker and never inside a job's transaction, so a slow or dead receiver never holds a job back.
 */
import type { Db } from '../db/pool.ts';
import { transaction } from '../db/pool.ts';
import type { PublicJob } from '../sets/jobs.ts';
import { viewPublication } from '../publishing/publications.ts';
import type { Keyring } from '../secrets/envelope.ts';
import { webhookDeliveries } from '../metrics/index.ts';
import type { Tasks } from '../tasks/runner.ts';
import { DELIVERY_TASK } from '../tasks/webhook-delivery.ts';
import { backoffDelay, scheduled, type RetryPolicy } from '../core/retry.ts';
import {
  finishAttempt,
  giveBack,
  startAttempt,
  WEBHOOK_JITTER,
  WEBHOOK_RETRY,
  type AttemptResult,
  type StartedAttempt,
} from './deliveries.ts';
import { openEndpointSecret } from './endpoints.ts';
import { postWebhook, systemResolver, type Resolver } from './sender.ts';
import { signatureHeaders } from './signing.ts';

export interface DispatcherOptions {
  allowHttp: boolean;
  allowPrivate: boolean;
  /** The job as GET /public/v1/jobs/{id} shows it (JobReader.get), so the two always agree. */
  readJob: (accountId: string, jobId: string) => Promise<PublicJob | null>;
  /** The publication as GET /public/v1/publications/{id} shows it; default: read from this database. */
  readPublication?: (accountId: string, publicationId: string) => Promise<object | null>;
  /** Opens the endpoints' sealed signing secrets; null where no key is configured (they are kept in clear then). */
  keyring?: Keyring | null;
  /** Deliveries in flight at once, per process. */
  concurrency?: number;
  /** How often an idle worker looks for a due delivery (at least 500 ms, pg-boss's floor). */
  pollIntervalMs?: number;
  /** Per attempt, connection included. CONTRACT: 10 s. */
  timeoutMs?: number;
  /** The wait after the n-th failed attempt (±20 %); after the last one the delivery is failed. Default WEBHOOK_RETRY's. */
  retryDelaysMs?: readonly number[];
  random?: () => number;
  resolve?: Resolver;
  now?: () => Date;
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

class Stopping extends Error {}

export class WebhookDispatcher {
  private readonly inFlight = new Map<string, { done: Promise<unknown>; abort: AbortController }>();
  private stopping = false;
  /** When a failed attempt is tried again: the CONTRACT's schedule, or the one given. */
  private readonly retry: RetryPolicy;

  constructor(
    private readonly db: Db,
    private readonly tasks: Tasks,
    private readonly opts: DispatcherOptions,
  ) {
    this.retry = opts.retryDelaysMs ? scheduled(opts.retryDelaysMs, WEBHOOK_JITTER) : WEBHOOK_RETRY;
  }

  private get timeoutMs(): number {
    return this.opts.timeoutMs ?? 10_000;
  }

  /** Runs deliveries on the process's task runner; the runner's stop gives back what is unfinished. */
  async start(): Promise<void> {
    this.tasks.beforeStop((ms) => this.stop(ms));
    await this.tasks.workOn<{ deliveryId: string }>(
      DELIVERY_TASK,
      this.opts.concurrency ?? 4,
      (data, _attempt, taskId) => this.run(data.deliveryId, taskId),
      Math.max(0.5, (this.opts.pollIntervalMs ?? 1_000) / 1000),
    );
  }

  /** Sends whatever is due now, and returns once those attempts are recorded and nothing more is due. */
  runOnce(): Promise<void> {
    return this.tasks.runDue(DELIVERY_TASK);
  }

  private run(deliveryId: string, taskId: string): Promise<void> {
    if (this.stopping) return Promise.reject(new Stopping('worker stopping'));
    const abort = new AbortController();
    const done = this.deliver(deliveryId, taskId, abort.signal).finally(() => this.inFlight.delete(taskId));
    this.inFlight.set(taskId, { done, abort });
    return done;
  }

  private async deliver(deliveryId: string, taskId: string, signal: AbortSignal): Promise<void> {
    // The lease outlives the attempt's deadline, so a live worker's attempt is never made twice.
    const d = await startAttempt(this.db, deliveryId, this.timeoutMs + 20_000);
    if (!d) return; // delivered, failed or deleted meanwhile: this task has nothing left to do
    const result = await this.attempt(d, signal);
    if (signal.aborted) {
      // Given back uncounted, and the task failed (to be retried at once) with it, so the next
      // worker takes it now. Returning, not throwing: pg-boss then completes only an active task,
      // where its fail would also hit the retry, even once another worker has it.
      await transaction(this.db, async (tx) => {
        await giveBack(tx, d);
        await this.tasks.failIn(tx, DELIVERY_TASK, taskId, 'worker stopping');
      });
      return;
    }
    const retryIn = result.ok || d.attempt >= this.retry.attempts ? null : backoffDelay(this.retry, d.attempt, this.opts.random);
    const recorded = await transaction(this.db, async (tx) => {
      const ours = await finishAttempt(tx, d, result, retryIn);
      if (ours && retryIn !== null)
        await this.tasks.sendIn(tx, DELIVERY_TASK, { deliveryId: d.id }, { singletonKey: d.id, afterMs: retryIn });
      await this.tasks.completeIn(tx, DELIVERY_TASK, taskId);
      return ours;
    });
    if (!recorded) {
      this.opts.log?.warn({ deliveryId: d.id }, 'webhook delivery changed before the attempt was recorded');
      return;
    }
    webhookDeliveries.inc({ outcome: result.ok ? 'delivered' : retryIn === null ? 'failed' : 'retrying' });
    if (result.ok) return;
    this.opts.log?.warn(
      { deliveryId: d.id, endpointId: d.endpointId, attempt: d.attempt, error: result.error, retryInMs: retryIn },
      'webhook attempt failed',
    );
    // A retry due before the next poll (a first retry, or tests) should not wait for it.
    if (retryIn !== null && retryIn < (this.opts.pollIntervalMs ?? 1_000)) this.tasks.wake(DELIVERY_TASK, retryIn);
  }

  private async attempt(d: StartedAttempt, signal: AbortSignal): Promise<AttemptResult> {
    const data = d.publicationId
      ? await (this.opts.readPublication ?? ((a, id) => viewPublication(this.db, a, id)))(d.accountId, d.publicationId)
      : await this.opts.readJob(d.accountId, d.jobId);
    if (!data)
      return { ok: false, status: null, error: d.publicationId ? `publication ${d.publicationId} not found` : `job ${d.jobId} not found` };
    let secret: string;
    try {
      secret = openEndpointSecret(this.opts.keyring ?? null, d.endpointId, d.secret);
    } catch (e) {
      return { ok: false, status: null, error: (e as Error).message };
    }
    const body = JSON.stringify({ type: d.type, timestamp: d.eventAt.toISOString(), data });
    const headers = signatureHeaders(secret, d.messageId, this.opts.now?.() ?? new Date(), body);
    return postWebhook(d.url, headers, body, {
      allowHttp: this.opts.allowHttp,
      allowPrivate: this.opts.allowPrivate,
      resolve: this.opts.resolve ?? systemResolver,
      timeoutMs: this.timeoutMs,
      signal,
    });
  }

  /** Stop taking deliveries; let attempts in flight finish until the deadline; give back the rest. */
  private async stop(deadlineMs: number): Promise<void> {
    this.stopping = true;
    await this.tasks.stopWorking(DELIVERY_TASK).catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const all = () => Promise.allSettled([...this.inFlight.values()].map((f) => f.done));
    await Promise.race([all(), new Promise((r) => (timer = setTimeout(r, deadlineMs)))]);
    clearTimeout(timer);
    for (const { abort } of this.inFlight.values()) abort.abort(new Error('worker stopping'));
    await all();
  }
}
