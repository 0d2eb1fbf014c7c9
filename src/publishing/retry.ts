/**
 * How publishing retries a call to a store: core's withRetries (src/core/retry.ts) under
 * DEFAULT_RETRY. A StoreError `unavailable` is tried again up to the policy's attempts with
 * doubling, jittered pauses; a Retry-After the store sent is waited out before that pause, and one
 * longer than the policy allows fails the call at once. Anything else (credentials rejected, a
 * refusal, a spent budget, a bug) ends it.
 */
import { withRetries, type RetryPolicy } from '../core/retry.ts';
import { StoreBusy, StoreError } from './errors.ts';

/** 5 tries, 250 ms doubling (× 1-2), a Retry-After of up to 2 min waited out. */
export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, baseDelayMs: 250, maxDelayMs: 20_000, maxRetryAfterMs: 120_000 };

/** Worth another try: the store may answer next time. A spent budget is not: the step is deferred instead. */
export const isUnavailable = (e: unknown): e is StoreError =>
  e instanceof StoreError && e.kind === 'unavailable' && !(e instanceof StoreBusy);

/**
 * Runs `attempt` (given its number, from 1) under `policy` until it succeeds or fails for good.
 * `only` narrows which unavailable errors are tried again (e.g. only 429s, for a call that may
 * have taken effect).
 */
export function retryStoreCall<T>(
  policy: RetryPolicy,
  attempt: (n: number) => Promise<T>,
  only: (e: StoreError) => boolean = () => true,
): Promise<T> {
  return withRetries(policy, attempt, {
    retryable: (e) => isUnavailable(e) && only(e),
    retryAfterMs: (e) => (e as StoreError).retryAfterMs,
  });
}
