/**
 * An LRU with expiry (lru-cache) plus single-flight, so that many users adding the same popular
 * app in a short while cost the store one request. Only successes are kept: a failure must be
 * retryable at once.
 */
import { LRUCache } from 'lru-cache';

export interface CacheOptions {
  ttlMs: number;
  maxEntries: number;
  now: () => number;
}

export class SingleFlightCache<V extends object> {
  private readonly entries: LRUCache<string, V> | null;
  private readonly inFlight = new Map<string, Promise<V>>();

  constructor(opts: CacheOptions) {
    // ttl 0 or no room: nothing is kept, but concurrent loads of one key are still shared.
    this.entries =
      opts.ttlMs > 0 && opts.maxEntries > 0
        ? new LRUCache<string, V>({ max: opts.maxEntries, ttl: opts.ttlMs, ttlResolution: 0, perf: { now: opts.now } })
        : null;
  }

  get size(): number {
    return this.entries?.size ?? 0;
  }

  /** The cached value for `key`, else the running load for it, else a new load. */
  get(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.entries?.get(key);
    if (hit !== undefined) return Promise.resolve(hit);
    const running = this.inFlight.get(key);
    if (running) return running;

    const promise = load().then(
      (value) => {
        this.inFlight.delete(key);
        this.entries?.set(key, value);
        return value;
      },
      (error: unknown) => {
        this.inFlight.delete(key);
        throw error;
      },
    );
    this.inFlight.set(key, promise);
    return promise;
  }
}
