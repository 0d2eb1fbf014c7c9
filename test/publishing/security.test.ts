import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Keyring } from '../../src/secrets/envelope.ts';
import { rotateSecrets, sealClearSecrets } from '../../src/secrets/rotate.ts';
import { loadSigningSecret } from '../../src/sets/signed-urls.ts';
import { createEndpoint, openEndpointSecret } from '../../src/webhooks/endpoints.ts';
import { openConnection } from '../../src/publishing/connections.ts';
import { expectProblem } from '../support/app.ts';
import { accountWithKey } from '../support/fixtures.ts';
import { publishingHarness, succeededJob, type PublishingHarness } from './support.ts';

let p: PublishingHarness;
beforeEach(async () => {
  p = await publishingHarness();
});
afterEach(async () => p.close());

const ascBody = () => ({ store: 'app-store', issuerId: p.ascKey.issuerId, keyId: p.ascKey.keyId, privateKey: p.ascKey.privateKeyPem });
const keyBody = (pem: string) => pem.split('\n').filter((l) => l && !l.startsWith('-----'))[0];

describe('store connection secrets', () => {
  it('never answers a secret, and a database dump holds none in clear', async () => {
    const asc = await p.post('/store-connections', ascBody());
    const play = await p.post('/store-connections', { store: 'google-play', serviceAccount: p.serviceAccount });
    const list = await p.get('/store-connections');
    expect(list.json().storeConnections).toHaveLength(2);
    const answers = [asc.body, play.body, list.body].join('\n');
    expect(answers).not.toContain(keyBody(p.ascKey.privateKeyPem));
    expect(answers).not.toContain(keyBody(p.serviceAccount.private_key));
    expect(answers).not.toMatch(/PRIVATE KEY|private_key/);

    const dump = execFileSync('pg_dump', ['--data-only', p.h.t.url], { maxBuffer: 64 * 1024 * 1024 }).toString();
    expect(dump).toContain(asc.json().id);
    expect(dump).not.toContain(keyBody(p.ascKey.privateKeyPem));
    expect(dump).not.toContain(keyBody(p.serviceAccount.private_key));
    expect(dump).not.toContain('PRIVATE KEY');
  });

  it('holds no webhook signing secret or URL-signing secret in clear either, old ones sealed at start; rotation re-wraps them too', async () => {
    p.h.services.config.webhooks = { allowHttp: true, allowPrivate: true };
    const pool = p.h.t.pool;
    // As kept before sealing (and by a process with DATABASE_URL and no SECRETS_KEY): in clear.
    const old = await createEndpoint(pool, p.h.account.id, { url: 'http://127.0.0.1:9/old' }, { allowHttp: true, allowPrivate: true });
    const signing = await loadSigningSecret(pool, null, null);
    expect(await sealClearSecrets(pool, p.keyring)).toBe(2);
    const fresh = (await p.post('/webhooks', { url: 'http://127.0.0.1:9/new' })).json();
    await p.post('/store-connections', ascBody());

    const dump = execFileSync('pg_dump', ['--data-only', p.h.t.url], { maxBuffer: 64 * 1024 * 1024 }).toString();
    expect(dump).toContain(old.id);
    expect(dump).toContain(fresh.id);
    for (const secret of [old.secret, fresh.secret]) expect(dump).not.toContain(secret.slice('whsec_'.length));
    expect(dump).not.toContain('whsec_');
    expect(dump).not.toContain(signing);
    // Still the same secrets to whoever holds the key: no endpoint lost, no signed URL broken.
    expect(await loadSigningSecret(pool, null, p.keyring)).toBe(signing);
    const storedOf = async (id: string) => (await pool.query('SELECT secret FROM webhook_endpoints WHERE id = $1', [id])).rows[0].secret;
    expect(openEndpointSecret(p.keyring, old.id, await storedOf(old.id))).toBe(old.secret);

    const oldKey = (p.keyring as unknown as { current: Buffer }).current;
    const rotated = new Keyring(randomBytes(32), [oldKey]);
    expect(await rotateSecrets(pool, rotated)).toMatchObject({ rewrapped: 4, unchanged: 0, sealed: 0 });
    const onlyNew = new Keyring((rotated as unknown as { current: Buffer }).current);
    expect(openEndpointSecret(onlyNew, fresh.id, await storedOf(fresh.id))).toBe(fresh.secret);
    expect(await loadSigningSecret(pool, null, onlyNew)).toBe(signing);
  });

  it('rotation re-wraps every row under the new key, after which the old key is not needed', async () => {
    const id = (await p.post('/store-connections', ascBody())).json().id;
    const oldKey = (p.keyring as unknown as { current: Buffer }).current;
    const rotated = new Keyring(randomBytes(32), [oldKey]);
    // The URL-signing secret the test app generated without a key is in clear: rotation seals it.
    expect(await rotateSecrets(p.h.t.pool, rotated)).toMatchObject({ rewrapped: 1, unchanged: 0, sealed: 1 });
    expect(await rotateSecrets(p.h.t.pool, rotated)).toMatchObject({ rewrapped: 0, unchanged: 2, sealed: 0 });
    const onlyNew = new Keyring((rotated as unknown as { current: Buffer }).current);
    const opened = await openConnection(p.h.t.pool, onlyNew, p.h.account.id, id);
    expect(opened).toMatchObject({ store: 'app-store', creds: { privateKey: p.ascKey.privateKeyPem.trim() } });
  });

  it('refuses credentials the store rejects, storing nothing', async () => {
    p.asc.removeKey(p.ascKey.keyId);
    expectProblem(await p.post('/store-connections', ascBody()), 422, 'store_credentials_rejected');
    p.play.removeServiceAccount(p.serviceAccount.client_email);
    expectProblem(
      await p.post('/store-connections', { store: 'google-play', serviceAccount: p.serviceAccount }),
      422,
      'store_credentials_rejected',
    );
    expect((await p.get('/store-connections')).json().storeConnections).toEqual([]);
  });

  it('says what to set when the server has no secrets key, and checks the key file before calling the store', async () => {
    expectProblem(await p.post('/store-connections', { ...ascBody(), privateKey: 'not a key' }), 400, 'validation_failed');
    const bad = { ...p.serviceAccount, token_uri: 'http://169.254.169.254/token' };
    expectProblem(await p.post('/store-connections', { store: 'google-play', serviceAccount: bad }), 400, 'validation_failed');
    p.h.services.publishing!.keyring = null;
    const res = expectProblem(await p.post('/store-connections', ascBody()), 503, 'secrets_key_missing');
    expect(res.detail).toMatch(/SECRETS_KEY/);
    expect(p.asc.calls).toHaveLength(0);
  });

  it("another account's connection and publication are 404, and it cannot publish with them", async () => {
    const sc = (await p.post('/store-connections', ascBody())).json().id;
    const job = await succeededJob(p, { device: 'iphone-69', seeds: [1, 2] });
    const pub = (await p.post('/publications', { jobId: job, connectionId: sc })).json().id;
    const other = await accountWithKey(p.h.t.pool, 'free', 'Other');
    const auth = { authorization: `Bearer ${other.key}` };
    const json = { ...auth, 'content-type': 'application/json' };
    expectProblem(await p.get(`/publications/${pub}`, auth), 404, 'publication_not_found');
    expectProblem(await p.post(`/publications/${pub}/approve`, undefined, auth), 404, 'publication_not_found');
    expect((await p.get('/store-connections', auth)).json().storeConnections).toEqual([]);
    expectProblem(
      await p.h.app.inject({ method: 'DELETE', url: `/api/v1/public/v1/store-connections/${sc}`, headers: auth }),
      404,
      'store_connection_not_found',
    );
    const otherJob = await succeededJob(p, { device: 'iphone-69', seeds: [1], accountId: other.account.id });
    expectProblem(await p.post('/publications', { jobId: otherJob, connectionId: sc }, json), 404, 'store_connection_not_found');
    expectProblem(await p.post('/publications', { jobId: job, connectionId: sc }, json), 404, 'store_connection_not_found');
    // Still there for its owner.
    expect((await p.get(`/publications/${pub}`)).statusCode).toBe(200);
  });

  it('refuses a set for the other store, an unknown job, and answers 401 without a key', async () => {
    const sc = (await p.post('/store-connections', ascBody())).json().id;
    const android = await succeededJob(p, { device: 'android-phone', seeds: [1] });
    expectProblem(await p.post('/publications', { jobId: android, connectionId: sc }), 400, 'validation_failed');
    expectProblem(await p.post('/publications', { jobId: 'job_01JD2ZK5T8Q3W4E5R6T7Y8U9WH', connectionId: sc }), 404, 'job_not_found');
    expectProblem(await p.h.app.inject({ method: 'GET', url: '/api/v1/public/v1/store-connections' }), 401, 'missing_api_key');
  });

  it('refuses a set of an app made before launch (no store listing yet), saying how to add one', async () => {
    const sc = (await p.post('/store-connections', ascBody())).json().id;
    const job = await succeededJob(p, { device: 'iphone-69', seeds: [1] });
    const { rows } = await p.h.t.pool.query(
      `UPDATE apps SET own_listing = '{"name":"Fernly","subtitle":null,"description":"Plant care.","category":"Lifestyle","language":"en-US","price":"0"}',
         ios_listing = NULL, artwork_url = NULL WHERE id = (SELECT app_id FROM jobs WHERE id = $1) RETURNING id`,
      [job],
    );
    const problem = expectProblem(await p.post('/publications', { jobId: job, connectionId: sc }), 400, 'validation_failed');
    expect(problem.errors[0].field).toBe('jobId');
    expect(problem.errors[0].message).toContain(`PATCH /public/v1/apps/${rows[0].id} with iosUrl`);
    expect((await p.h.t.pool.query('SELECT count(*)::int AS n FROM publications')).rows[0].n).toBe(0);
  });
});
