/**
 * API keys: `sk_live_` + 40 base62 characters from the CSPRNG (~238 bits). Only the SHA-256 digest
 * and a 12-character display prefix are stored; the secret exists once, in createApiKey's result.
 */
import { hash, randomBytes } from 'node:crypto';
import { newId } from '../core/ids.ts';
import type { Queryable } from '../db/pool.ts';

const KEY_PREFIX = 'sk_live_';
const SECRET_LENGTH = 40;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const DISPLAY_PREFIX_LENGTH = 12;

/** Uniform base62: bytes >= 248 are rejected so that `% 62` has no bias. */
export function generateSecret(length = SECRET_LENGTH): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248 && out.length < length) out += BASE62[b % 62];
    }
  }
  return KEY_PREFIX + out;
}

// One-shot crypto.hash: a createHash() object per request cost a tenth of GET /account's JS time.
export const hashKey = (key: string): Buffer => hash('sha256', key, 'buffer');
/** The digest in hex, the caches' key: hashed straight to hex, without a Buffer in between. */
export const hashKeyHex = (key: string): string => hash('sha256', key, 'hex');

/** Cheap shape check before hashing: anything else cannot be one of our keys. */
export const looksLikeKey = (key: string): boolean =>
  key.length === KEY_PREFIX.length + SECRET_LENGTH && key.startsWith(KEY_PREFIX) && /^[0-9A-Za-z]+$/.test(key.slice(KEY_PREFIX.length));

export interface ApiKeyInfo {
  id: string;
  accountId: string;
  name: string | null;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

interface KeyRow {
  id: string;
  account_id: string;
  name: string | null;
  prefix: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const toInfo = (r: KeyRow): ApiKeyInfo => ({
  id: r.id,
  accountId: r.account_id,
  name: r.name,
  prefix: r.prefix,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  revokedAt: r.revoked_at,
});

const COLUMNS = 'id, account_id, name, prefix, created_at, last_used_at, revoked_at';

export async function createApiKey(db: Queryable, accountId: string, name: string | null = null): Promise<ApiKeyInfo & { key: string }> {
  const key = generateSecret();
  const { rows } = await db.query<KeyRow>(
    `INSERT INTO api_keys (id, account_id, name, prefix, key_hash) VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
    [newId('key'), accountId, name, key.slice(0, DISPLAY_PREFIX_LENGTH), hashKey(key)],
  );
  return { ...toInfo(rows[0]), key };
}

export async function listApiKeys(db: Queryable, accountId: string): Promise<ApiKeyInfo[]> {
  const { rows } = await db.query<KeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE account_id = $1 ORDER BY created_at, id`, [accountId]);
  return rows.map(toInfo);
}

type RevokedKey = ApiKeyInfo & { hashHex: string };

/**
 * The one revocation: `account` scopes it to that account's keys (the statement then names the
 * account, so another account's key is never touched); 'any-account' is the operator's. Revoking
 * twice keeps the first revocation time.
 */
async function revoke(db: Queryable, keyId: string, scope: { account: string } | 'any-account'): Promise<RevokedKey | null> {
  const scoped = scope !== 'any-account';
  const { rows } = await db.query<KeyRow & { hash_hex: string }>(
    `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now()) WHERE id = $1${scoped ? ' AND account_id = $2' : ''}
     RETURNING ${COLUMNS}, encode(key_hash, 'hex') AS hash_hex`,
    scoped ? [keyId, scope.account] : [keyId],
  );
  return rows[0] ? { ...toInfo(rows[0]), hashHex: rows[0].hash_hex } : null;
}

/**
 * Revoke one of this account's keys (the dashboard's path). Another account's key is as unknown as
 * a missing one: null, and nothing changes. The key's digest (hex) comes back too, so that this
 * process can forget the key at once instead of waiting for its own NOTIFY to come back
 * (Authenticator.forget).
 */
export const revokeApiKey = (db: Queryable, accountId: string, keyId: string): Promise<RevokedKey | null> =>
  revoke(db, keyId, { account: accountId });

/** The operator's path (`shotgen keys revoke`): any account's key, by id alone. */
export async function revokeApiKeyAsOperator(db: Queryable, keyId: string): Promise<ApiKeyInfo | null> {
  const revoked = await revoke(db, keyId, 'any-account');
  if (!revoked) return null;
  // What the operator sees: the key's digest stays inside the service.
  const { hashHex: _digest, ...info } = revoked;
  return info;
}

export interface KeyLookup {
  keyId: string;
  accountId: string;
  revoked: boolean;
}

export async function findKeyByHash(db: Queryable, hash: Buffer): Promise<KeyLookup | null> {
  const { rows } = await db.query<{ id: string; account_id: string; revoked: boolean }>({
    name: 'find-key-by-hash',
    text: 'SELECT id, account_id, revoked_at IS NOT NULL AS revoked FROM api_keys WHERE key_hash = $1',
    values: [hash],
  });
  return rows[0] ? { keyId: rows[0].id, accountId: rows[0].account_id, revoked: rows[0].revoked } : null;
}

/** One statement for a batch of last-use times (see Authenticator: no write per request). */
export async function touchApiKeys(db: Queryable, uses: Map<string, Date>): Promise<void> {
  if (uses.size === 0) return;
  await db.query(
    `UPDATE api_keys k SET last_used_at = GREATEST(k.last_used_at, u.at)
     FROM unnest($1::text[], $2::timestamptz[]) AS u(id, at) WHERE k.id = u.id`,
    [[...uses.keys()], [...uses.values()]],
  );
}
