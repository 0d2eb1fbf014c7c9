/**
 * How publishing retries a call to a store, on p-retry like the store readers (src/stores/http.ts):
 * a StoreError `unavailable` is tried again up to the policy's attempts with exponential,
 * jittered backoff; a Retry-After the store sent is waited out before that pause, and one longer
 * than the policy allows fails the call at once. Anything else (credentials rejected, a refusal,
 * a spent budget, a bug) ends it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import pRetry, { AbortError } from 'p-retry';
import { StoreBusy, StoreError } from './errors.ts';

export interface RetryPolicy {
  /** Tries per call, the first included. */
  attempts: number;
  /** Pause before the first retry, jittered up to 2x; it doubles with each retry. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Longest Retry-After honoured; a longer one fails the call as unavailable (a later run retries). */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, baseDelayMs: 250, maxDelayMs: 20_000, maxRetryAfterMs: 120_000 };

/** Worth another try: the store may answer next time. A spent budget is not: the step is deferred instead. */
export const isUnavailable = (e: unknown): e is StoreError =>
  e instanceof StoreError && e.kind === 'unavailable' && !(e instanceof StoreBusy);

/**
 * Runs `attempt` (given its number, from 1) until it succeeds or fails for good. `retryable`
 * narrows which unavailable errors are tried again (e.g. only 429s, for a call that may have taken
 * effect).
 */
export function withRetries<T>(
  policy: RetryPolicy,
  attempt: (n: number) => Promise<T>,
  retryable: (e: StoreError) => boolean = () => true,
): Promise<T> {
  return pRetry(attempt, {
    retries: Math.max(0, policy.attempts - 1),
    minTimeout: policy.baseDelayMs,
    maxTimeout: policy.maxDelayMs,
    randomize: true,
    // Called only when a retry is left, so a Retry-After is waited out only when a try follows it.
    shouldRetry: async ({ error }) => {
      if (!isUnavailable(error) || !retryable(error)) return false;
      const wait = error.retryAfterMs;
      if (wait === null) return true;
      if (wait > policy.maxRetryAfterMs) return false;
      await sleep(wait);
      return true;
    },
  });
}

/** Inside an attempt: a failure of `work` (e.g. the look before a retry) ends the retries with it. */
export const noRetry = <T>(work: Promise<T>): Promise<T> =>
  work.catch((e: unknown) => {
    throw new AbortError(e instanceof Error ? e : String(e));
  });

/** Retry-After as seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : Math.max(0, t - now);
}
