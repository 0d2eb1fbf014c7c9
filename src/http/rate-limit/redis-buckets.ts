/**
 * Token buckets in Redis, shared by every API process: one Lua script reads, refills, takes and
 * writes a bucket atomically, on Redis's clock (TIME), so processes with skewed clocks agree.
 * One round trip per request. When Redis cannot be reached the request is let through (logged):
 * a broken limiter must not take the API down with it.
 */
import { Redis } from 'ioredis';
import { decide, type BucketRule, type Decision, type TokenBuckets } from './buckets.ts';

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
}

export class RedisBuckets implements TokenBuckets {
  private readonly redis: WithTake;
  private lastErrorLogMs = 0;

  constructor(
    url: string,
    private readonly opts: RedisBucketsOptions = {},
  ) {
    this.redis = new Redis(url, {
      keyPrefix: opts.keyPrefix ?? 'shotgen:rl:',
      // Fail fast when Redis is away: the request goes on without a limit rather than waiting.
      maxRetriesPerRequest: 1,
      commandTimeout: 500,
      enableAutoPipelining: true,
    }) as WithTake;
    this.redis.defineCommand('shotgenTake', { numberOfKeys: 1, lua: TAKE });
    this.redis.on('error', (err) => this.logError('redis connection error', err));
  }

  async take(key: string, rule: BucketRule, cost = 1): Promise<Decision> {
    try {
      const [allowed, tokens] = await this.redis.shotgenTake(key, rule.capacity, rule.perSecond, cost);
      return decide(rule, Number(tokens), allowed === 1);
    } catch (err) {
      this.logError('rate limit not applied: Redis did not answer', err);
      return decide(rule, rule.capacity, true);
    }
  }

  private logError(msg: string, err: unknown): void {
    const now = Date.now();
    if (now - this.lastErrorLogMs < 10_000) return;
    this.lastErrorLogMs = now;
    this.opts.onError?.(msg, err);
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
