/**
 * A small LRU with expiry plus single-flight, so that many users adding the same popular app in a
 * short while cost the store one request. Only successes are kept: a failure must be retryable
 * at once.
 */

interface Entry<V> {
  value: V;
  expiresAt: number;
}

export interface CacheOptions {
  ttlMs: number;
  maxEntries: number;
  now: () => number;
}

export class SingleFlightCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly inFlight = new Map<string, Promise<V>>();

  constructor(private readonly opts: CacheOptions) {}

  get size(): number {
    return this.entries.size;
  }

  /** The cached value for `key`, else the running load for it, else a new load. */
  get(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.entries.get(key);
    if (hit) {
      if (hit.expiresAt > this.opts.now()) {
        // Map order is insertion order; re-inserting makes this the most recently used.
        this.entries.delete(key);
        this.entries.set(key, hit);
        return Promise.resolve(hit.value);
      }
      this.entries.delete(key);
    }
    const running = this.inFlight.get(key);
    if (running) return running;

    const promise = load().then(
      (value) => {
        this.inFlight.delete(key);
        this.store(key, value);
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

  private store(key: string, value: V): void {
    if (this.opts.ttlMs <= 0 || this.opts.maxEntries <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.opts.now() + this.opts.ttlMs });
    while (this.entries.size > this.opts.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }
}
