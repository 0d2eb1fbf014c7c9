/**
 * Trying again, in one place: what a retry policy says, the pause before the next try, and the
 * loop that runs a call under a policy (on p-retry). Every retry of the service is an instance:
 *
 * - store readers (src/stores/http.ts): 2 tries within the request's time budget, 250 ms × 1-2;
 * - publishing's store calls (src/publishing/retry.ts): 5 tries, 250 ms doubling × 1-2, a
 *   Retry-After waited out up to 2 min;
 * - a job's next attempt (src/queue/worker.ts): 2 s doubling up to 5 min, ± 50 %;
 * - a webhook's next attempt (src/webhooks/deliveries.ts): the CONTRACT's 5 s … 6 h, ± 20 %.
 *
 * Store calls retry in place (withRetries); jobs and webhooks retry later, as a new claim or a new
 * task, so they take only the pause (backoffDelay). pg-boss's retry of internal tasks
 * (src/tasks/, each task's queue in its own file) is pg-boss's own: queue options, the pauses
 * computed in its SQL.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import pRetry, { AbortError } from 'p-retry';

export interface RetryPolicy {
  /** Tries in all, the first included. */
  attempts: number;
  /** The pause after the first failed try; it doubles after each further one. */
  baseDelayMs: number;
  /**
   * The doubling stops here. The jitter applies after it, so calls that failed together do not
   * come back together even at the cap: a pause can be up to maxDelayMs × the jitter's top.
   */
  maxDelayMs: number;
  /** The pause is multiplied by a random factor between these two; default [1, 2] (up to twice). */
  jitter?: readonly [number, number];
  /** Fixed pauses in place of the doubling (a published schedule): after the n-th failed try, the n-th. */
  delaysMs?: readonly number[];
  /**
   * All tries and the pauses between them take no longer: each try is given what is left (2/3 of
   * it when another try may follow, leaving room for one after a hang), and no try is made that
   * could not get MIN_TRY_MS of it after the longest pause.
   */
  budgetMs?: number;
  /**
   * A Retry-After up to this long is waited out before the pause; a longer one ends the tries at
   * once (the caller fails now and a later run tries again). Without it a Retry-After is ignored.
   */
  maxRetryAfterMs?: number;
}

/** Up to twice the pause (p-retry's `randomize`). */
const DEFAULT_JITTER = [1, 2] as const;
/** The share of the budget left that a try gets when another may follow. */
const FIRST_TRIES_SHARE = 2 / 3;
/** A try with less time than this cannot realistically succeed against a remote server. */
const MIN_TRY_MS = 50;

/** A policy that follows fixed pauses rather than doubling: one try more than there are pauses. */
export function scheduled(delaysMs: readonly number[], jitter?: readonly [number, number]): RetryPolicy {
  return {
    attempts: delaysMs.length + 1,
    baseDelayMs: delaysMs[0] ?? 0,
    maxDelayMs: Math.max(0, ...delaysMs),
    delaysMs,
    ...(jitter && { jitter }),
  };
}

/** The pause after the n-th failed try before the jitter: the schedule's, or base·2^(n-1), capped. */
function exactDelay(policy: RetryPolicy, failedAttempt: number): number {
  const n = Math.max(1, failedAttempt);
  const schedule = policy.delaysMs;
  const exact = schedule?.length ? schedule[Math.min(n, schedule.length) - 1] : policy.baseDelayMs * 2 ** (n - 1);
  return Math.min(policy.maxDelayMs, exact);
}

/**
 * The pause after the `failedAttempt`-th failed try (1: the first): base·2^(n-1), or the n-th of a
 * schedule, at most maxDelayMs, times a random factor within the jitter. Whether a try is left is
 * the caller's to know (policy.attempts, or a job's own max_attempts).
 */
export function backoffDelay(policy: RetryPolicy, failedAttempt: number, random: () => number = Math.random): number {
  const [low, high] = policy.jitter ?? DEFAULT_JITTER;
  return Math.round(exactDelay(policy, failedAttempt) * (low + (high - low) * random()));
}

export interface RetryOptions {
  /** Whether this failure may pass on another try; any other ends the tries at once. */
  retryable: (error: unknown) => boolean;
  /** How long the failure asks to be left alone (a Retry-After); null when it does not say. */
  retryAfterMs?: (error: unknown) => number | null;
  /** Aborts the pauses and stops further tries. */
  signal?: AbortSignal;
  /** Told before each pause (to log it). */
  onRetry?: (error: unknown, failedAttempt: number, delayMs: number) => void;
  random?: () => number;
}

const NEVER = new AbortController().signal;

/**
 * Runs `fn` (given its try's number, from 1, and a signal that fires when its share of the budget
 * is spent) until it succeeds, fails with an error that is not retryable, or the policy's tries,
 * budget or Retry-After cap are spent; the last error is thrown. p-retry runs the loop, so an
 * AbortError thrown inside a try (noRetry) ends it with the error it wraps.
 */
export function withRetries<T>(
  policy: RetryPolicy,
  fn: (attempt: number, signal: AbortSignal) => Promise<T>,
  opts: RetryOptions,
): Promise<T> {
  const deadline = policy.budgetMs === undefined ? null : performance.now() + policy.budgetMs;
  const signalFor = (n: number): AbortSignal => {
    if (deadline === null) return opts.signal ?? NEVER;
    const left = deadline - performance.now();
    const timeout = AbortSignal.timeout(Math.max(1, Math.floor(n < policy.attempts ? left * FIRST_TRIES_SHARE : left)));
    return opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  };
  const pause = async (ms: number) => {
    if (ms > 0)
      await sleep(ms, undefined, opts.signal && { signal: opts.signal }).catch((e: unknown) => {
        throw opts.signal?.reason ?? e;
      });
  };
  return pRetry((n) => fn(n, signalFor(n)), {
    retries: Math.max(0, policy.attempts - 1),
    // The pause is ours (backoffDelay), taken in shouldRetry: p-retry's own is none.
    minTimeout: 0,
    signal: opts.signal,
    // Called only when a try is left, so a Retry-After is waited out only when a try follows it.
    shouldRetry: async ({ error, attemptNumber }) => {
      if (!opts.retryable(error)) return false;
      const cap = policy.maxRetryAfterMs;
      const wait = cap === undefined ? null : (opts.retryAfterMs?.(error) ?? null);
      if (wait !== null && wait > cap!) return false;
      if (deadline !== null) {
        const longest = exactDelay(policy, attemptNumber) * (policy.jitter ?? DEFAULT_JITTER)[1];
        if (deadline - performance.now() - (wait ?? 0) - longest < MIN_TRY_MS) return false;
      }
      const delay = backoffDelay(policy, attemptNumber, opts.random);
      opts.onRetry?.(error, attemptNumber, delay);
      await pause(wait ?? 0);
      await pause(delay);
      return true;
    },
  });
}

/** Inside a try: a failure of `work` (e.g. the look before trying again) ends the tries with it. */
export const noRetry = <T>(work: Promise<T>): Promise<T> =>
  work.catch((e: unknown) => {
    throw new AbortError(e instanceof Error ? e : String(e));
  });

/** A Retry-After header (seconds or an HTTP date) in milliseconds; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : Math.max(0, t - now);
}
