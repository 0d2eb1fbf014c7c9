import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/accounts/api-keys.ts';
import { escapeHtml } from '../../src/dashboard/html.ts';
import { forPeople } from '../../src/dashboard/names.ts';
import { screenshotSetRunner } from '../../src/sets/run.ts';
import { planWithModel } from '../../src/planning/pipeline.ts';
import { Worker } from '../../src/queue/worker.ts';
import { setJobs } from '../../src/sets/job-queue.ts';
import type { TestApp } from '../support/app.ts';
import { createDashboardApp, PageClient } from '../support/dashboard.ts';
import { startFakeStore, type FakeStore } from '../support/fake-store.ts';
import { insertApp, sampleListing } from '../support/fixtures.ts';
import { until } from '../support/jobs.ts';
import { lookupBody, lookupResult } from '../support/store-fixtures.ts';

const API = '/api/v1/public/v1';
const IOS = 'https://apps.apple.com/us/app/pocket-planner/id1234567890';

describe('dashboard pages', () => {
  let store: FakeStore;
  let h: TestApp;
  let c: PageClient;
  let accountId: string;
  beforeAll(async () => {
    store = await startFakeStore();
  });
  afterAll(async () => store.close());
  beforeEach(async () => {
    store.set('app-store', '1234567890', { body: lookupBody([lookupResult()], { raw: true }) });
    h = await createDashboardApp({ stores: store, storeTimeoutMs: 1_500 });
    c = await new PageClient(h.app).signUp('owner@example.com');
    accountId = (await h.t.pool.query(`SELECT account_id FROM users`)).rows[0].account_id;
  });
  afterEach(async () => h.close());

  it('API keys: the secret is shown once, works against the API, and a revoked key is refused on the next request', async () => {
    await c.get('/keys');
    const created = await c.post('/keys', { name: 'CI <deploy>' });
    expect(created.statusCode).toBe(201);
    const key = /id="secret"[^>]*value="(sk_live_[0-9A-Za-z]{40})"/.exec(created.body)![1];
    expect(created.body).toContain('CI &lt;deploy&gt;');
    expect(created.body).toContain('data-copy="secret"');
    const list = await c.get('/keys');
    expect(list.body).not.toContain(key);
    expect(list.body).toContain(key.slice(0, 12));
    const account = await h.app.inject({ url: `${API}/account`, headers: { authorization: `Bearer ${key}` } });
    expect(account.statusCode).toBe(200);
    expect(account.json().id).toBe(accountId);
    const keyId = /href="\/keys\/(key_[0-9A-Z]{26})\/revoke"/.exec(list.body)![1];
    const confirm = await c.get(`/keys/${keyId}/revoke`);
    expect(confirm.body).toContain('Revoke key');
    const revoked = await c.post(`/keys/${keyId}/revoke`, {});
    expect(revoked.statusCode).toBe(303);
    const refused = await h.app.inject({ url: `${API}/account`, headers: { authorization: `Bearer ${key}` } });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().code).toBe('revoked_api_key');
    expect((await c.get('/keys')).body).toContain('Revoked');
  });

  it('Usage shows the same numbers as GET /account, and the ledger', async () => {
    const appId = await insertApp(h.t.pool, accountId);
    await c.get(`/apps/${appId}`);
    await c.post(`/apps/${appId}/sets`, {
      device: 'iphone-69',
      captionStyle: 'aso-expert',
      captionLength: 'short',
      narrativeId: '',
      count: '3',
      once: 'a',
    });
    const { key } = await createApiKey(h.t.pool, accountId);
    const api = (await h.app.inject({ url: `${API}/account`, headers: { authorization: `Bearer ${key}` } })).json();
    const usage = await c.get('/usage');
    expect(api.credits).toMatchObject({ allowance: 50, used: 5, remaining: 45 });
    for (const [label, value] of [
      ['Allowance', 50],
      ['Used', 5],
      ['Remaining', 45],
    ] as const) {
      expect(usage.body).toMatch(new RegExp(`<dt>${label}</dt>\\s*<dd>${value}</dd>`));
    }
    expect(usage.body).toContain('<dd>Free</dd>');
    expect(usage.body).toContain('−5');
  });

  it('Apps: adds an app from a store URL, and says what is wrong with a bad one', async () => {
    await c.get('/apps');
    const added = await c.post('/apps', { iosUrl: IOS, androidUrl: '', extraContext: '' });
    expect(added.statusCode).toBe(303);
    const appId = /^\/apps\/(app_[0-9A-Z]{26})$/.exec(added.headers.location as string)![1];
    const appPage = await c.get(`/apps/${appId}`);
    expect(appPage.body).toContain('Pocket Planner');
    await c.get('/apps');
    const bad = await c.post('/apps', { iosUrl: 'https://evil.example/app/id1', androidUrl: '', extraContext: '' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('iosUrl-error');
    expect(bad.body).toContain('value="https://evil.example/app/id1"');
    await c.get('/apps');
    const missing = await c.post('/apps', { iosUrl: 'https://apps.apple.com/us/app/x/id999', androidUrl: '', extraContext: '' });
    expect(missing.statusCode).toBe(422);
    expect((await h.t.pool.query('SELECT count(*)::int AS n FROM apps')).rows[0].n).toBe(1);
  });

  it('Sets: creates a set once per form, shows live status while queued, then the planned slides', async () => {
    const appId = await insertApp(h.t.pool, accountId, sampleListing({ name: 'Pantry <b>Planner</b>' }));
    const form = await c.get(`/apps/${appId}`);
    expect(form.body).toContain('Pantry &lt;b&gt;Planner&lt;/b&gt;');
    const once = /name="once" value="([^"]+)"/.exec(form.body)![1];
    const fields = { device: 'iphone-67', captionStyle: 'playful', captionLength: 'long', narrativeId: '', count: '3', once };
    const first = await c.post(`/apps/${appId}/sets`, fields);
    const again = await c.post(`/apps/${appId}/sets`, { ...fields, _csrf: /name="_csrf" value="([^"]*)"/.exec(form.body)![1] });
    expect(first.statusCode).toBe(303);
    expect(again.headers.location).toBe(first.headers.location);
    expect((await h.t.pool.query('SELECT count(*)::int AS n FROM jobs')).rows[0].n).toBe(1);
    const setUrl = first.headers.location as string;
    const queued = await c.get(setUrl);
    expect(queued.body).toContain(`data-live="${setUrl}/status"`);
    expect((await c.get(`${setUrl}/status`)).json()).toEqual({ status: 'queued', progress: null });

    const worker = new Worker(
      h.t.pool,
      h.notifications,
      screenshotSetRunner({ db: h.t.pool, planner: { plan: (input) => planWithModel(input, null) } }),
      { queue: setJobs, concurrency: 1, leaseMs: 60_000 },
    );
    worker.start();
    try {
      await until(async () => (await c.get(`${setUrl}/status`)).json().status === 'succeeded', 10_000, 50);
    } finally {
      await worker.stop(1_000);
    }
    const done = await c.get(setUrl);
    expect(done.body).not.toContain('data-live=');
    // The planner may make fewer slides than asked of a thin listing (and says so in a warning).
    const { result } = (await h.t.pool.query('SELECT result FROM jobs')).rows[0];
    expect(result.slides.length).toBeGreaterThan(0);
    expect(done.body.match(/<figure>/g)).toHaveLength(result.slides.length);
    for (const w of result.warnings as string[]) expect(done.body).toContain(escapeHtml(forPeople(w)));
    expect(done.body).toContain('iPhone 6.7″');
    expect(done.body).toMatch(/stop-color="#[0-9A-F]{6}"/);
  });

  it('Sets: bad form values are refused with messages and charge nothing', async () => {
    const appId = await insertApp(h.t.pool, accountId);
    await c.get(`/apps/${appId}`);
    const res = await c.post(`/apps/${appId}/sets`, {
      device: 'nokia-3310',
      captionStyle: 'aso-expert',
      captionLength: 'short',
      narrativeId: '',
      count: '11',
      once: 'b',
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('device-error');
    expect(res.body).toContain('count-error');
    expect((await h.t.pool.query('SELECT count(*)::int AS n FROM credit_ledger')).rows[0].n).toBe(0);
  });

  it('Sets: with too few credits, says so on the app page (402) and creates nothing', async () => {
    const appId = await insertApp(h.t.pool, accountId);
    await h.t.pool.query(
      `INSERT INTO credit_periods (account_id, period_start, allowance, used) VALUES ($1, date_trunc('month', now() AT TIME ZONE 'UTC')::date, 50, 48)`,
      [accountId],
    );
    await c.get(`/apps/${appId}`);
    const res = await c.post(`/apps/${appId}/sets`, {
      device: 'iphone-69',
      captionStyle: 'aso-expert',
      captionLength: 'short',
      narrativeId: 'how-it-works',
      count: '',
      once: 'c',
    });
    expect(res.statusCode).toBe(402);
    expect(res.body).toContain('This request costs 5 credits; 2 remain');
    expect((await h.t.pool.query('SELECT count(*)::int AS n FROM jobs')).rows[0].n).toBe(0);
  });
});
