import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_ENDPOINTS } from '../../src/webhooks/endpoints.ts';
import { createTestApp, expectProblem, type TestApp } from '../support/app.ts';
import { accountWithKey } from '../support/fixtures.ts';

const URL_ = '/api/v1/public/v1/webhooks';

describe('webhook endpoints over the API', () => {
  let h: TestApp;
  beforeEach(async () => {
    h = await createTestApp();
  });
  afterEach(async () => h.close());

  const create = (body: unknown, headers: Record<string, string> = h.auth) =>
    h.app.inject({ method: 'POST', url: URL_, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  const list = (headers: Record<string, string> = h.auth) => h.app.inject({ method: 'GET', url: URL_, headers });

  it('creates an endpoint with its secret shown once, lists it without, deletes it', async () => {
    const res = await create({ url: 'https://example.com/hooks' });
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(created).toMatchObject({
      url: 'https://example.com/hooks',
      events: ['job.succeeded', 'job.failed', 'publication.published', 'publication.failed'],
    });
    expect(created.id).toMatch(/^whk_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(created.secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);
    expect(new Date(created.createdAt).toISOString()).toBe(created.createdAt);

    const second = (await create({ url: 'https://example.org/x', events: ['job.failed'] })).json();
    expect(second.events).toEqual(['job.failed']);
    expect(second.secret).not.toBe(created.secret);

    const listed = await list();
    expect(listed.statusCode).toBe(200);
    const { secret: _s, ...withoutSecret } = created;
    expect(listed.json()).toEqual({
      webhooks: [withoutSecret, { id: second.id, url: second.url, events: ['job.failed'], createdAt: second.createdAt }],
    });
    expect(listed.body).not.toContain('whsec_');

    const del = await h.app.inject({ method: 'DELETE', url: `${URL_}/${created.id}`, headers: h.auth });
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    await expect(list().then((r) => r.json().webhooks.map((w: { id: string }) => w.id))).resolves.toEqual([second.id]);
    expectProblem(await h.app.inject({ method: 'DELETE', url: `${URL_}/${created.id}`, headers: h.auth }), 404, 'webhook_not_found');
  });

  it('keeps events in one order and without repeats; refuses unknown events and fields', async () => {
    expect((await create({ url: 'https://example.com/a', events: ['job.failed', 'job.succeeded'] })).json().events).toEqual([
      'job.succeeded',
      'job.failed',
    ]);
    const bad = expectProblem(await create({ url: 'https://example.com/a', events: ['job.started'], extra: 1 }), 400, 'validation_failed');
    expect(bad.errors.map((e: { field: string }) => e.field).sort()).toEqual(['events.0', 'extra'].sort());
    expectProblem(await create({ url: 'https://example.com/a', events: [] }), 400, 'validation_failed');
    expectProblem(await create({ url: 'https://example.com/a', events: ['job.failed', 'job.failed'] }), 400, 'validation_failed');
    expectProblem(await create({ events: ['job.failed'] }), 400, 'validation_failed');
  });

  it('refuses http, non-URLs and literal private addresses at create time, naming the reason', async () => {
    const refused: [string, RegExp][] = [
      ['http://example.com/hooks', /https/],
      ['ftp://example.com/hooks', /https/],
      ['not a url', /absolute URL/],
      ['https://127.0.0.1/hooks', /loopback/],
      ['https://2130706433/hooks', /loopback/],
      ['https://[::1]/hooks', /loopback/],
      ['https://[::ffff:127.0.0.1]/hooks', /loopback/],
      ['https://[::ffff:7f00:1]/hooks', /loopback/],
      ['https://10.0.0.8/hooks', /private/],
      ['https://192.168.1.1/hooks', /private/],
      ['https://172.20.0.1/hooks', /private/],
      ['https://169.254.169.254/latest/meta-data', /metadata/],
      ['https://[fd00:ec2::254]/hooks', /private/],
      ['https://[fe80::1]/hooks', /link-local/],
      ['https://224.0.0.1/hooks', /multicast/],
      ['https://0.0.0.0/hooks', /unspecified/],
      ['https://[::]/hooks', /unspecified/],
      ['https://localhost/hooks', /local machine/],
      ['https://api.localhost/hooks', /local machine/],
    ];
    for (const [url, why] of refused) {
      const body = expectProblem(await create({ url }), 400, 'validation_failed');
      expect(body.errors, url).toEqual([{ field: 'url', message: expect.stringMatching(why) }]);
    }
    // The schema's complaints and the URL's come in one answer.
    const both = expectProblem(await create({ url: 'https://10.0.0.1/', events: ['nope'] }), 400, 'validation_failed');
    expect(both.errors.map((e: { field: string }) => e.field).sort()).toEqual(['events.0', 'url']);
    expect((await list()).json().webhooks).toEqual([]);
  });

  it('allows http and private addresses only with WEBHOOK_ALLOW_HTTP / WEBHOOK_ALLOW_PRIVATE', async () => {
    const local = await createTestApp({ config: { webhooks: { allowHttp: true, allowPrivate: false } } });
    try {
      const post = (url: string) =>
        local.app.inject({
          method: 'POST',
          url: URL_,
          headers: { ...local.auth, 'content-type': 'application/json' },
          payload: JSON.stringify({ url }),
        });
      expect((await post('http://example.com/hooks')).statusCode).toBe(201);
      expectProblem(await post('http://127.0.0.1:8080/hooks'), 400, 'validation_failed');
    } finally {
      await local.close();
    }
    const open = await createTestApp({ config: { webhooks: { allowHttp: true, allowPrivate: true } } });
    try {
      const res = await open.app.inject({
        method: 'POST',
        url: URL_,
        headers: { ...open.auth, 'content-type': 'application/json' },
        payload: JSON.stringify({ url: 'http://127.0.0.1:8080/hooks' }),
      });
      expect(res.statusCode).toBe(201);
    } finally {
      await open.close();
    }
  });

  it(`allows ${MAX_ENDPOINTS} endpoints per account, then 409 webhook_limit`, async () => {
    const results = await Promise.all(Array.from({ length: MAX_ENDPOINTS + 3 }, (_, i) => create({ url: `https://example.com/${i}` })));
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(MAX_ENDPOINTS);
    for (const r of results.filter((r) => r.statusCode !== 201)) expectProblem(r, 409, 'webhook_limit');
    // Another account has its own allowance.
    const other = await accountWithKey(h.t.pool);
    expect((await create({ url: 'https://example.com/x' }, { authorization: `Bearer ${other.key}` })).statusCode).toBe(201);
  });

  it('another account’s endpoint is unknown: not listed, not deletable (404); a malformed id is 404 too', async () => {
    const mine = (await create({ url: 'https://example.com/mine' })).json();
    const other = await accountWithKey(h.t.pool);
    const theirAuth = { authorization: `Bearer ${other.key}` };
    expect((await list(theirAuth)).json()).toEqual({ webhooks: [] });
    expectProblem(await h.app.inject({ method: 'DELETE', url: `${URL_}/${mine.id}`, headers: theirAuth }), 404, 'webhook_not_found');
    expectProblem(await h.app.inject({ method: 'DELETE', url: `${URL_}/whk_nope`, headers: h.auth }), 404, 'webhook_not_found');
    expectProblem(
      await h.app.inject({ method: 'DELETE', url: `${URL_}/job_01ARZ3NDEKTSV4RRFFQ69G5FAV`, headers: h.auth }),
      404,
      'webhook_not_found',
    );
    expect((await list()).json().webhooks).toHaveLength(1);
  });

  it('every operation needs a key (401 before anything else)', async () => {
    const mine = (await create({ url: 'https://example.com/mine' })).json();
    expectProblem(await create({ url: 'https://example.com/x' }, {}), 401, 'missing_api_key');
    expectProblem(await create({ url: 'http://127.0.0.1/' }, { authorization: 'Bearer sk_live_nope' }), 401, 'invalid_api_key');
    expectProblem(await list({}), 401, 'missing_api_key');
    expectProblem(await h.app.inject({ method: 'DELETE', url: `${URL_}/${mine.id}` }), 401, 'missing_api_key');
    expect((await list()).json().webhooks).toHaveLength(1);
  });
});
