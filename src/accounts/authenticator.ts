/**
 * Turns a presented key into an account, on the hot path of every request.
 *
 * Lookups are cached in memory by digest. A revocation reaches every process through NOTIFY at
 * commit (trigger api_keys_notify), which evicts the entry; while the LISTEN connection is down
 * nothing is cached, so a cache can never serve a revoked key it was not told about.
 * last_used_at is batched: at most one UPDATE per flush interval for all keys used meanwhile.
 */
import type { Db } from '../db/pool.ts';
import type { Notifications } from '../db/notifications.ts';
import { Problem } from '../problem.ts';
import { findKeyByHash, hashKey, looksLikeKey, touchApiKeys, type KeyLookup } from './api-keys.ts';

export interface Principal {
  keyId: string;
  accountId: string;
}

const MAX_ENTRIES = 50_000;

export class Authenticator {
  private readonly cache = new Map<string, KeyLookup>();
  /** Bumped on every invalidation: a lookup that raced with one is not cached. */
  private generation = 0;
  private pendingUses = new Map<string, Date>();
  private flushTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Db,
    private readonly notifications: Notifications | null,
    private readonly opts: { flushIntervalMs?: number; now?: () => Date } = {},
  ) {
    notifications?.subscribe('shotgen_api_keys', {
      onNotify: (hashHex) => {
        this.generation++;
        this.cache.delete(hashHex);
      },
      onReset: () => {
        this.generation++;
        this.cache.clear();
      },
    });
    this.flushTimer = setInterval(() => void this.flush().catch(() => undefined), opts.flushIntervalMs ?? 10_000);
    this.flushTimer.unref();
  }

  private get caching(): boolean {
    return this.notifications?.connected === true;
  }

  /**
   * The principal for a key this process has already seen and been told nothing about since, or
   * null: then call authenticate(). Synchronous, so the common case costs no promise.
   */
  cached(key: string): Principal | null {
    if (!looksLikeKey(key)) return null;
    const found = this.cache.get(hashKey(key).toString('hex'));
    return found ? this.use(found) : null;
  }

  async authenticate(key: string): Promise<Principal> {
    if (!looksLikeKey(key)) throw invalidKey();
    const hash = hashKey(key);
    const hex = hash.toString('hex');
    let found = this.cache.get(hex);
    if (!found) {
      const generation = this.generation;
      const fromDb = await findKeyByHash(this.db, hash);
      if (!fromDb) throw invalidKey();
      found = fromDb;
      if (this.caching && !found.revoked && generation === this.generation) {
        if (this.cache.size >= MAX_ENTRIES) this.cache.clear();
        this.cache.set(hex, found);
      }
    }
    if (found.revoked) throw new Problem(401, 'revoked_api_key', 'This API key has been revoked. Create a new key and use it instead.', {}, { 'WWW-Authenticate': 'Bearer' });
    return this.use(found);
  }

  private use(found: KeyLookup): Principal {
    this.pendingUses.set(found.keyId, this.opts.now ? this.opts.now() : new Date());
    return { keyId: found.keyId, accountId: found.accountId };
  }

  /** Write the batched last-use times. */
  async flush(): Promise<void> {
    if (this.pendingUses.size === 0) return;
    const uses = this.pendingUses;
    this.pendingUses = new Map();
    await touchApiKeys(this.db, uses);
  }

  async close(): Promise<void> {
    if (this.flushTimer) clearInterval(this.flushTimer);
    await this.flush().catch(() => undefined);
  }
}

const invalidKey = () => new Problem(401, 'invalid_api_key', 'The API key is not valid. Check that it was copied in full.', {}, { 'WWW-Authenticate': 'Bearer' });
