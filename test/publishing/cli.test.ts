import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { FileObjectStore } from '../../src/objects/filesystem.ts';
import { startFakeAppStoreConnect, type FakeAppStoreConnectServer } from '../../src/fake-stores/app-store-connect.ts';
import { generateAppStoreKey } from '../../src/fake-stores/keys.ts';
import { startService, type Service } from '../../src/service.ts';
import { shotgen } from '../cli/helpers.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { accountWithKey } from '../support/fixtures.ts';
import { md5, png } from '../fake-stores/helpers.ts';
import { ASC_APP, succeededJob } from './support.ts';
import { scaled } from '../support/timing.ts';

describe('shotgen connect, shotgen publish and shotgen secrets rotate against a running server', () => {
  let t: TestDatabase;
  let service: Service;
  let asc: FakeAppStoreConnectServer;
  let dataDir: string;
  let secretsKey: string;
  beforeEach(async () => {
    secretsKey = randomBytes(32).toString('base64');
    t = await createTestDatabase();
    asc = await startFakeAppStoreConnect();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotgen-publish-cli-'));
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      DATABASE_URL: t.url,
      SECRETS_KEY: secretsKey,
      APP_STORE_CONNECT_URL: asc.url,
    });
    // The whole serve path: API, pg-boss tasks and their workers in one process.
    service = await startService(config, {
      role: 'all',
      database: { pool: t.pool, url: t.url, embedded: null, close: async () => undefined },
    });
  });
  afterEach(async () => {
    await service.close();
    await asc.close();
    await t.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'connect reads the key file and takes the upload path; publish --yes shows the plan, applies it through the tasks and prints the published publication',
    { timeout: scaled(120_000) },
    async () => {
      const { account, key } = await accountWithKey(t.pool);
      const storeKey = generateAppStoreKey();
      asc.addKey(storeKey.issuerId, storeKey.keyId, storeKey.publicKeyPem);
      asc.addApp({ appId: ASC_APP, locales: ['en-US'] });
      const base = `${service.address}/api/v1`;
      const env = { DATA_DIR: dataDir, SHOTGEN_URL: base, SHOTGEN_API_KEY: key };
      // shotgen connect reads the key from its file; the answer shows no secret, and says the upload path.
      const p8 = path.join(dataDir, `AuthKey_${storeKey.keyId}.p8`);
      fs.writeFileSync(p8, storeKey.privateKeyPem);
      const keyArgs = ['connect', 'app-store', '--issuer-id', storeKey.issuerId, '--key-id', storeKey.keyId, '--private-key', p8];
      const library = await shotgen([...keyArgs, '--app-store-upload', 'asset-library', '--json'], env);
      expect(library.code, library.stderr).toBe(0);
      expect(JSON.parse(library.stdout)).toMatchObject({ store: 'app-store', keyId: storeKey.keyId, appStoreUpload: 'asset-library' });
      const odd = await shotgen([...keyArgs, '--app-store-upload', 'ftp'], env);
      expect(odd.code).toBe(2);
      expect(odd.stderr).toMatch(/screenshot-sets, asset-library/);
      const connected = await shotgen([...keyArgs, '--json'], env);
      expect(connected.code, connected.stderr).toBe(0);
      expect(JSON.parse(connected.stdout)).toMatchObject({ appStoreUpload: 'screenshot-sets' });
      for (const out of [library, connected]) expect(out.stdout + out.stderr).not.toContain(storeKey.privateKeyPem.split('\n')[1]);
      const sc = JSON.parse(connected.stdout).id as string;
      const objects = new FileObjectStore(path.join(dataDir, 'objects'));
      const jobId = await succeededJob({ h: { t: { pool: t.pool }, services: { objects }, account } } as never, {
        device: 'iphone-69',
        seeds: [1, 2, 3],
      });
      const r = await shotgen(['publish', jobId, '--connection', sc, '--yes', '--json'], env);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ status: 'published', plan: { upload: 3, keep: 0 } });
      expect(asc.screenshots(ASC_APP, 'en-US', 'APP_IPHONE_67').map((s) => s.sourceFileChecksum)).toEqual(
        await Promise.all([1, 2, 3].map(async (s) => md5(await png(s)))),
      );

      // A custom product page: made on approval, the product page untouched; a treatment needs its test.
      const page = await shotgen(['publish', jobId, '--connection', sc, '--custom-page', 'Students', '--yes', '--json'], env);
      expect(page.code, page.stderr).toBe(0);
      expect(JSON.parse(page.stdout)).toMatchObject({ status: 'published', target: { kind: 'custom-product-page', name: 'Students' } });
      expect(asc.customProductPages(ASC_APP).map((x) => x.name)).toEqual(['Students']);
      const half = await shotgen(['publish', jobId, '--connection', sc, '--treatment', 'B'], env);
      expect(half.code).toBe(2);
      expect(half.stderr).toMatch(/--treatment and --experiment go together/);

      // Without --yes and without a terminal to ask on, nothing is approved.
      const declined = await shotgen(['publish', jobId, '--connection', sc], env);
      expect(declined.code).toBe(2);
      expect(declined.stderr).toMatch(/pass --yes/);

      // Rotation: the new key in SECRETS_KEY, the old one in SECRETS_KEY_PREVIOUS; then the old one is not needed.
      const next = randomBytes(32).toString('base64');
      const rotate = (env: Record<string, string>) =>
        shotgen(['secrets', 'rotate', '--json'], { DATA_DIR: dataDir, DATABASE_URL: t.url, ...env });
      const rotated = await rotate({ SECRETS_KEY: next, SECRETS_KEY_PREVIOUS: secretsKey });
      expect(rotated.code, rotated.stderr).toBe(0);
      // The two connections and the URL-signing secret the server generated (sealed at its start).
      expect(JSON.parse(rotated.stdout)).toMatchObject({ rewrapped: 3, unchanged: 0, sealed: 0 });
      expect((await rotate({ SECRETS_KEY: next })).code).toBe(0);
      const lost = await rotate({ SECRETS_KEY: randomBytes(32).toString('base64') });
      expect(lost.code).not.toBe(0);
      expect(lost.stderr).toMatch(/not configured/);
    },
  );
});
