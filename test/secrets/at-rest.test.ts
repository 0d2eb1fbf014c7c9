/**
 * Webhook signing secrets and the generated URL-signing secret at rest: sealed where a key is
 * configured, migrated from clear at start, and still usable where none is (DATABASE_URL without
 * SECRETS_KEY), as they were before sealing.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSigningSecret } from '../../src/sets/signed-urls.ts';
import { isSealed, Keyring } from '../../src/secrets/envelope.ts';
import { KEY_FILE } from '../../src/secrets/keys.ts';
import { openSecrets } from '../../src/secrets/startup.ts';
import { createEndpoint, listEndpoints, openEndpointSecret } from '../../src/webhooks/endpoints.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { accountWithKey } from '../support/fixtures.ts';

const OPEN = { allowHttp: true, allowPrivate: true };
const URL = 'http://127.0.0.1:9/hooks';

let t: TestDatabase;
let accountId: string;
let dataDir: string;
beforeEach(async () => {
  t = await createTestDatabase();
  accountId = (await accountWithKey(t.pool)).account.id;
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotgen-secrets-'));
});
afterEach(async () => {
  await t.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const stored = async (id: string) =>
  (await t.pool.query<{ secret: string }>('SELECT secret FROM webhook_endpoints WHERE id = $1', [id])).rows[0].secret;
const storedSigning = async () =>
  (await t.pool.query<{ value: string }>(`SELECT value FROM service_secrets WHERE name = 'url_signing'`)).rows[0].value;

describe('webhook and URL-signing secrets at rest', () => {
  it('without a key (DATABASE_URL, no SECRETS_KEY) both work as before, in clear, and a warning says how to seal them', async () => {
    const warnings: string[] = [];
    const log = { info: () => undefined, warn: (_: object, msg: string) => warnings.push(msg) };
    const settings = { databaseUrl: t.url, dataDir, secretsKey: null, secretsKeyPrevious: [] };
    const keyring = await openSecrets(settings, t.pool, log);
    expect(keyring).toBeNull();
    expect(warnings.join()).toMatch(/SECRETS_KEY/);
    const created = await createEndpoint(t.pool, accountId, { url: URL }, OPEN, keyring);
    expect(await stored(created.id)).toBe(created.secret);
    expect(openEndpointSecret(null, created.id, await stored(created.id))).toBe(created.secret);
    const signing = await loadSigningSecret(t.pool, null, null);
    expect(await storedSigning()).toBe(signing);
    // No key file appears where other processes would not share it.
    expect(fs.existsSync(path.join(dataDir, KEY_FILE))).toBe(false);
  });

  it('the first start with a key seals what was kept in clear, losing no endpoint; later starts change nothing', async () => {
    const old = await createEndpoint(t.pool, accountId, { url: URL }, OPEN, null);
    const signing = await loadSigningSecret(t.pool, null, null);
    // The embedded default: a key generated into DATA_DIR.
    const settings = { databaseUrl: null, dataDir, secretsKey: null, secretsKeyPrevious: [] };
    const keyring = (await openSecrets(settings, t.pool))!;
    expect(fs.statSync(path.join(dataDir, KEY_FILE)).mode & 0o777).toBe(0o600);
    expect(isSealed(await stored(old.id))).toBe(true);
    expect(isSealed(await storedSigning())).toBe(true);
    expect((await listEndpoints(t.pool, accountId)).map((e) => e.id)).toEqual([old.id]);
    expect(openEndpointSecret(keyring, old.id, await stored(old.id))).toBe(old.secret);
    expect(await loadSigningSecret(t.pool, null, keyring)).toBe(signing);

    const before = await stored(old.id);
    await openSecrets(settings, t.pool);
    expect(await stored(old.id)).toBe(before);
  });

  it('seals new secrets at once; a sealed value never opens under another row, and a process without the key says what to set', async () => {
    const keyring = new Keyring(randomBytes(32));
    const a = await createEndpoint(t.pool, accountId, { url: URL }, OPEN, keyring);
    const b = await createEndpoint(t.pool, accountId, { url: URL }, OPEN, keyring);
    expect(isSealed(await stored(a.id))).toBe(true);
    expect(await stored(a.id)).not.toContain(a.secret.slice('whsec_'.length));
    expect(openEndpointSecret(keyring, a.id, await stored(a.id))).toBe(a.secret);
    const sealedA = await stored(a.id);
    expect(() => openEndpointSecret(keyring, b.id, sealedA)).toThrow(/authenticate/);
    expect(() => openEndpointSecret(null, a.id, sealedA)).toThrow(/SECRETS_KEY/);
    await loadSigningSecret(t.pool, null, keyring);
    await expect(loadSigningSecret(t.pool, null, null)).rejects.toThrow(/SECRETS_KEY/);
  });
});
