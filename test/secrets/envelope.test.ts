import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Keyring, SecretError } from '../../src/secrets/envelope.ts';
import { decodeKey, KEY_FILE, loadKeyring, replaceGeneratedKey, requireKeyring } from '../../src/secrets/keys.ts';

const dirs: string[] = [];
const tmpDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'shotgen-secrets-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('envelope encryption', () => {
  const secret = '-----BEGIN PRIVATE KEY-----\nMIGTAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBHkwdwIBAQQg\n-----END PRIVATE KEY-----';

  it('seals with a fresh data key each time and opens only in its own context', () => {
    const ring = new Keyring(randomBytes(32));
    const a = ring.seal(secret, 'store_connections:sc_1');
    const b = ring.seal(secret, 'store_connections:sc_1');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v1\.[0-9a-f]{12}\./);
    expect(a).not.toContain('PRIVATE');
    expect(ring.open(a, 'store_connections:sc_1')).toBe(secret);
    expect(() => ring.open(a, 'store_connections:sc_2')).toThrow(SecretError);
  });

  it('refuses a tampered value and an unknown key', () => {
    const ring = new Keyring(randomBytes(32));
    const sealed = ring.seal('hello', 'c');
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3], 'base64url');
    body[body.length - 1] ^= 1;
    parts[3] = body.toString('base64url');
    expect(() => ring.open(parts.join('.'), 'c')).toThrow(/does not authenticate/);
    expect(() => new Keyring(randomBytes(32)).open(sealed, 'c')).toThrow(/not configured/);
  });

  it('re-wraps under the current key, keeping the ciphertext, and the old key is then not needed', () => {
    const oldKey = randomBytes(32);
    const sealed = new Keyring(oldKey).seal('s3cret', 'ctx');
    const rotated = new Keyring(randomBytes(32), [oldKey]);
    const rewrapped = rotated.rewrap(sealed, 'ctx');
    expect(rewrapped.split('.')[3]).toBe(sealed.split('.')[3]);
    expect(Keyring.keyIdOfSealed(rewrapped)).toBe(rotated.currentId);
    expect(rotated.open(rewrapped, 'ctx')).toBe('s3cret');
    expect(rotated.rewrap(rewrapped, 'ctx')).toBe(rewrapped);
  });
});

describe('master keys', () => {
  it('decodes only 32-byte base64 keys', () => {
    expect(decodeKey(randomBytes(32).toString('base64'))).toHaveLength(32);
    expect(decodeKey(randomBytes(32).toString('base64url'))).toHaveLength(32);
    expect(decodeKey(randomBytes(16).toString('base64'))).toBeNull();
    expect(decodeKey('not a key!')).toBeNull();
  });

  it('generates the embedded key once, mode 0600, and reuses it', () => {
    const dataDir = tmpDir();
    const first = loadKeyring({ databaseUrl: null, dataDir, secretsKey: null, secretsKeyPrevious: [] })!;
    const again = loadKeyring({ databaseUrl: null, dataDir, secretsKey: null, secretsKeyPrevious: [] })!;
    expect(again.currentId).toBe(first.currentId);
    expect(fs.statSync(path.join(dataDir, KEY_FILE)).mode & 0o777).toBe(0o600);
    expect(again.open(first.seal('x', 'c'), 'c')).toBe('x');
  });

  it('with DATABASE_URL and no SECRETS_KEY there is no keyring, and storing a secret says what to set', () => {
    const ring = loadKeyring({ databaseUrl: 'postgres://db/x', dataDir: tmpDir(), secretsKey: null, secretsKeyPrevious: [] });
    expect(ring).toBeNull();
    expect(() => requireKeyring(ring)).toThrow(/SECRETS_KEY/);
  });

  it('a replaced embedded key still opens what the old one sealed', () => {
    const dataDir = tmpDir();
    const settings = { databaseUrl: null, dataDir, secretsKey: null, secretsKeyPrevious: [] };
    const sealed = loadKeyring(settings)!.seal('old', 'c');
    const next = replaceGeneratedKey(dataDir);
    const reloaded = loadKeyring(settings)!;
    expect(reloaded.currentId).toBe(next.currentId);
    expect(reloaded.open(sealed, 'c')).toBe('old');
    expect(Keyring.keyIdOfSealed(reloaded.rewrap(sealed, 'c'))).toBe(next.currentId);
  });
});
