import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEndpoint, listEndpoints } from '../../src/webhooks/endpoints.ts';
import type { TestApp } from '../support/app.ts';
import { createDashboardApp, csrfOf, expectSecurityHeaders, PageClient } from '../support/dashboard.ts';

const API = '/api/v1/public/v1';

describe('the dashboard’s webhooks page', () => {
  let h: TestApp;
  let c: PageClient;
  let accountId: string;
  beforeEach(async () => {
    h = await createDashboardApp();
    c = await new PageClient(h.app).signUp('owner@example.com');
    accountId = (await h.t.pool.query(`SELECT account_id FROM users`)).rows[0].account_id;
  });
  afterEach(async () => h.close());

  it('adds an endpoint with its secret shown once, lists it, deletes it after a confirmation', async () => {
    const empty = await c.get('/webhooks');
    expect(empty.statusCode).toBe(200);
    expectSecurityHeaders(empty);
    expect(empty.body).toContain('No endpoints yet.');
    expect(empty.body).toContain('href="/webhooks" aria-current="page"');

    const created = await c.post('/webhooks', { url: 'https://example.com/hooks?a=1&b=<2>', events: 'job.failed' });
    expect(created.statusCode).toBe(201);
    expect(created.headers['cache-control']).toBe('no-store');
    const secret = /value="(whsec_[^"]+)"/.exec(created.body)![1];
    const [endpoint] = await listEndpoints(h.t.pool, accountId);
    expect(endpoint).toMatchObject({ url: 'https://example.com/hooks?a=1&b=<2>', events: ['job.failed'] });
    expect(created.body).not.toContain('<2>');
    const stored = await h.t.pool.query(`SELECT secret FROM webhook_endpoints WHERE id = $1`, [endpoint.id]);
    expect(stored.rows[0].secret).toBe(secret);

    const list = await c.get('/webhooks');
    expect(list.body).not.toContain('whsec_');
    expect(list.body).toContain(`href="/webhooks/${endpoint.id}/delete"`);

    const confirm = await c.get(`/webhooks/${endpoint.id}/delete`);
    expect(confirm.statusCode).toBe(200);
    expect((await c.post(`/webhooks/${endpoint.id}/delete`, {})).statusCode).toBe(303);
    expect(await listEndpoints(h.t.pool, accountId)).toEqual([]);
    expect((await c.get(`/webhooks/${endpoint.id}/delete`)).statusCode).toBe(404);
  });

  it('every event offered and ticked by default; the same address rules as the API, shown next to the field', async () => {
    await c.get('/webhooks');
    for (const e of ['job.succeeded', 'job.failed', 'publication.published', 'publication.failed'])
      expect(c.last!.body).toMatch(new RegExp(`value="${e.replace('.', '\\.')}"\\s+checked`));
    expect(c.last!.body).toContain('A set is live on a store (publication.published)');
    const form = new URLSearchParams([
      ['_csrf', csrfOf(c.last!.body)],
      ['url', 'https://example.com/a'],
      ['events', 'job.succeeded'],
      ['events', 'job.failed'],
    ]);
    const res = await h.app.inject({
      method: 'POST',
      url: '/webhooks',
      headers: { cookie: [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'content-type': 'application/x-www-form-urlencoded' },
      payload: form.toString(),
    });
    expect(res.statusCode).toBe(201);
    expect((await listEndpoints(h.t.pool, accountId))[0].events).toEqual(['job.succeeded', 'job.failed']);

    await c.get('/webhooks');
    const refused = await c.post('/webhooks', { url: 'https://169.254.169.254/latest', events: 'job.failed' });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toMatch(/id="url-error">must not point at a link-local or cloud metadata address/);
    expect(refused.body).toContain('value="https://169.254.169.254/latest"');
    await c.get('/webhooks');
    expect((await c.post('/webhooks', { url: 'https://example.com/b' })).statusCode).toBe(400);
    expect(await listEndpoints(h.t.pool, accountId)).toHaveLength(1);
  });

  it('refuses a form without the CSRF token, and another account’s endpoint is not found', async () => {
    await c.get('/webhooks');
    expect((await c.post('/webhooks', { url: 'https://example.com/a', events: 'job.failed', _csrf: null })).statusCode).toBe(403);
    const other = await h.t.pool.query(
      `INSERT INTO accounts (id, name, plan_id) VALUES ('acc_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'Other', 'free') RETURNING id`,
    );
    const theirs = await createEndpoint(
      h.t.pool,
      other.rows[0].id,
      { url: 'https://example.com/theirs' },
      { allowHttp: false, allowPrivate: false },
    );
    expect((await c.get(`/webhooks/${theirs.id}/delete`)).statusCode).toBe(404);
    await c.get('/webhooks');
    expect((await c.post(`/webhooks/${theirs.id}/delete`, {})).statusCode).toBe(404);
    expect((await c.get('/webhooks')).body).not.toContain('theirs');
    expect((await h.app.inject({ method: 'GET', url: `${API}/webhooks`, headers: h.auth })).json()).toEqual({ webhooks: [] });
  });

  it('needs a signed-in user', async () => {
    const anonymous = new PageClient(h.app);
    const res = await anonymous.get('/webhooks');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toMatch(/sign-in/);
  });
});
