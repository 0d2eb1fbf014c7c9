/**
 * The worker loop: wake on NOTIFY shotgen_jobs (poll as a fallback), claim up to `concurrency`
 * jobs, run them, heartbeat their leases, sweep other workers' expired leases. stop() stops
 * claiming, lets running jobs finish until a deadline, then aborts the rest and gives them back to
 * the queue. An attempt that runs over its time or loses its lease is aborted through its signal.
 */
import { CoalescedRun } from './coalesced-run.ts';
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/pool.ts';
import type { Notifications } from '../db/notifications.ts';
import { ProgressReporter } from './progress.ts';
import { heartbeat, releaseJob, type ClaimedJob, type JobQueue } from './queue.ts';
import { FatalJobError, RetryableJobError, type JobRunner } from './runner.ts';
import { jobAttempts, jobsRunning } from '../metrics/index.ts';
import { backoffDelay, type RetryPolicy } from '../core/retry.ts';

/**
 * A job's next attempt: after about 2 s, then 4 s, doubling up to 5 min, ± half of it so that jobs
 * failed together do not retry together. `attempts` is the jobs table's default: the worker follows
 * each job's own max_attempts.
 */
export const JOB_RETRY: RetryPolicy = { attempts: 3, baseDelayMs: 2_000, maxDelayMs: 5 * 60_000, jitter: [0.5, 1.5] };

/** The pause after a job's `attempt`-th failed attempt: JOB_RETRY, with another base or cap if given. */
export function retryDelay(attempt: number, baseMs = JOB_RETRY.baseDelayMs, maxMs = JOB_RETRY.maxDelayMs, random?: () => number): number {
  return backoffDelay({ ...JOB_RETRY, baseDelayMs: baseMs, maxDelayMs: maxMs }, attempt, random);
}

export interface WorkerOptions<P, R> {
  /** The queue of the jobs this worker runs: their payload and result types, and their owner's hooks for each end. */
  queue: JobQueue<P, R>;
  concurrency: number;
  /** Jobs one account may have running at once across all workers; none: no cap. */
  perAccount?: number | null;
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

export class Worker<P, R> {
  readonly id: string;
  private readonly running = new Map<string, { done: Promise<void>; abort: AbortController }>();
  private readonly timers: NodeJS.Timeout[] = [];
  /** A sweep due when another worker's lease ends, before the next interval's (sweepAtLeaseEnd). */
  private leaseEndSweep: NodeJS.Timeout | null = null;
  private sweeping: Promise<void> = Promise.resolve();
  private unsubscribe: (() => void) | null = null;
  private stopping = false;
  private readonly claims = new CoalescedRun(
    () => this.claimLoop(),
    (e) => this.opts.log?.error({ err: e }, 'claiming jobs failed'),
    () => !this.stopping,
  );

  constructor(
    private readonly db: Db,
    private readonly notifications: Notifications | null,
    private readonly run: JobRunner<P, R>,
    private readonly opts: WorkerOptions<P, R>,
  ) {
    this.id = opts.workerId ?? `wrk_${process.pid}_${randomBytes(4).toString('hex')}`;
  }

  start(): void {
    this.unsubscribe = this.notifications?.subscribe('shotgen_jobs', { onNotify: () => this.wake(), onReset: () => this.wake() }) ?? null;
    const every = (ms: number, fn: () => Promise<unknown>) => {
      const t = setInterval(() => this.housekeep(fn), ms);
      t.unref();
      this.timers.push(t);
    };
    every(this.opts.pollIntervalMs ?? 1_000, async () => this.wake());
    every(Math.max(100, Math.floor(this.opts.leaseMs / 3)), () => this.heartbeat());
    every(this.sweepIntervalMs, () => this.sweep());
    // At once too: what workers that died before this one started left is owed now, and the sweep
    // learns when the leases still held end.
    this.housekeep(() => this.sweep());
    this.wake();
  }

  /** Runs a timer's or the start's housekeeping: a failure is logged, and the next run tries again. */
  private housekeep(fn: () => Promise<unknown>): void {
    void fn().catch((e) => this.opts.log?.error({ err: e }, 'worker housekeeping failed'));
  }

  private get sweepIntervalMs(): number {
    return this.opts.sweepIntervalMs ?? Math.min(5_000, this.opts.leaseMs);
  }

  private now(): Date {
    return this.opts.now ? this.opts.now() : new Date();
  }

  /** Claim until full or the queue is empty; concurrent wakes fold into one claiming loop. */
  wake(): void {
    this.claims.wake();
  }

  /**
   * Claim and run whatever is due now, and return once it is done and nothing more is due (a retry
   * that waits for later is not due). Tests wait on this instead of sleeping; it needs no start().
   */
  async runOnce(): Promise<void> {
    for (;;) {
      this.wake();
      await this.claims.idle();
      if (this.running.size === 0) return;
      await Promise.allSettled([...this.running.values()].map((r) => r.done));
    }
  }

  private async claimLoop(): Promise<void> {
    while (!this.stopping) {
      const free = this.opts.concurrency - this.running.size;
      if (free <= 0) return;
      const jobs = await this.opts.queue.claim(this.db, this.id, free, this.opts.leaseMs, { perAccount: this.opts.perAccount });
      for (const job of jobs) this.execute(job);
      if (jobs.length < free) return;
    }
  }

  private execute(job: ClaimedJob<P>): void {
    const abort = new AbortController();
    jobsRunning.inc();
    const done = this.process(job, abort).finally(() => {
      jobsRunning.dec();
      this.running.delete(job.id);
      this.wake();
    });
    this.running.set(job.id, { done, abort });
  }

  private async process(job: ClaimedJob<P>, abort: AbortController): Promise<void> {
    const timeoutMs = this.opts.attemptTimeoutMs ?? this.opts.leaseMs * 5;
    // Abandoning an attempt aborts its signal, so the runner stops work nobody will keep; the race
    // makes sure the worker moves on even if a runner ignores the signal.
    const abandoned = new Promise<never>((_, reject) => {
      abort.signal.addEventListener('abort', () => reject(abort.signal.reason), { once: true });
    });
    const timer = setTimeout(() => abort.abort(new Error(`attempt ran over ${timeoutMs} ms`)), timeoutMs);
    const progress = new ProgressReporter(this.db, this.id, job.id, (e) =>
      this.opts.log?.warn({ err: e, jobId: job.id }, 'progress not recorded'),
    );
    try {
      const outcome = await Promise.race([this.run(job, { signal: abort.signal, progress: (d, t) => progress.report(d, t) }), abandoned]);
      await progress.settle();
      if (await this.opts.queue.complete(this.db, this.id, job.id, outcome)) jobAttempts.inc({ outcome: 'succeeded' });
      else {
        jobAttempts.inc({ outcome: 'abandoned' });
        this.opts.log?.warn({ jobId: job.id }, 'lease lost before completion; result dropped');
      }
    } catch (error) {
      await progress.settle();
      if (!this.stopping || !abort.signal.aborted) {
        await this.handleFailure(job, error).then(
          (outcome) => jobAttempts.inc({ outcome }),
          (e) => this.opts.log?.error({ err: e, jobId: job.id }, 'could not record job failure'),
        );
      } else jobAttempts.inc({ outcome: 'abandoned' });
    } finally {
      clearTimeout(timer);
      abort.abort(new Error('attempt over'));
    }
  }

  private async handleFailure(job: ClaimedJob<P>, error: unknown): Promise<'failed' | 'retrying'> {
    if (error instanceof FatalJobError) {
      await this.opts.queue.fail(this.db, job.id, this.id, error.jobError, this.now());
      return 'failed';
    }
    this.opts.log?.warn({ err: error, jobId: job.id, attempt: job.attempts }, 'job attempt failed');
    if (job.attempts < job.maxAttempts) {
      await releaseJob(this.db, this.id, job.id, true, (this.opts.retryDelayMs ?? retryDelay)(job.attempts));
      return 'retrying';
    } else if (error instanceof RetryableJobError) {
      await this.opts.queue.fail(
        this.db,
        job.id,
        this.id,
        { ...error.jobError, message: `${error.jobError.message} (after ${job.attempts} attempts)` },
        this.now(),
      );
    } else {
      await this.opts.queue.fail(
        this.db,
        job.id,
        this.id,
        { code: 'attempts_exhausted', message: `The job failed ${job.attempts} times; the last error was internal.`, retryable: false },
        this.now(),
      );
    }
    return 'failed';
  }

  private async heartbeat(): Promise<void> {
    const lost = await heartbeat(this.db, this.id, [...this.running.keys()], this.opts.leaseMs);
    if (lost.length) this.opts.log?.warn({ jobIds: lost }, 'leases lost');
    // Another worker may own these jobs now: stop working on them.
    for (const id of lost) this.running.get(id)?.abort.abort(new Error('lease lost'));
  }

  /** Sweeps (the interval's, the start's, a lease end's); stop() waits for the one in flight. */
  private sweep(): Promise<void> {
    if (this.stopping) return Promise.resolve();
    const run = this.sweepOnce();
    this.sweeping = run.catch(() => undefined);
    return run;
  }

  private async sweepOnce(): Promise<void> {
    const { requeued, failed } = await this.opts.queue.sweep(this.db, this.now());
    if (requeued.length || failed.length) this.opts.log?.info({ requeued, failed }, 'swept expired leases');
    if (requeued.length) this.wake();
    await this.sweepAtLeaseEnd();
  }

  /**
   * When another worker's lease ends before the next interval, sweep right then: if that worker
   * died, its job resumes when its lease ends, not up to an interval (5 s) later. A live worker's
   * heartbeat will have renewed it by then, and that sweep finds nothing to do.
   */
  private async sweepAtLeaseEnd(): Promise<void> {
    const ms = await this.opts.queue.nextLeaseEnd(this.db, this.id);
    if (ms === null || ms >= this.sweepIntervalMs || this.stopping) return;
    if (this.leaseEndSweep) clearTimeout(this.leaseEndSweep);
    // Just past the end: the sweep's `lease_expires_at < now()` must hold.
    this.leaseEndSweep = setTimeout(
      () => {
        this.leaseEndSweep = null;
        this.housekeep(() => this.sweep());
      },
      Math.max(0, ms) + 20,
    );
    this.leaseEndSweep.unref();
  }

  /** Stop claiming; wait for running jobs until the deadline; give back the rest. */
  async stop(deadlineMs: number): Promise<void> {
    this.stopping = true;
    this.unsubscribe?.();
    for (const t of this.timers) clearInterval(t);
    if (this.leaseEndSweep) clearTimeout(this.leaseEndSweep);
    await this.sweeping;
    await this.claims.idle();
    const all = Promise.allSettled([...this.running.values()].map((r) => r.done));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([all, new Promise((r) => (timer = setTimeout(r, deadlineMs)))]);
    clearTimeout(timer);
    // Give back what did not finish, and stop the work itself: another worker will run it again.
    for (const [id, { abort }] of this.running) {
      abort.abort(new Error('worker stopping'));
      await releaseJob(this.db, this.id, id, false).catch(() => undefined);
    }
  }
}
