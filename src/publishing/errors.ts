/**
 * What a store call can end in, as the publication records it: `rejected` (credentials refused:
 * no retry helps), `unavailable` (5xx/429/network after the retries: a later run may pass),
 * `refused` (the store says no to this change, e.g. a version not editable or a review in
 * progress) and `mismatch` (verify found the store not as planned).
 */
export type StoreErrorKind = 'rejected' | 'unavailable' | 'refused' | 'mismatch';

export class StoreError extends Error {
  constructor(
    readonly kind: StoreErrorKind,
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'StoreError';
  }
}

/**
 * The store's request budget is nearly spent (App Store Connect's hourly budget per key): the
 * step is put off for `retryAfterMs` instead of spending the rest on calls that would be 429s,
 * and that costs none of the step's retries. Everything done so far is saved, so the deferred
 * run resumes where this one stopped.
 */
export class StoreBusy extends StoreError {
  constructor(
    message: string,
    readonly retryAfterMs: number,
  ) {
    super('unavailable', message, 429);
    this.name = 'StoreBusy';
  }
}

export interface RetryPolicy {
  /** Tries per call, the first included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Longest Retry-After honoured; a longer one fails the call as unavailable (a later run retries). */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, baseDelayMs: 500, maxDelayMs: 20_000, maxRetryAfterMs: 120_000 };

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Full-jitter exponential backoff. */
export const backoffMs = (p: RetryPolicy, attempt: number): number =>
  Math.round(Math.random() * Math.min(p.maxDelayMs, p.baseDelayMs * 2 ** (attempt - 1)));

/** Retry-After as seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : Math.max(0, t - now);
}
