/**
 * The one way the readers talk to a store: a total time budget, at most one retry for failures
 * that may pass (timeouts, connection errors, 429, 5xx), and store errors mapped to problems.
 */
import { Problem } from '../problem.ts';

export interface StoreLogger {
  warn(obj: object, msg?: string): void;
}

export interface RetryPolicy {
  /** Total budget for all attempts and the pause between them. */
  timeoutMs: number;
  /** Base pause before the retry; jittered up to 1.5x. */
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

export const storeUnavailable = (detail: string): Problem => new Problem(502, 'store_unavailable', detail, {}, { 'Retry-After': '30' });

export const storeAppNotFound = (detail: string): Problem => new Problem(422, 'store_app_not_found', detail);

// The first attempt gets most of the budget but leaves room for a retry after a hang.
const FIRST_ATTEMPT_SHARE = 2 / 3;
// A retry with less time than this cannot realistically succeed against a real store.
const MIN_RETRY_MS = 50;
// Details pages are ~1.2 MB; anything far larger is not a listing and should not fill memory.
const MAX_BODY_BYTES = 8 * 1024 * 1024;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
 * Run `attempt` once, and once more when it fails transiently and the budget allows. Any other
 * error (a Problem such as not found, or a bug) goes straight through.
 */
export async function withRetry<T>(policy: RetryPolicy, what: string, attempt: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const deadline = performance.now() + policy.timeoutMs;
  let reason = 'no attempt';
  for (let n = 1; n <= 2; n++) {
    const remaining = deadline - performance.now();
    const slice = n === 1 ? Math.max(1, Math.floor(remaining * FIRST_ATTEMPT_SHARE)) : remaining;
    try {
      return await attempt(AbortSignal.timeout(Math.max(1, Math.floor(slice))));
    } catch (e) {
      if (!(e instanceof TransientStoreError)) throw e;
      reason = e.message;
    }
    if (n === 2) break;
    const pause = policy.retryDelayMs * (1 + Math.random() / 2);
    if (deadline - performance.now() - pause < MIN_RETRY_MS) break;
    policy.logger?.warn({ store: what, reason }, 'store request failed; retrying once');
    await sleep(pause);
  }
  policy.logger?.warn({ store: what, reason }, 'store request failed');
  throw storeUnavailable(`${what} ${publicReason(reason)}; try again shortly.`);
}

// Connection errors name internal addresses; clients only learn the kind of failure.
function publicReason(reason: string): string {
  if (reason === 'timed out') return 'did not answer in time';
  if (reason.startsWith('HTTP ')) return `answered with an error (${reason})`;
  if (reason === 'invalid response') return 'answered with an unreadable response';
  return 'could not be reached';
}
