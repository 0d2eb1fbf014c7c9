import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { startService, type Service } from '../../src/service.ts';
import type { TestApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { createDashboardApp, csrfOf, expectSecurityHeaders, PageClient } from '../support/dashboard.ts';
import { insertApp } from '../support/fixtures.ts';
import { enqueueJobs } from '../support/jobs.ts';

const PASSWORD = 'correct horse battery';

describe('dashboard security', () => {
  let h: TestApp;
  afterEach(async () => h?.close());

  async function ownerWithData() {
    const a = await new PageClient(h.app).signUp('first@example.com');
    const accountId = (await h.t.pool.query(`SELECT account_id FROM users WHERE email = 'first@example.com'`)).rows[0].account_id as string;
    const appId = await insertApp(h.t.pool, accountId);
    const [jobId] = await enqueueJobs(h.t.pool, accountId, appId, 1);
    await a.get('/keys');
    await a.post('/keys', { name: 'ci' });
    const keyId = (await h.t.pool.query('SELECT id FROM api_keys WHERE account_id = $1', [accountId])).rows[0].id as string;
    return { a, accountId, appId, jobId, keyId };
  }

  it('every page, error pages included, carries the CSP and the other security headers', async () => {
    h = await createDashboardApp();
    const anon = new PageClient(h.app);
    for (const path of ['/sign-in', '/sign-up', '/', '/keys', '/assets/dashboard.css', '/assets/dashboard.js', '/no-such-page'])
      expectSecurityHeaders(await anon.get(path));
    // An unknown page is an HTML 404; an unknown API path stays problem+json, without the cookies.
    const page404 = await anon.get('/no-such-page');
    expect(page404.statusCode).toBe(404);
    expect(page404.headers['content-type']).toMatch(/^text\/html/);
    const api404 = await h.app.inject({ url: '/api/v1/public/v1/nothing', headers: h.auth });
    expect(api404.statusCode).toBe(404);
    expect(api404.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(api404.headers['content-security-policy']).toBeUndefined();
    const { a, appId, jobId, keyId } = await ownerWithData();
    const pages = [
      '/keys',
      '/usage',
      '/apps',
      `/apps/${appId}`,
      `/sets/${jobId}`,
      `/sets/${jobId}/status`,
      `/keys/${keyId}/revoke`,
      '/apps/app_01JD2ZK5T8Q3W4E5R6T7Y8U9CD',
      '/sets/nope',
    ];
    for (const path of pages) {
      const res = await a.get(path);
      expectSecurityHeaders(res);
      expect(res.headers['cache-control']).toBe('no-store');
    }
    expectSecurityHeaders(await a.post('/keys', { _csrf: null, name: 'x' }));
    // No inline script or style anywhere: every script is a file from this origin.
    for (const path of ['/keys', `/sets/${jobId}`, '/apps']) {
      const body = (await a.get(path)).body;
      expect(body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(body).not.toMatch(/\sstyle=|\son[a-z]+=/i);
    }
  });

  it('refuses a form posted without its CSRF token, with a wrong one, or from another site, changing nothing', async () => {
    h = await createDashboardApp();
    const { a, accountId, keyId } = await ownerWithData();
    const count = async () =>
      (await h.t.pool.query('SELECT count(*)::int AS n FROM api_keys WHERE account_id = $1', [accountId])).rows[0].n as number;
    const before = await count();
    await a.get('/keys');
    expect((await a.post('/keys', { _csrf: null, name: 'no token' })).statusCode).toBe(403);
    await a.get('/keys');
    expect((await a.post('/keys', { _csrf: 'x'.repeat(43), name: 'wrong token' })).statusCode).toBe(403);
    await a.get('/keys');
    expect((await a.post('/keys', { name: 'cross-site' }, { 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);
    expect(await count()).toBe(before);
    expect((await a.post(`/keys/${keyId}/revoke`, { _csrf: null })).statusCode).toBe(403);
    expect((await h.t.pool.query('SELECT revoked_at FROM api_keys WHERE id = $1', [keyId])).rows[0].revoked_at).toBeNull();
    // Signing someone out is a state change too.
    await a.get('/keys');
    expect((await a.post('/sign-out', { _csrf: null })).statusCode).toBe(403);
    expect((await a.get('/keys')).statusCode).toBe(200);
    // Another user's token is not this session's token.
    const b = await new PageClient(h.app).signUp('other@example.com');
    await b.get('/keys');
    expect(
      (await a.post('/keys', { _csrf: (await b.get('/keys')).body.match(/name="_csrf" value="([^"]*)"/)![1], name: 'foreign token' }))
        .statusCode,
    ).toBe(403);
    // Signed out: the sign-in form's double-submit token must match its cookie.
    const anon = new PageClient(h.app);
    await anon.get('/sign-in');
    anon.cookies.delete('shotgen_csrf');
    expect((await anon.post('/sign-in', { email: 'first@example.com', password: PASSWORD })).statusCode).toBe(403);
    expect(await count()).toBe(before);
  });

  it('another account’s apps, sets and keys are 404, by GET and by POST, and cost nothing', async () => {
    h = await createDashboardApp();
    const { accountId, appId, jobId, keyId } = await ownerWithData();
    const b = await new PageClient(h.app).signUp('second@example.com');
    for (const path of [`/apps/${appId}`, `/sets/${jobId}`, `/sets/${jobId}/status`, `/keys/${keyId}/revoke`]) {
      const res = await b.get(path);
      expect(res.statusCode, path).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).not.toContain('Pantry Planner');
    }
    await b.get('/keys');
    expect((await b.post(`/keys/${keyId}/revoke`, {})).statusCode).toBe(404);
    await b.get('/apps');
    expect(
      (
        await b.post(`/apps/${appId}/sets`, {
          device: 'iphone-69',
          captionStyle: 'minimal',
          captionLength: 'short',
          narrativeId: '',
          count: '3',
          once: 'x',
        })
      ).statusCode,
    ).toBe(404);
    expect((await h.t.pool.query('SELECT revoked_at FROM api_keys WHERE id = $1', [keyId])).rows[0].revoked_at).toBeNull();
    expect((await h.t.pool.query('SELECT count(*)::int AS n FROM jobs')).rows[0].n).toBe(1);
    expect((await h.t.pool.query(`SELECT count(*)::int AS n FROM credit_ledger WHERE account_id <> $1`, [accountId])).rows[0].n).toBe(0);
  });

  it('refuses NUL and lone surrogates in any form field, query or path with a 400 page naming the field, changing nothing', async () => {
    h = await createDashboardApp();
    const { a, appId } = await ownerWithData();
    const keys = async () => (await h.t.pool.query<{ name: string | null }>('SELECT name FROM api_keys ORDER BY created_at')).rows;
    const before = await keys();
    const refused = (res: { statusCode: number; headers: Record<string, unknown>; body: string }, field: string) => {
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain(`The field “${field}” holds a character that cannot be saved`);
    };
    await a.get('/keys');
    refused(await a.post('/keys', { name: 'ci\u0000bot' }), 'name');
    // The dashboard also parses JSON bodies (its CSRF token travels in them), where a lone surrogate can be spelled.
    await a.get('/keys');
    const json = await h.app.inject({
      method: 'POST',
      url: '/keys',
      headers: { cookie: [...a.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'content-type': 'application/json' },
      payload: JSON.stringify({ _csrf: csrfOf(a.last!.body), name: 'ci\ud800bot' }),
    });
    refused(json, 'name');
    await a.get(`/apps/${appId}`);
    refused(await a.postFiles(`/apps/${appId}/screens`, { family: 'iphone\u0000' }, []), 'family');
    refused(await a.get('/sign-in?next=%2Fkeys%00'), 'next');
    refused(await a.get('/apps/app_%00'), 'id');
    expect(await keys()).toEqual(before);

    // An emoji is text like any other.
    await a.get('/keys');
    expect((await a.post('/keys', { name: 'ci 🍎' })).statusCode).toBe(201);
    expect((await keys()).map((k) => k.name)).toContain('ci 🍎');
  });

  it('throttles failed sign-ins per email: the 6th attempt in 15 minutes is refused even with the right password', async () => {
    h = await createDashboardApp();
    await new PageClient(h.app).signUp('target@example.com');
    const c = new PageClient(h.app);
    for (let i = 0; i < 5; i++) {
      await c.get('/sign-in');
      expect((await c.post('/sign-in', { email: 'target@example.com', password: `wrong password ${i}` })).statusCode).toBe(401);
    }
    await c.get('/sign-in');
    const refused = await c.post('/sign-in', { email: 'TARGET@example.com', password: PASSWORD });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(800);
    expect(refused.body).toContain('Too many failed sign-ins');
    expect(c.cookies.has('shotgen_session')).toBe(false);
    // Another email from the same address is not locked by this one.
    await new PageClient(h.app).signUp('bystander@example.com');
    await c.get('/sign-in');
    expect((await c.post('/sign-in', { email: 'bystander@example.com', password: PASSWORD })).statusCode).toBe(303);
  });

  it('throttles concurrent guesses exactly: 12 parallel wrong passwords, 5 are checked, 7 refused', async () => {
    h = await createDashboardApp();
    await new PageClient(h.app).signUp('race@example.com');
    const clients = await Promise.all(
      Array.from({ length: 12 }, async () => {
        const c = new PageClient(h.app);
        await c.get('/sign-in');
        return c;
      }),
    );
    const codes = await Promise.all(
      clients.map((c, i) => c.post('/sign-in', { email: 'race@example.com', password: `guess number ${i}` }).then((r) => r.statusCode)),
    );
    expect(codes.filter((s) => s === 401)).toHaveLength(5);
    expect(codes.filter((s) => s === 429)).toHaveLength(7);
  });

  it('throttles by address: 20 failures over many emails, then the address is refused', async () => {
    h = await createDashboardApp();
    const c = new PageClient(h.app);
    for (let i = 0; i < 20; i++) {
      await c.get('/sign-in');
      expect((await c.post('/sign-in', { email: `nobody${i}@example.com`, password: 'whatever password' })).statusCode).toBe(401);
    }
    await c.get('/sign-in');
    expect((await c.post('/sign-in', { email: 'fresh@example.com', password: 'whatever password' })).statusCode).toBe(429);
  });
});

describe('dashboard logs', () => {
  let t: TestDatabase;
  let service: Service;
  afterEach(async () => {
    await service?.close();
    await t?.drop();
  });

  it('never contain a password or a session token, at any level', async () => {
    t = await createTestDatabase();
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, cb) {
        lines.push(chunk.toString());
        cb();
      },
    });
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'trace' });
    service = await startService(config, {
      role: 'api',
      logger: createLogger(config, sink),
      database: { pool: t.pool, url: t.url, embedded: null, close: async () => undefined },
    });
    const c = new PageClient(service.server!);
    const secret = 'unmistakable-Passw0rd-xyzzy';
    await c.signUp('logged@example.com', secret);
    const token = c.cookies.get('shotgen_session')!;
    await c.post('/sign-out', {});
    await c.get('/sign-in');
    await c.post('/sign-in', { email: 'logged@example.com', password: `${secret}-wrong` });
    await c.get('/sign-in');
    await c.post('/sign-in', { email: 'logged@example.com', password: secret });
    await c.get('/keys');
    await c.post('/keys', { _csrf: null });
    service.server!.log.info(
      { password: secret, body: { password: secret }, headers: { cookie: `shotgen_session=${token}` } },
      'a careless debug line',
    );
    const all = lines.join('');
    expect(lines.length).toBeGreaterThan(10);
    expect(all).not.toContain('xyzzy');
    expect(all).not.toContain(token);
  });
});
