/**
 * Token buckets: a bucket holds up to `capacity` tokens and gains `perSecond` a second; a request
 * takes one, and is refused when none is left. In memory for one process (this file), in Redis
 * for several (redis-buckets.ts), behind one interface so the hook does not care which.
 */

export interface BucketRule {
  /** A name for the policy, shown in RateLimit-Policy / RateLimit. */
  name: string;
  capacity: number;
  perSecond: number;
}

export interface Decision {
  allowed: boolean;
  /** Whole tokens left after this request. */
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetS: number;
  /** When refused: seconds until one token is back. */
  retryAfterS: number;
}

export interface TokenBuckets {
  /**
   * Take `cost` tokens (0: only look) from the bucket `key`. Synchronous where it can be (memory),
   * so the hot path costs no promise.
   */
  take(key: string, rule: BucketRule, cost?: number): Decision | Promise<Decision>;
  close(): Promise<void>;
}

/** The decision for a bucket holding `tokens` (fractional) after this request. */
export function decide(rule: BucketRule, tokens: number, allowed: boolean): Decision {
  return {
    allowed,
    remaining: Math.max(0, Math.floor(tokens)),
    resetS: Math.max(0, Math.ceil((rule.capacity - tokens) / rule.perSecond)),
    retryAfterS: allowed ? 0 : Math.max(1, Math.ceil((1 - tokens) / rule.perSecond)),
  };
}

interface Bucket {
  tokens: number;
  atMs: number;
}

export class MemoryBuckets implements TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly now: () => number = Date.now,
    sweepEveryMs = 30_000,
  ) {
    // A full bucket is the same as no bucket: forget those, so the map holds only active clients.
    this.sweeper = setInterval(() => this.sweep(), sweepEveryMs);
    this.sweeper.unref();
  }

  take(key: string, rule: BucketRule, cost = 1): Decision {
    const now = this.now();
    const bucket = this.buckets.get(key);
    let tokens = bucket ? Math.min(rule.capacity, bucket.tokens + ((now - bucket.atMs) / 1000) * rule.perSecond) : rule.capacity;
    const allowed = cost === 0 ? tokens >= 1 : tokens >= cost;
    if (cost > 0) {
      if (allowed) tokens -= cost;
      if (bucket) {
        bucket.tokens = tokens;
        bucket.atMs = now;
      } else {
        this.buckets.set(key, { tokens, atMs: now });
      }
    }
    return decide(rule, tokens, allowed);
  }

  /** Buckets that have refilled completely (every rule refills within a minute or so). */
  private sweep(): void {
    const now = this.now();
    for (const [key, b] of this.buckets) if (now - b.atMs > 120_000) this.buckets.delete(key);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
  }
}
