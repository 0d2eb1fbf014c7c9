/**
 * Turns a presented key into an account, on the hot path of every request.
 *
 * Lookups are cached in memory by digest (a NotifiedCache): a revocation reaches every process
 * through NOTIFY at commit (trigger api_keys_notify), which evicts the entry; nothing is cached
 * while the LISTEN connection is down, and entries expire after a minute as a backstop.
 * last_used_at is batched: at most one UPDATE per flush interval for all keys used meanwhile.
 */
import type { Db } from '../db/pool.ts';
import type { Notifications } from '../db/notifications.ts';
import { NotifiedCache } from '../db/notified-cache.ts';
import { unauthorized } from '../core/problem.ts';
import { findKeyByHash, hashKey, hashKeyHex, looksLikeKey, touchApiKeys, type KeyLookup } from './api-keys.ts';

export interface Principal {
  keyId: string;
  accountId: string;
}

export class Authenticator {
  private readonly cache: NotifiedCache<KeyLookup>;
  /** Key id → last use in epoch ms: a number per request, the Dates are made once per flush. */
  private pendingUses = new Map<string, number>();
  private readonly flushTimer: NodeJS.Timeout;

  constructor(
    private readonly db: Db,
    notifications: Notifications | null,
    private readonly opts: { flushIntervalMs?: number; now?: () => Date } = {},
  ) {
    this.cache = new NotifiedCache({ notifications, channel: 'shotgen_api_keys', maxEntries: 50_000, maxAgeMs: 60_000 });
    this.flushTimer = setInterval(() => void this.flush().catch(() => undefined), opts.flushIntervalMs ?? 10_000);
    this.flushTimer.unref();
  }

  /**
   * The principal for a key this process has already seen and been told nothing about since, or
   * null: then call authenticate(). Synchronous, so the common case costs no promise.
   */
  cached(key: string): Principal | null {
    if (!looksLikeKey(key)) return null;
    const found = this.cache.get(hashKeyHex(key));
    return found ? this.use(found) : null;
  }

  async authenticate(key: string): Promise<Principal> {
    if (!looksLikeKey(key)) throw invalidKey();
    const hash = hashKey(key);
    const hex = hash.toString('hex');
    let found = this.cache.get(hex);
    if (!found) {
      const ticket = this.cache.ticket();
      const fromDb = await findKeyByHash(this.db, hash);
      if (!fromDb) throw invalidKey();
      found = fromDb;
      if (!found.revoked) this.cache.set(hex, found, ticket);
    }
    if (found.revoked) throw unauthorized('revoked_api_key', 'This API key has been revoked. Create a new key and use it instead.');
    return this.use(found);
  }

  /** This process revoked the key (digest in hex): refuse it from the next request on. */
  forget(hashHex: string): void {
    this.cache.invalidate(hashHex);
  }

  private use(found: KeyLookup): Principal {
    this.pendingUses.set(found.keyId, this.opts.now ? this.opts.now().getTime() : Date.now());
    return { keyId: found.keyId, accountId: found.accountId };
  }

  /** Write the batched last-use times. */
  async flush(): Promise<void> {
    if (this.pendingUses.size === 0) return;
    const uses = this.pendingUses;
    this.pendingUses = new Map();
    await touchApiKeys(this.db, new Map([...uses].map(([id, ms]) => [id, new Date(ms)])));
  }

  async close(): Promise<void> {
    clearInterval(this.flushTimer);
    await this.flush().catch(() => undefined);
  }
}

const invalidKey = () => unauthorized('invalid_api_key', 'The API key is not valid. Check that it was copied in full.');
