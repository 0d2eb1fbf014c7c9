import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/accounts/accounts.ts';
import {
  createApiKey,
  findKeyByHash,
  generateSecret,
  hashKey,
  listApiKeys,
  looksLikeKey,
  revokeApiKey,
  revokeApiKeyAsOperator,
  touchApiKeys,
} from '../../src/accounts/api-keys.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';

describe('key generation', () => {
  it('makes sk_live_ keys of 40 base62 characters, all different', () => {
    const keys = new Set(Array.from({ length: 2000 }, () => generateSecret()));
    expect(keys.size).toBe(2000);
    for (const k of keys) {
      expect(k).toMatch(/^sk_live_[0-9A-Za-z]{40}$/);
      expect(looksLikeKey(k)).toBe(true);
    }
  });

  it('uses the whole base62 alphabet roughly uniformly', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 500; i++) for (const ch of generateSecret().slice(8)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(62);
    const expected = (500 * 40) / 62;
    for (const n of counts.values()) expect(Math.abs(n - expected)).toBeLessThan(expected * 0.35);
  });

  it('hashes with SHA-256', () => {
    // The FIPS 180-2 test vector.
    expect(hashKey('abc').toString('hex')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashKey('sk_live_abc').equals(hashKey('sk_live_abd'))).toBe(false);
  });
});

describe('stored keys', () => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await createTestDatabase();
  });
  afterEach(async () => t.drop());

  it('stores only the digest and a 12-character prefix', async () => {
    const account = await createAccount(t.pool, { name: 'A' });
    const created = await createApiKey(t.pool, account.id, 'ci');
    expect(created.prefix).toBe(created.key.slice(0, 12));
    const { rows } = await t.pool.query('SELECT * FROM api_keys');
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(created.key);
    expect(stored).not.toContain(created.key.slice(12));
    expect(rows[0].key_hash.equals(hashKey(created.key))).toBe(true);
    expect(await findKeyByHash(t.pool, hashKey(created.key))).toEqual({ keyId: created.id, accountId: account.id, revoked: false });
  });

  it('lists keys by prefix only, and revokes once', async () => {
    const account = await createAccount(t.pool, { name: 'A' });
    const k = await createApiKey(t.pool, account.id);
    const listed = await listApiKeys(t.pool, account.id);
    expect(listed).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(k.key);
    const first = await revokeApiKey(t.pool, account.id, k.id);
    const second = await revokeApiKeyAsOperator(t.pool, k.id);
    expect(first?.revokedAt).toEqual(second?.revokedAt);
    // The account's path hands back the digest (to forget the key at once); the operator's does not.
    expect(first?.hashHex).toBe(hashKey(k.key).toString('hex'));
    expect(second).not.toHaveProperty('hashHex');
    expect(second).toEqual({
      id: k.id,
      accountId: account.id,
      name: null,
      prefix: k.prefix,
      createdAt: k.createdAt,
      lastUsedAt: null,
      revokedAt: first?.revokedAt,
    });
    expect(await revokeApiKey(t.pool, account.id, 'key_unknown')).toBeNull();
    expect(await revokeApiKeyAsOperator(t.pool, 'key_unknown')).toBeNull();
    expect((await findKeyByHash(t.pool, hashKey(k.key)))?.revoked).toBe(true);
  });

  it('revokes a key only for its own account', async () => {
    const owner = await createAccount(t.pool, { name: 'Owner' });
    const other = await createAccount(t.pool, { name: 'Other' });
    const k = await createApiKey(t.pool, owner.id);
    expect(await revokeApiKey(t.pool, other.id, k.id)).toBeNull();
    expect((await findKeyByHash(t.pool, hashKey(k.key)))?.revoked).toBe(false);
    expect((await revokeApiKey(t.pool, owner.id, k.id))?.revokedAt).toBeInstanceOf(Date);
    expect((await findKeyByHash(t.pool, hashKey(k.key)))?.revoked).toBe(true);
  });

  it('records last use in one batched statement, never moving backwards', async () => {
    const account = await createAccount(t.pool, { name: 'A' });
    const a = await createApiKey(t.pool, account.id);
    const b = await createApiKey(t.pool, account.id);
    await touchApiKeys(
      t.pool,
      new Map([
        [a.id, new Date('2026-11-02T00:00:00Z')],
        [b.id, new Date('2026-11-03T00:00:00Z')],
      ]),
    );
    await touchApiKeys(t.pool, new Map([[a.id, new Date('2026-11-01T00:00:00Z')]]));
    const keys = await listApiKeys(t.pool, account.id);
    expect(keys.find((k) => k.id === a.id)?.lastUsedAt?.toISOString()).toBe('2026-11-02T00:00:00.000Z');
    expect(keys.find((k) => k.id === b.id)?.lastUsedAt?.toISOString()).toBe('2026-11-03T00:00:00.000Z');
  });
});
