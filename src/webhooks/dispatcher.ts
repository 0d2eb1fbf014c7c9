/**
 * The webhook loop of a worker process: wake when a job ends (NOTIFY shotgen_job_done, sent in the
 * transaction that wrote the event's deliveries) and poll as a fallback for retries that come due,
 * claim due deliveries, and send them. It runs beside the job worker and never inside a job's
 * transaction, so a slow or dead receiver never holds a job back. All state is in the table: a
 * process that stops or dies leaves nothing that another cannot pick up.
 */
import { CoalescedRun } from '../jobs/coalesced-run.ts';
import { randomBytes } from 'node:crypto';
import type { Notifications } from '../db/notifications.ts';
import type { Db } from '../db/pool.ts';
import type { PublicJob } from '../jobs/jobs.ts';
import { webhookDeliveries } from '../metrics/index.ts';
import {
  claimDeliveries,
  finishAttempt,
  releaseDelivery,
  retryDelay,
  RETRY_DELAYS_MS,
  type AttemptResult,
  type ClaimedDelivery,
} from './deliveries.ts';
import { postWebhook, systemResolver, type Resolver } from './sender.ts';
import { signatureHeaders } from './signing.ts';

export interface DispatcherOptions {
  allowHttp: boolean;
  allowPrivate: boolean;
  /** The job as GET /public/v1/jobs/{id} shows it (JobReader.get), so the two always agree. */
  readJob: (accountId: string, jobId: string) => Promise<PublicJob | null>;
  /** Deliveries in flight at once, per process. */
  concurrency?: number;
  pollIntervalMs?: number;
  /** Per attempt, connection included. CONTRACT: 10 s. */
  timeoutMs?: number;
  /** The wait after the n-th failed attempt; after the last one the delivery is failed. */
  retryDelaysMs?: readonly number[];
  random?: () => number;
  resolve?: Resolver;
  workerId?: string;
  now?: () => Date;
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

export class WebhookDispatcher {
  readonly id: string;
  private readonly inFlight = new Map<string, { delivery: ClaimedDelivery; done: Promise<void>; abort: AbortController }>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private unsubscribe: (() => void) | null = null;
  private stopping = false;
  private readonly claims = new CoalescedRun(
    () => this.claimLoop(),
    (e) => this.opts.log?.error({ err: e }, 'claiming webhook deliveries failed'),
    () => !this.stopping,
  );

  constructor(
    private readonly db: Db,
    private readonly notifications: Notifications | null,
    private readonly opts: DispatcherOptions,
  ) {
    this.id = opts.workerId ?? `whd_${process.pid}_${randomBytes(4).toString('hex')}`;
  }

  private get timeoutMs(): number {
    return this.opts.timeoutMs ?? 10_000;
  }

  start(): void {
    this.unsubscribe =
      this.notifications?.subscribe('shotgen_job_done', { onNotify: () => this.wake(), onReset: () => this.wake() }) ?? null;
    const poll = setInterval(() => this.wake(), this.opts.pollIntervalMs ?? 1_000);
    poll.unref();
    this.timers.add(poll);
    this.wake();
  }

  /** Concurrent wakes fold into one claiming loop. */
  wake(): void {
    this.claims.wake();
  }

  private async claimLoop(): Promise<void> {
    while (!this.stopping) {
      const free = (this.opts.concurrency ?? 8) - this.inFlight.size;
      if (free <= 0) return;
      // The lease outlives the attempt's deadline, so a live worker never loses its claim.
      const claimed = await claimDeliveries(this.db, this.id, free, this.timeoutMs + 20_000);
      for (const d of claimed) this.execute(d);
      if (claimed.length < free) return;
    }
  }

  private execute(delivery: ClaimedDelivery): void {
    const abort = new AbortController();
    const done = this.deliver(delivery, abort.signal)
      .catch((e) => this.opts.log?.error({ err: e, deliveryId: delivery.id }, 'webhook delivery failed unexpectedly'))
      .finally(() => {
        this.inFlight.delete(delivery.id);
        this.wake();
      });
    this.inFlight.set(delivery.id, { delivery, done, abort });
  }

  private async deliver(d: ClaimedDelivery, signal: AbortSignal): Promise<void> {
    const result = await this.attempt(d, signal);
    if (signal.aborted) return;
    const retryIn = result.ok ? null : retryDelay(d.attempt, this.opts.retryDelaysMs ?? RETRY_DELAYS_MS, this.opts.random);
    if (!(await finishAttempt(this.db, this.id, d, result, retryIn))) {
      this.opts.log?.warn({ deliveryId: d.id }, 'webhook delivery claim lost before the attempt was recorded');
      return;
    }
    webhookDeliveries.inc({ outcome: result.ok ? 'delivered' : retryIn === null ? 'failed' : 'retrying' });
    if (!result.ok)
      this.opts.log?.warn(
        { deliveryId: d.id, endpointId: d.endpointId, attempt: d.attempt, error: result.error, retryInMs: retryIn },
        'webhook attempt failed',
      );
    // Short delays (tests, or a first retry) should not wait for the next poll.
    if (retryIn !== null && retryIn < (this.opts.pollIntervalMs ?? 1_000)) {
      const t = setTimeout(() => {
        this.timers.delete(t);
        this.wake();
      }, retryIn + 5);
      t.unref();
      this.timers.add(t);
    }
  }

  private async attempt(d: ClaimedDelivery, signal: AbortSignal): Promise<AttemptResult> {
    const job = await this.opts.readJob(d.accountId, d.jobId);
    if (!job) return { ok: false, status: null, error: `job ${d.jobId} not found` };
    const body = JSON.stringify({ type: d.type, timestamp: d.eventAt.toISOString(), data: job });
    const headers = signatureHeaders(d.secret, d.messageId, this.opts.now?.() ?? new Date(), body);
    return postWebhook(d.url, headers, body, {
      allowHttp: this.opts.allowHttp,
      allowPrivate: this.opts.allowPrivate,
      resolve: this.opts.resolve ?? systemResolver,
      timeoutMs: this.timeoutMs,
      signal,
    });
  }

  /** Stop claiming; let attempts in flight finish until the deadline; give back the rest. */
  async stop(deadlineMs: number): Promise<void> {
    this.stopping = true;
    this.unsubscribe?.();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await this.claims.idle();
    let timer: NodeJS.Timeout | undefined;
    const all = Promise.allSettled([...this.inFlight.values()].map((f) => f.done));
    await Promise.race([all, new Promise((r) => (timer = setTimeout(r, deadlineMs)))]);
    clearTimeout(timer);
    for (const { delivery, abort } of [...this.inFlight.values()]) {
      abort.abort(new Error('worker stopping'));
      await releaseDelivery(this.db, this.id, delivery).catch(() => undefined);
    }
  }
}
