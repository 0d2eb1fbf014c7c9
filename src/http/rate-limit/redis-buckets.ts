/**
 * Token buckets in Redis, shared by every API process: one Lua script reads, refills, takes and
 * writes a bucket atomically, on Redis's clock (TIME), so processes with skewed clocks agree.
 * One round trip per request.
 *
 * When Redis is away the limits do not go with it: each process falls back AT ONCE to its own
 * in-memory buckets (a key guesser still meets 429s, and no request waits for Redis to fail), and
 * Redis is tried again after a pause. "At once": commands are not queued while disconnected, so a
 * refused connection costs nothing; only a Redis that hangs costs one request its command timeout.
 */
import { Redis } from 'ioredis';
import { decide, MemoryBuckets, type BucketRule, type Decision, type TokenBuckets } from './buckets.ts';

const TAKE = `
local capacity = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
if tokens == nil then tokens = capacity; at = now end
tokens = math.min(capacity, tokens + math.max(0, now - at) / 1000 * rate)
local allowed = 0
if cost == 0 then
  if tokens >= 1 then allowed = 1 end
elseif tokens >= cost then
  tokens = tokens - cost
  allowed = 1
end
if cost > 0 then
  redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
  redis.call('PEXPIRE', KEYS[1], math.ceil((capacity - tokens) / rate * 1000) + 1000)
end
return {allowed, tostring(tokens)}
`;

type WithTake = Redis & { shotgenTake(key: string, capacity: number, perSecond: number, cost: number): Promise<[number, string]> };

export interface RedisBucketsOptions {
  /** Prepended to every key: tests use their own, so they never touch each other's buckets. */
  keyPrefix?: string;
  onError?: (msg: string, err: unknown) => void;
  /** How long after a failure the in-memory buckets serve alone, and the reconnect interval. */
  retryAfterMs?: number;
}

export const REDIS_RETRY_AFTER_MS = 5_000;
/** How long start-up waits for the first connection before serving from memory meanwhile. */
const FIRST_CONNECT_MS = 1_000;

export class RedisBuckets implements TokenBuckets {
  private readonly redis: WithTake;
  private readonly fallback = new MemoryBuckets();
  private readonly retryAfterMs: number;
  private pausedUntilMs = 0;
  private lastErrorLogMs = 0;

  constructor(
    url: string,
    private readonly opts: RedisBucketsOptions = {},
  ) {
    this.retryAfterMs = opts.retryAfterMs ?? REDIS_RETRY_AFTER_MS;
    this.redis = new Redis(url, {
      keyPrefix: opts.keyPrefix ?? 'shotgen:rl:',
      // Fail at once while disconnected (the memory buckets answer); never retry a command.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: 500,
      retryStrategy: () => this.retryAfterMs,
      enableAutoPipelining: true,
    }) as WithTake;
    this.redis.defineCommand('shotgenTake', { numberOfKeys: 1, lua: TAKE });
    this.redis.on('error', (err) => this.logError('rate limits in memory: Redis connection error', err));
  }

  /** Resolves once Redis is connected, has refused, or FIRST_CONNECT_MS passed: never rejects. */
  connected(): Promise<boolean> {
    if (this.redis.status === 'ready') return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        this.redis.off('ready', onReady);
        this.redis.off('error', onError);
        resolve(ok);
      };
      const onReady = () => done(true);
      const onError = () => done(false);
      const timer = setTimeout(() => done(false), FIRST_CONNECT_MS);
      this.redis.once('ready', onReady);
      this.redis.once('error', onError);
    });
  }

  /** Whether decisions come from Redis now (else from this process's memory). */
  get shared(): boolean {
    return this.redis.status === 'ready' && Date.now() >= this.pausedUntilMs;
  }

  take(key: string, rule: BucketRule, cost = 1): Decision | Promise<Decision> {
    if (!this.shared) return this.fallback.take(key, rule, cost);
    return this.redis.shotgenTake(key, rule.capacity, rule.perSecond, cost).then(
      ([allowed, tokens]) => decide(rule, Number(tokens), allowed === 1),
      (err: unknown) => {
        this.pausedUntilMs = Date.now() + this.retryAfterMs;
        this.logError('rate limits in memory: Redis did not answer', err);
        return this.fallback.take(key, rule, cost);
      },
    );
  }

  private logError(msg: string, err: unknown): void {
    const now = Date.now();
    if (now - this.lastErrorLogMs < 10_000) return;
    this.lastErrorLogMs = now;
    this.opts.onError?.(msg, err);
  }

  async close(): Promise<void> {
    await this.fallback.close();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
