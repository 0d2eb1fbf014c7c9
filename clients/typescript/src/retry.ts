/**
 * Retries of answers that say "not now": 429, 502, 503, and 409 `idempotency_key_in_use`. None of
 * them did the work, so any method may be repeated. A connection that failed may have done it, so
 * only requests safe to repeat are retried then: reads, deletes, and POSTs with an Idempotency-Key.
 */
import { retryAfterSeconds } from './errors.ts';

export interface RetryOptions {
  /** Retries after the first attempt (default 4; 0 turns retrying off). */
  retries?: number;
  /** The longest wait between attempts (default 30 s). A Retry-After longer than this ends the retries. */
  maxDelayMs?: number;
  /** Told before each wait, e.g. to show "rate limited, retrying in 2 s". */
  onRetry?: (info: { attempt: number; delayMs: number; status: number | null; url: string }) => void;
}

const RETRYABLE_STATUS = new Set([429, 502, 503]);

export function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

async function isKeyInUse(response: Response): Promise<boolean> {
  if (response.status !== 409) return false;
  try {
    return ((await response.clone().json()) as { code?: unknown }).code === 'idempotency_key_in_use';
  } catch {
    return false;
  }
}

const repeatable = (request: Request) =>
  ['GET', 'HEAD', 'DELETE', 'PUT'].includes(request.method) || request.headers.has('idempotency-key');

/** A fetch that retries as above, waiting Retry-After when given, else backing off (0.5 s, 1 s, 2 s, ...). */
export function retryingFetch(baseFetch: typeof fetch, opts: RetryOptions = {}): (input: Request) => Promise<Response> {
  const retries = opts.retries ?? 4;
  const maxDelayMs = opts.maxDelayMs ?? 30_000;
  return async (request) => {
    for (let attempt = 1; ; attempt++) {
      const last = attempt > retries;
      let response: Response;
      try {
        response = await baseFetch(last ? request : request.clone());
      } catch (error) {
        if (last || request.signal.aborted || !repeatable(request)) throw error;
        const delayMs = Math.min(maxDelayMs, 500 * 2 ** (attempt - 1));
        opts.onRetry?.({ attempt, delayMs, status: null, url: request.url });
        await sleep(delayMs, request.signal);
        continue;
      }
      if (last || !(RETRYABLE_STATUS.has(response.status) || (await isKeyInUse(response)))) return response;
      const told = retryAfterSeconds(response.headers.get('retry-after'));
      const delayMs = told === null ? Math.min(maxDelayMs, 500 * 2 ** (attempt - 1)) : told * 1000;
      if (delayMs > maxDelayMs) return response;
      // The answer is dropped: free its connection.
      await response.body?.cancel();
      opts.onRetry?.({ attempt, delayMs, status: response.status, url: request.url });
      await sleep(delayMs, request.signal);
    }
  };
}
