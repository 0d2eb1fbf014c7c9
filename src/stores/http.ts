/**
 * The one way the readers talk to a store: a total time budget, at most one retry for failures
 * that may pass (timeouts, connection errors, 429, 5xx), and store errors mapped to problems.
 */
import { Problem } from '../core/problem.ts';
import { withRetries, type RetryPolicy } from '../core/retry.ts';

export interface StoreLogger {
  warn(obj: object, msg?: string): void;
}

/** How a reader tries a store: core's withRetries with this policy, and where it says what failed. */
export interface StoreCallOptions {
  retry: RetryPolicy;
  logger?: StoreLogger;
}

/**
 * A read's policy: two tries within `budgetMs` (the first gets 2/3 of it, leaving room for a
 * retry after a hang), the pause between them `baseDelayMs` × 1-2.
 */
export const readerRetry = (budgetMs: number, baseDelayMs: number): RetryPolicy => ({
  attempts: 2,
  baseDelayMs,
  maxDelayMs: baseDelayMs,
  budgetMs,
});

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
 * Run `attempt` under the policy (readerRetry: once, and once more when it fails transiently and
 * the budget allows). Any other error (a Problem such as not found, or a bug) goes straight through.
 */
export async function withRetry<T>(opts: StoreCallOptions, what: string, attempt: (signal: AbortSignal) => Promise<T>): Promise<T> {
  try {
    return await withRetries(opts.retry, (_n, signal) => attempt(signal), {
      retryable: (e) => e instanceof TransientStoreError,
      onRetry: (e) => opts.logger?.warn({ store: what, reason: (e as Error).message }, 'store request failed; retrying once'),
    });
  } catch (e) {
    if (!(e instanceof TransientStoreError)) throw e;
    opts.logger?.warn({ store: what, reason: e.message }, 'store request failed');
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
