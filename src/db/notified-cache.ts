/**
 * An in-memory cache kept correct by NOTIFY: the pattern behind the key and account caches.
 *
 * - `invalidate(key)` (a notification for one entry) and `reset()` (the LISTEN connection was lost
 *   or re-made) bump a generation counter. A value read from the database is stored only if
 *   neither its key nor everything was invalidated while it was being read, so a lookup that
 *   raced with a change can never be cached stale.
 * - Nothing is stored while LISTEN is down (`isListening()` false).
 * - Entries also expire after `maxAgeMs`: a backstop should a notification ever be missed.
 * - At `maxEntries` the least recently used entry goes.
 */
import type { Channel, Notifications } from './notifications.ts';

interface Entry<V> {
  value: V;
  storedAt: number;
}

export interface NotifiedCacheOptions {
  notifications: Notifications | null;
  channel: Channel;
  maxEntries: number;
  maxAgeMs: number;
  /** The notification payload names the key to evict. */
  keyOf?: (payload: string) => string;
  now?: () => number;
}

export class NotifiedCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private generation = 0;
  /** When each key was last invalidated, and when everything was: a fill is refused only if its
   *  own key (or everything) changed while it was read, so busy keys do not starve quiet ones. */
  private readonly invalidatedAt = new Map<string, number>();
  private resetAt = 0;
  private readonly now: () => number;

  constructor(private readonly opts: NotifiedCacheOptions) {
    this.now = opts.now ?? Date.now;
    opts.notifications?.subscribe(opts.channel, {
      onNotify: (payload) => this.invalidate(opts.keyOf ? opts.keyOf(payload) : payload),
      onReset: () => this.reset(),
    });
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (this.now() - entry.storedAt > this.opts.maxAgeMs) {
      this.entries.delete(key);
      return undefined;
    }
    // Re-insert: Map order is then least recently used first.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Call before reading the value from the database; pass the result to set(). */
  ticket(): number {
    return this.generation;
  }

  set(key: string, value: V, ticket: number): void {
    if (this.opts.notifications?.connected !== true || ticket < this.resetAt || (this.invalidatedAt.get(key) ?? -1) > ticket) return;
    if (this.entries.size >= this.opts.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, storedAt: this.now() });
  }

  invalidate(key: string): void {
    this.generation++;
    this.entries.delete(key);
    // Bounded: forgetting the per-key marks is safe as long as it counts as a reset.
    if (this.invalidatedAt.size >= this.opts.maxEntries) this.reset();
    else this.invalidatedAt.set(key, this.generation);
  }

  reset(): void {
    this.generation++;
    this.resetAt = this.generation;
    this.invalidatedAt.clear();
    this.entries.clear();
  }
}
