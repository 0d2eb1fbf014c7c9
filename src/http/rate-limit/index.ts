/**
 * CONTRACT "Rate limits": a bucket per API key (RATE_LIMIT_PER_SECOND, burst twice that) and one
 * per client address for failed authentication (more than AUTH_FAILURES_PER_MINUTE in a minute:
 * 429). Headers per the IETF httpapi RateLimit draft: `RateLimit-Policy` names both policies on
 * every API answer; `RateLimit` gives the state of the one this request counted against.
 */
import { Problem } from '../../core/problem.ts';
import { MemoryBuckets, type BucketRule, type Decision, type TokenBuckets } from './buckets.ts';

export interface RateLimitSettings {
  perSecond: number;
  authFailuresPerMinute: number;
}

export class RateLimits {
  readonly keyRule: BucketRule;
  readonly addressRule: BucketRule;
  /** The RateLimit-Policy value: the same on every answer. */
  readonly policy: string;

  constructor(
    readonly buckets: TokenBuckets,
    settings: RateLimitSettings,
  ) {
    this.keyRule = { name: 'key', capacity: settings.perSecond * 2, perSecond: settings.perSecond };
    this.addressRule = { name: 'failed-auth', capacity: settings.authFailuresPerMinute, perSecond: settings.authFailuresPerMinute / 60 };
    this.policy = [this.keyRule, this.addressRule]
      .map((r) => `"${r.name}";q=${r.capacity};w=${Math.round(r.capacity / r.perSecond)}`)
      .join(', ');
  }

  /** One request of this key. */
  forKey(keyId: string): Decision | Promise<Decision> {
    return this.buckets.take(`key:${keyId}`, this.keyRule);
  }

  /** Whether this address may still try to authenticate (takes nothing). */
  addressAllowed(address: string): Decision | Promise<Decision> {
    return this.buckets.take(`auth:${address}`, this.addressRule, 0);
  }

  /** One failed authentication from this address. */
  authFailed(address: string): Decision | Promise<Decision> {
    return this.buckets.take(`auth:${address}`, this.addressRule);
  }

  close(): Promise<void> {
    return this.buckets.close();
  }
}

/** The RateLimit header value for a decision under `rule`. */
export const rateLimitHeader = (rule: BucketRule, d: Decision): string => `"${rule.name}";r=${d.remaining};t=${d.resetS}`;

export function rateLimited(rule: BucketRule, d: Decision, detail: string): Problem {
  return new Problem('rate_limited', detail, {}, { 'Retry-After': String(d.retryAfterS), RateLimit: rateLimitHeader(rule, d) });
}

/** In memory without REDIS_URL, in Redis with it (ioredis is loaded only then: ~0.3 s of start-up). */
export async function createRateLimits(
  settings: RateLimitSettings & { redisUrl: string | null; redisKeyPrefix?: string },
  onError?: (msg: string, err: unknown) => void,
): Promise<RateLimits> {
  if (!settings.redisUrl) return new RateLimits(new MemoryBuckets(), settings);
  const { RedisBuckets } = await import('./redis-buckets.ts');
  const buckets = new RedisBuckets(settings.redisUrl, { keyPrefix: settings.redisKeyPrefix, onError });
  // Not required: without Redis the limits hold per process until it answers.
  await buckets.connected();
  return new RateLimits(buckets, settings);
}
