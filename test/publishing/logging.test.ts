import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { startFakeAppStoreConnect, type FakeAppStoreConnectServer } from '../../src/fake-stores/app-store-connect.ts';
import { startFakeGooglePlay, type FakeGooglePlayServer } from '../../src/fake-stores/google-play.ts';
import { generateAppStoreKey, generateServiceAccount } from '../../src/fake-stores/keys.ts';
import { startService, type Service } from '../../src/service.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { accountWithKey } from '../support/fixtures.ts';

describe('store connection secrets in logs', () => {
  let t: TestDatabase;
  let service: Service;
  let asc: FakeAppStoreConnectServer;
  let play: FakeGooglePlayServer;
  let lines: string[];
  beforeEach(async () => {
    t = await createTestDatabase();
    asc = await startFakeAppStoreConnect();
    play = await startFakeGooglePlay();
    lines = [];
    const sink = new Writable({
      write(chunk, _enc, cb) {
        lines.push(chunk.toString());
        cb();
      },
    });
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'trace',
      DATABASE_URL: t.url,
      SECRETS_KEY: randomBytes(32).toString('base64'),
      APP_STORE_CONNECT_URL: asc.url,
      GOOGLE_PLAY_API_URL: play.url,
    });
    service = await startService(config, {
      role: 'api',
      logger: createLogger(config, sink),
      database: { pool: t.pool, url: t.url, embedded: null, close: async () => undefined },
    });
  });
  afterEach(async () => {
    await service.close();
    await asc.close();
    await play.close();
    await t.drop();
  });

  it('never carry a private key, whether the store accepts it or not, and the server runs publishing with SECRETS_KEY', async () => {
    const { key } = await accountWithKey(t.pool);
    const storeKey = generateAppStoreKey();
    const url = `${service.address}/api/v1/public/v1/store-connections`;
    const post = (body: unknown) =>
      fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const body = { store: 'app-store', issuerId: storeKey.issuerId, keyId: storeKey.keyId, privateKey: storeKey.privateKeyPem };
    expect((await post(body)).status).toBe(422);
    asc.addKey(storeKey.issuerId, storeKey.keyId, storeKey.publicKeyPem);
    const created = await post(body);
    expect(created.status).toBe(201);
    expect(await created.text()).not.toContain('PRIVATE KEY');
    expect((await post({ ...body, privateKey: storeKey.privateKeyPem.replace(/\n[^\n]+\n/, '\n') })).status).toBe(400);

    // A Google service-account key file: refused by the store, refused for its token_uri, refused
    // as malformed, then accepted.
    const sa = generateServiceAccount(play.tokenUri);
    expect((await post({ store: 'google-play', serviceAccount: sa.key })).status).toBe(422);
    expect((await post({ store: 'google-play', serviceAccount: { ...sa.key, token_uri: 'http://10.0.0.1/token' } })).status).toBe(400);
    expect(
      (await post({ store: 'google-play', serviceAccount: { ...sa.key, private_key: sa.key.private_key.slice(0, 200) } })).status,
    ).toBe(400);
    play.addServiceAccount(sa.key.client_email, sa.publicKeyPem);
    const playCreated = await post({ store: 'google-play', serviceAccount: sa.key });
    expect(playCreated.status).toBe(201);
    expect(await playCreated.text()).not.toContain('private_key');
    const list = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
    expect(await list.text()).not.toMatch(/PRIVATE KEY|private_key/);

    const logs = lines.join('');
    expect(logs).toContain('store-connections');
    const secretLine = storeKey.privateKeyPem.split('\n')[1];
    expect(logs).not.toContain(secretLine);
    // The service account's key, whole or any line of it, in a JSON string or not.
    for (const line of sa.key.private_key.split('\n').filter((l) => l && !l.startsWith('-----')))
      expect(logs).not.toContain(line.slice(0, 40));
    expect(logs).not.toContain('PRIVATE KEY');
  });
});
