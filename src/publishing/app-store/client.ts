/**
 * A thin App Store Connect API client over fetch: JSON:API requests with the team's JWT, retried
 * here so that every call site gets the same rules: 429 waits out Retry-After, 5xx and network
 * errors back off, a 401 signs a new token once and then means the key was revoked.
 */
import { StoreBusy, StoreError } from '../errors.ts';
import { parseRetryAfter, type RetryPolicy } from '../../core/retry.ts';
import { DEFAULT_RETRY, retryStoreCall } from '../retry.ts';
import { AppStoreTokens, type AppStoreCredentials } from './token.ts';

export interface UploadOperation {
  method: string;
  url: string;
  offset: number;
  length: number;
  requestHeaders?: { name: string; value: string }[];
}

export interface JsonApiResource<A = Record<string, unknown>> {
  type: string;
  id: string;
  attributes: A;
  relationships?: Record<string, unknown>;
}

export interface AppStoreClientOptions {
  baseUrl: string;
  retry?: RetryPolicy;
  timeoutMs?: number;
  /** Counts every HTTP request made (for the calls-per-image figures). */
  onCall?: (method: string, url: string, status: number) => void;
  /**
   * Requests of the key's hourly budget left to other users of the key (CI, fastlane, people):
   * at or below it, calls stop and the step is deferred. Default: 5 % of the budget.
   */
  budgetReserve?: (limit: number) => number;
}

export interface RequestBudget {
  limit: number;
  remaining: number;
}

const HOUR_MS = 3_600_000;
const MIN_DEFER_MS = 60_000;

/** Apple's `X-Rate-Limit: user-hour-lim:3600;user-hour-rem:3599;`; null when absent or unreadable. */
export function parseRateLimit(value: string | null): RequestBudget | null {
  if (!value) return null;
  const limit = /user-hour-lim:(\d+)/.exec(value)?.[1];
  const remaining = /user-hour-rem:(\d+)/.exec(value)?.[1];
  return limit === undefined || remaining === undefined ? null : { limit: Number(limit), remaining: Number(remaining) };
}

export const defaultBudgetReserve = (limit: number): number => Math.ceil(limit * 0.05);

/**
 * How long until the budget is above the reserve again. The hour is a rolling window and Apple
 * does not say when the spent requests were made, so this assumes they were spread over it:
 * each 3600/limit seconds gives one back. At least a minute, at most the hour.
 */
export function budgetWaitMs(b: RequestBudget, reserve: number): number {
  const needed = reserve - b.remaining + 1;
  return Math.min(HOUR_MS, Math.max(MIN_DEFER_MS, Math.ceil((needed * HOUR_MS) / Math.max(b.limit, 1))));
}

export class AppStoreClient {
  readonly tokens: AppStoreTokens;
  readonly retry: RetryPolicy;
  /** The key's hourly budget as the last answer told it; null before the first answer. */
  budget: RequestBudget | null = null;

  constructor(
    creds: AppStoreCredentials,
    private readonly opts: AppStoreClientOptions,
  ) {
    this.tokens = new AppStoreTokens(creds);
    this.retry = opts.retry ?? DEFAULT_RETRY;
  }

  /** Any JSON:API call; `null` for a 204. A 404 is returned as null when `allow404`. */
  /** `once`: no retry of 5xx/network errors here, for a call that may have taken effect (the caller checks first). */
  async call<T = unknown>(method: string, path: string, body?: unknown, allow404 = false, once = false): Promise<T | null> {
    const url = path.startsWith('http') ? path : `${this.opts.baseUrl}${path}`;
    let reauthorised = false;
    const send = async (): Promise<T | null> => {
      this.checkBudget(method, path);
      let res: Response;
      try {
        res = await fetch(url, {
          method,
          headers: {
            authorization: `Bearer ${await this.tokens.token()}`,
            accept: 'application/json',
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(this.opts.timeoutMs ?? 30_000),
          redirect: 'error',
        });
      } catch (e) {
        throw new StoreError('unavailable', `App Store Connect did not answer ${method} ${path}: ${(e as Error).message}`);
      }
      this.opts.onCall?.(method, url, res.status);
      this.budget = parseRateLimit(res.headers.get('x-rate-limit')) ?? this.budget;
      const text = await res.text();
      if (res.ok) return res.status === 204 || text === '' ? null : (JSON.parse(text) as T);
      if (res.status === 404 && allow404) return null;
      // An expired or rotated token is signed anew once, at once; a second 401 means the key was revoked.
      if (res.status === 401 && !reauthorised) {
        reauthorised = true;
        this.tokens.forget();
        return send();
      }
      if (res.status === 401 || res.status === 403)
        throw new StoreError('rejected', `App Store Connect refused the API key (${res.status}): ${errorText(text)}`, res.status);
      // A 429 of a spent hourly budget is not waited out here: the step is deferred at once.
      if (res.status === 429) this.checkBudget(method, path);
      const what = `App Store Connect answered ${res.status} to ${method} ${path}: ${errorText(text)}`;
      if (res.status === 429) throw new StoreError('unavailable', what, 429, parseRetryAfter(res.headers.get('retry-after')));
      if (res.status >= 500) throw new StoreError('unavailable', what, res.status);
      throw new StoreError('refused', what, res.status, null, appleError(text));
    };
    // A 429 was not acted on: it is retried even for a `once` call.
    return retryStoreCall(this.retry, send, (e) => !once || e.status === 429);
  }

  /** Throws StoreBusy when the key's hourly budget is down to the reserve: the step waits instead. */
  private checkBudget(method: string, path: string): void {
    const b = this.budget;
    if (!b) return;
    const reserve = (this.opts.budgetReserve ?? defaultBudgetReserve)(b.limit);
    if (b.remaining > reserve) return;
    throw new StoreBusy(
      `App Store Connect's hourly request budget for this key is down to ${b.remaining} of ${b.limit} (keeping ${reserve} for other users of the key); ${method} ${path} and the rest wait`,
      budgetWaitMs(b, reserve),
    );
  }

  /** One upload operation: the part's bytes to the URL Apple named, with its headers and no token. */
  async uploadPart(op: UploadOperation, file: Buffer): Promise<void> {
    const headers: Record<string, string> = {};
    for (const h of op.requestHeaders ?? []) headers[h.name] = h.value;
    const part = file.subarray(op.offset, op.offset + op.length);
    await retryStoreCall(this.retry, async () => {
      let status = 0;
      let why = '';
      try {
        const res = await fetch(op.url, {
          method: op.method,
          headers,
          body: new Uint8Array(part),
          signal: AbortSignal.timeout(this.opts.timeoutMs ?? 60_000),
          redirect: 'error',
        });
        status = res.status;
        why = await res.text();
      } catch (e) {
        why = (e as Error).message;
      }
      if (status) this.opts.onCall?.(op.method, op.url, status);
      if (status >= 200 && status < 300) return;
      if (status && status !== 429 && status < 500)
        throw new StoreError('refused', `the upload of a part answered ${status}: ${why.slice(0, 200)}`, status);
      throw new StoreError('unavailable', `the upload of a part failed (${status || why})`, status || null);
    });
  }
}

/** Apple's `errors[0]` code and detail, or null for a body that is not a JSON:API error document. */
function appleError(body: string): { code: string; detail: string } | null {
  try {
    const e = (JSON.parse(body) as { errors?: { code?: string; title?: string; detail?: string }[] }).errors?.[0];
    return e?.code ? { code: e.code, detail: e.detail ?? e.title ?? '' } : null;
  } catch {
    return null;
  }
}

function errorText(body: string): string {
  try {
    const parsed = JSON.parse(body) as { errors?: { code?: string; title?: string; detail?: string }[] };
    const e = parsed.errors?.[0];
    if (e) return [e.code, e.detail ?? e.title].filter(Boolean).join(': ');
  } catch {
    // Not JSON:API: the start of the text says enough.
  }
  return body.slice(0, 200);
}
