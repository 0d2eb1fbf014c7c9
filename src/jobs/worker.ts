/**
 * The worker loop: wake on NOTIFY shotgen_jobs (poll as a fallback), claim up to `concurrency`
 * jobs, run them, heartbeat their leases, sweep other workers' expired leases. stop() stops
 * claiming, lets running jobs finish until a deadline and gives the rest back to the queue.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/pool.ts';
import type { Notifications } from '../db/notifications.ts';
import { deleteExpiredIdempotencyKeys } from './idempotency.ts';
import { claimJobs, completeJob, failJob, heartbeat, releaseJob, sweepExpiredLeases, type ClaimedJob } from './queue.ts';
import { PermanentJobError, type JobRunner } from './job-runner.ts';

export interface WorkerOptions {
  concurrency: number;
  leaseMs: number;
  pollIntervalMs?: number;
  sweepIntervalMs?: number;
  workerId?: string;
  /** How long a job waits before its next attempt after a retryable failure. */
  retryDelayMs?: (attempt: number) => number;
  /** An attempt running longer is abandoned (and retried): heartbeats alone would keep it forever. */
  attemptTimeoutMs?: number;
  now?: () => Date;
  log?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

export class Worker {
  readonly id: string;
  private readonly running = new Map<string, Promise<void>>();
  private readonly timers: NodeJS.Timeout[] = [];
  private unsubscribe: (() => void) | null = null;
  private stopping = false;
  private claiming: Promise<void> | null = null;
  private wakeAgain = false;

  constructor(private readonly db: Db, private readonly notifications: Notifications | null, private readonly run: JobRunner, private readonly opts: WorkerOptions) {
    this.id = opts.workerId ?? `wrk_${process.pid}_${randomBytes(4).toString('hex')}`;
  }

  start(): void {
    this.unsubscribe = this.notifications?.subscribe('shotgen_jobs', { onNotify: () => this.wake(), onReset: () => this.wake() }) ?? null;
    const every = (ms: number, fn: () => Promise<unknown>) => {
      const t = setInterval(() => void fn().catch((e) => this.opts.log?.error({ err: e }, 'worker housekeeping failed')), ms);
      t.unref();
      this.timers.push(t);
    };
    every(this.opts.pollIntervalMs ?? 1_000, async () => this.wake());
    every(Math.max(100, Math.floor(this.opts.leaseMs / 3)), () => this.heartbeat());
    every(this.opts.sweepIntervalMs ?? Math.min(5_000, this.opts.leaseMs), () => this.sweep());
    this.wake();
  }

  private now(): Date {
    return this.opts.now ? this.opts.now() : new Date();
  }

  /** Claim until full or the queue is empty; concurrent wakes fold into one claiming loop. */
  wake(): void {
    if (this.stopping) return;
    if (this.claiming) {
      this.wakeAgain = true;
      return;
    }
    this.claiming = this.claimLoop()
      .catch((e) => this.opts.log?.error({ err: e }, 'claiming jobs failed'))
      .finally(() => {
        this.claiming = null;
        if (this.wakeAgain) {
          this.wakeAgain = false;
          this.wake();
        }
      });
  }

  private async claimLoop(): Promise<void> {
    while (!this.stopping) {
      const free = this.opts.concurrency - this.running.size;
      if (free <= 0) return;
      const jobs = await claimJobs(this.db, this.id, free, this.opts.leaseMs);
      for (const job of jobs) this.execute(job);
      if (jobs.length < free) return;
    }
  }

  private execute(job: ClaimedJob): void {
    const done = this.process(job).finally(() => {
      this.running.delete(job.id);
      this.wake();
    });
    this.running.set(job.id, done);
  }

  private async process(job: ClaimedJob): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeoutMs = this.opts.attemptTimeoutMs ?? this.opts.leaseMs * 5;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`attempt ran over ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      const result = await Promise.race([this.run(job), timeout]);
      if (!(await completeJob(this.db, this.id, job.id, result))) this.opts.log?.warn({ jobId: job.id }, 'lease lost before completion; result dropped');
    } catch (error) {
      await this.handleFailure(job, error).catch((e) => this.opts.log?.error({ err: e, jobId: job.id }, 'could not record job failure'));
    } finally {
      clearTimeout(timer);
    }
  }

  private async handleFailure(job: ClaimedJob, error: unknown): Promise<void> {
    if (error instanceof PermanentJobError) {
      await failJob(this.db, job.id, this.id, error.jobError, this.now());
      return;
    }
    this.opts.log?.warn({ err: error, jobId: job.id, attempt: job.attempts }, 'job attempt failed');
    if (job.attempts < job.maxAttempts) {
      await releaseJob(this.db, this.id, job.id, true, (this.opts.retryDelayMs ?? ((n) => n * 2_000))(job.attempts));
    } else {
      await failJob(this.db, job.id, this.id, { code: 'attempts_exhausted', message: `The job failed ${job.attempts} times; the last error was internal.`, retryable: false }, this.now());
    }
  }

  private async heartbeat(): Promise<void> {
    const lost = await heartbeat(this.db, this.id, [...this.running.keys()], this.opts.leaseMs);
    if (lost.length) this.opts.log?.warn({ jobIds: lost }, 'leases lost');
  }

  private async sweep(): Promise<void> {
    const { requeued, failed } = await sweepExpiredLeases(this.db, this.now());
    if (requeued.length || failed.length) this.opts.log?.info({ requeued, failed }, 'swept expired leases');
    if (requeued.length) this.wake();
    await deleteExpiredIdempotencyKeys(this.db, this.now());
  }

  /** Stop claiming; wait for running jobs until the deadline; give back the rest. */
  async stop(deadlineMs: number): Promise<void> {
    this.stopping = true;
    this.unsubscribe?.();
    for (const t of this.timers) clearInterval(t);
    await this.claiming;
    const all = Promise.allSettled([...this.running.values()]);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([all, new Promise((r) => (timer = setTimeout(r, deadlineMs)))]);
    clearTimeout(timer);
    for (const id of this.running.keys()) await releaseJob(this.db, this.id, id, false).catch(() => undefined);
  }
}
