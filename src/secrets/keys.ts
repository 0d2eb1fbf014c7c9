/**
 * Where the master key comes from: SECRETS_KEY (32 bytes, base64) with an external database; on
 * the embedded default (no DATABASE_URL) a key generated once into DATA_DIR/secrets.key, mode
 * 0600, so a local install works with nothing to set. With DATABASE_URL and no SECRETS_KEY there
 * is no keyring: a key next to one process's files would not be shared by the others, so storing
 * a secret is refused instead (see requireKeyring).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Problem } from '../core/problem.ts';
import { Keyring } from './envelope.ts';

export interface SecretsSettings {
  databaseUrl: string | null;
  dataDir: string;
  secretsKey: Buffer | null;
  secretsKeyPrevious: Buffer[];
}

export const KEY_FILE = 'secrets.key';
/** Older generated keys, one base64 key a line, kept so rows not yet re-wrapped still open. */
export const PREVIOUS_FILE = 'secrets.key.previous';

/** Decodes a base64 master key; null when it is not exactly 32 bytes. */
export function decodeKey(raw: string): Buffer | null {
  const s = raw.trim();
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(s)) return null;
  const key = Buffer.from(s, s.includes('-') || s.includes('_') ? 'base64url' : 'base64');
  return key.length === 32 ? key : null;
}

function readPrevious(dataDir: string): Buffer[] {
  const file = path.join(dataDir, PREVIOUS_FILE);
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => decodeKey(l))
    .filter((k): k is Buffer => k !== null);
}

/** Reads DATA_DIR/secrets.key, creating it (0600, exclusively, so two processes agree) when absent. */
export function generatedKey(dataDir: string): Buffer {
  const file = path.join(dataDir, KEY_FILE);
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  const key = decodeKey(fs.readFileSync(file, 'utf8'));
  if (!key) throw new Error(`${file} does not hold a base64 32-byte key`);
  return key;
}

export function loadKeyring(s: SecretsSettings): Keyring | null {
  if (s.secretsKey) return new Keyring(s.secretsKey, s.secretsKeyPrevious);
  if (s.databaseUrl !== null) return null;
  return new Keyring(generatedKey(s.dataDir), [...s.secretsKeyPrevious, ...readPrevious(s.dataDir)]);
}

export function requireKeyring(keyring: Keyring | null): Keyring {
  if (keyring) return keyring;
  throw new Problem(
    'secrets_key_missing',
    'This server keeps no secrets yet: with DATABASE_URL set, the operator must set SECRETS_KEY to 32 random bytes in base64 (e.g. `openssl rand -base64 32`), the same on every process.',
  );
}

/**
 * Embedded default only: makes a new DATA_DIR/secrets.key, keeping the old one in
 * secrets.key.previous first, so that a crash at any point leaves every row openable.
 */
export function replaceGeneratedKey(dataDir: string): Keyring {
  const old = generatedKey(dataDir);
  fs.appendFileSync(path.join(dataDir, PREVIOUS_FILE), `${old.toString('base64')}\n`, { mode: 0o600 });
  const next = randomBytes(32);
  const tmp = path.join(dataDir, `${KEY_FILE}.${process.pid}.tmp`);
  fs.writeFileSync(tmp, `${next.toString('base64')}\n`, { mode: 0o600 });
  fs.renameSync(tmp, path.join(dataDir, KEY_FILE));
  return new Keyring(next, [old, ...readPrevious(dataDir)]);
}
