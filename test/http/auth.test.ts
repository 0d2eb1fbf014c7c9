import { describe, expect } from 'vitest';
import { createApiKey, revokeApiKey } from '../../src/accounts/api-keys.ts';
import { expectProblem } from '../support/app.ts';
import { it } from '../support/context.ts';

const ACCOUNT = '/api/v1/public/v1/account';

describe('authentication', () => {
  it('accepts Bearer (any case) and x-api-key', async ({ api: h }) => {
    const accepted = [
      { authorization: `Bearer ${h.key}` },
      { authorization: `bEaReR ${h.key}` },
      { 'x-api-key': h.key },
      { authorization: `Bearer ${h.key}`, 'x-api-key': h.key },
      // An empty header is no header; a proxy's Basic credentials do not hide x-api-key.
      { authorization: `Bearer ${h.key}`, 'x-api-key': '' },
      { authorization: 'Basic dXNlcjpwYXNz', 'x-api-key': h.key },
    ];
    for (const headers of accepted) {
      const res = await h.app.inject({ method: 'GET', url: ACCOUNT, headers });
      expect(res.statusCode).toBe(200);
      expect(res.json().id).toBe(h.account.id);
    }
  });

  it('401 missing_api_key names both headers, with WWW-Authenticate', async ({ api: h }) => {
    const res = await h.app.inject({ method: 'GET', url: ACCOUNT });
    const body = expectProblem(res, 401, 'missing_api_key');
    expect(body.detail).toContain('Authorization: Bearer');
    expect(body.detail).toContain('x-api-key');
    expect(res.headers['www-authenticate']).toBe('Bearer');
  });

  it('401 invalid_api_key for unknown, malformed and non-Bearer credentials', async ({ api: h }) => {
    const forged = `sk_live_${'A'.repeat(40)}`;
    for (const headers of [
      { 'x-api-key': forged },
      { 'x-api-key': 'hello' },
      { authorization: `Basic ${h.key}` },
      { authorization: 'Bearer' },
    ]) {
      const res = await h.app.inject({ method: 'GET', url: ACCOUNT, headers });
      expectProblem(res, 401, 'invalid_api_key');
      expect(res.headers['www-authenticate']).toBe('Bearer');
    }
  });

  it('401 ambiguous_credentials when both headers carry different keys', async ({ api: h }) => {
    const other = await createApiKey(h.t.pool, h.account.id);
    const res = await h.app.inject({ method: 'GET', url: ACCOUNT, headers: { authorization: `Bearer ${h.key}`, 'x-api-key': other.key } });
    expectProblem(res, 401, 'ambiguous_credentials');
  });

  it('401 revoked_api_key on the very next request after a revoke, even when cached', async ({ api: h }) => {
    expect((await h.app.inject({ method: 'GET', url: ACCOUNT, headers: h.auth })).statusCode).toBe(200);
    // This server's LISTEN connection hands the NOTIFY to the authenticator before this
    // subscriber (subscribers run in order), so once it fires the cache has been told.
    const delivered = new Promise<void>((resolve) => h.notifications.subscribe('shotgen_api_keys', { onNotify: () => resolve() }));
    await revokeApiKey(h.t.pool, h.account.id, h.keyId);
    await delivered;
    expectProblem(await h.app.inject({ method: 'GET', url: ACCOUNT, headers: h.auth }), 401, 'revoked_api_key');
  });

  it('authenticates before reading the body: no key and a broken body is still 401', async ({ api: h }) => {
    for (const payload of ['{not json', JSON.stringify({ appId: 'app_x', device: 'nope', extra: 1 })]) {
      const res = await h.app.inject({
        method: 'POST',
        url: '/api/v1/public/v1/screenshots',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expectProblem(res, 401, 'missing_api_key');
    }
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/v1/public/v1/screenshots',
      headers: { 'content-type': 'text/plain' },
      payload: 'x',
    });
    expectProblem(res, 401, 'missing_api_key');
  });

  it('never writes last_used_at per request, but flushes it in a batch', async ({ api: h }) => {
    for (let i = 0; i < 5; i++) await h.app.inject({ method: 'GET', url: ACCOUNT, headers: h.auth });
    const before = await h.t.pool.query('SELECT last_used_at FROM api_keys WHERE id = $1', [h.keyId]);
    expect(before.rows[0].last_used_at).toBeNull();
    await h.authenticator.flush();
    const after = await h.t.pool.query('SELECT last_used_at FROM api_keys WHERE id = $1', [h.keyId]);
    expect(after.rows[0].last_used_at).toBeInstanceOf(Date);
  });
});
