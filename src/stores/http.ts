/**
 * The one way the readers talk to a store: a total time budget, at most one retry for failures
 * that may pass (timeouts, connection errors, 429, 5xx), and store errors mapped to problems.
 */
import pRetry from 'p-retry';
import { Problem } from '../core/problem.ts';

export interface StoreLogger {
  warn(obj: object, msg?: string): void;
}

export interface RetryPolicy {
  /** Total budget for all attempts and the pause between them. */
  timeoutMs: number;
  /** Base pause before the retry; jittered up to 2x. */
  retryDelayMs: number;
  logger?: StoreLogger;
}

export interface StoreResponse {
  status: number;
  headers: Headers;
  body: string;
}

/** A failure worth one more try. */
export class TransientStoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TransientStoreError';
  }
}

export const storeUnavailable = (detail: string): Problem => new Problem('store_unavailable', detail, {}, { 'Retry-After': '30' });

export const storeAppNotFound = (detail: string): Problem => new Problem('store_app_not_found', detail);

// The first attempt gets most of the budget but leaves room for a retry after a hang.
const FIRST_ATTEMPT_SHARE = 2 / 3;
// A retry with less time than this cannot realistically succeed against a real store.
const MIN_RETRY_MS = 50;
// Details pages are ~1.2 MB; anything far larger is not a listing and should not fill memory.
const MAX_BODY_BYTES = 8 * 1024 * 1024;

/**
 * GET a store URL. Redirects are not followed: the stores answer listing requests directly, and a
 * redirect (typically to a consent or captcha page on another host) means the page is unusable.
 */
export async function getStore(url: string, headers: Record<string, string>, signal: AbortSignal): Promise<StoreResponse> {
  let res: Response;
  try {
    res = await fetch(url, { headers, signal, redirect: 'manual' });
  } catch (e) {
    throw new TransientStoreError(describeFetchError(e));
  }
  if (res.status === 429 || res.status >= 500) {
    await res.body?.cancel().catch(() => undefined);
    throw new TransientStoreError(`HTTP ${res.status}`);
  }
  try {
    return { status: res.status, headers: res.headers, body: await readLimited(res) };
  } catch (e) {
    if (e instanceof Problem) throw e;
    throw new TransientStoreError(describeFetchError(e));
  }
}

async function readLimited(res: Response): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw storeUnavailable('The store answered with an unexpectedly large response.');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function describeFetchError(e: unknown): string {
  if (e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError')) return 'timed out';
  const cause = e instanceof Error && e.cause instanceof Error ? `: ${e.cause.message}` : '';
  return e instanceof Error ? `${e.message}${cause}` : String(e);
}

/**
 * Run `attempt` once, and once more (p-retry) when it fails transiently and the budget allows. Any
 * other error (a Problem such as not found, or a bug) goes straight through.
 */
export async function withRetry<T>(policy: RetryPolicy, what: string, attempt: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const deadline = performance.now() + policy.timeoutMs;
  let n = 0;
  try {
    return await pRetry(
      () => {
        n++;
        const remaining = deadline - performance.now();
        return attempt(AbortSignal.timeout(Math.max(1, Math.floor(n === 1 ? remaining * FIRST_ATTEMPT_SHARE : remaining))));
      },
      {
        retries: 1,
        // The pause is the base times a random factor from 1 to 2 (p-retry's randomize).
        minTimeout: policy.retryDelayMs,
        maxTimeout: 2 * policy.retryDelayMs,
        randomize: true,
        shouldRetry: ({ error }) => {
          if (!(error instanceof TransientStoreError)) return false;
          if (deadline - performance.now() - 2 * policy.retryDelayMs < MIN_RETRY_MS) return false;
          policy.logger?.warn({ store: what, reason: error.message }, 'store request failed; retrying once');
          return true;
        },
      },
    );
  } catch (e) {
    if (!(e instanceof TransientStoreError)) throw e;
    policy.logger?.warn({ store: what, reason: e.message }, 'store request failed');
    throw storeUnavailable(`${what} ${publicReason(e.message)}; try again shortly.`);
  }
}

// Connection errors name internal addresses; clients only learn the kind of failure.
function publicReason(reason: string): string {
  if (reason === 'timed out') return 'did not answer in time';
  if (reason.startsWith('HTTP ')) return `answered with an error (${reason})`;
  if (reason === 'invalid response') return 'answered with an unreadable response';
  return 'could not be reached';
}
