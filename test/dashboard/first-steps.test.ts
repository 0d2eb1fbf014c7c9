/** What a new user meets: a checklist, the first call with the key filled in, names instead of ids, the right plurals, a favicon. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createScreenshotSet } from '../../src/jobs/screenshot-sets.ts';
import type { TestApp } from '../support/app.ts';
import { createDashboardApp, PageClient } from '../support/dashboard.ts';
import { insertApp } from '../support/fixtures.ts';

describe('first steps on the dashboard', () => {
  let h: TestApp;
  let c: PageClient;
  let accountId: string;
  beforeEach(async () => {
    h = await createDashboardApp();
    c = await new PageClient(h.app).signUp('new@example.com');
    accountId = (await h.t.pool.query(`SELECT account_id FROM users`)).rows[0].account_id;
  });
  afterEach(async () => h.close());

  it('an empty account gets the first-set checklist; a new key its first call, ready to paste', async () => {
    const apps = await c.get('/apps');
    expect(apps.body).toContain('Your first set, step by step');
    expect(apps.body).toMatch(/<ol class="checklist">/);
    await c.get('/keys');
    const created = await c.post('/keys', { name: 'first' });
    const key = /value="(sk_live_\w+)"/.exec(created.body)![1];
    expect(created.body).toContain(`value="curl -H 'Authorization: Bearer ${key}' http://localhost:80/api/v1/public/v1/account"`);
    // And that call works as shown.
    const res = await h.app.inject({ url: '/api/v1/public/v1/account', headers: { authorization: `Bearer ${key}` } });
    expect(res.statusCode).toBe(200);
    // Not on the next page: the key is shown once.
    expect((await c.get('/keys')).body).not.toContain(key);
  });

  it('names devices and voices, counts in the right number, and every page has a favicon', async () => {
    const appId = await insertApp(h.t.pool, accountId);
    await createScreenshotSet(
      h.t.pool,
      accountId,
      { appId, device: 'iphone-69', count: 1, captionStyle: 'aso-expert' },
      { now: new Date() },
    );
    const page = await c.get(`/apps/${appId}`);
    expect(page.body).toContain('iPhone 6.9″');
    expect(page.body).toContain('>ASO expert<');
    expect(page.body).not.toMatch(/\(1 slides\)|\b1 slides\b/);
    expect(page.body).toContain('<link rel="icon" href="/assets/favicon.svg"');
    const icon = await c.get('/assets/favicon.svg');
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toBe('image/svg+xml');
    // The app icon sits over the app's initial, which shows when the store's image cannot load.
    expect(page.body).toMatch(/<span class="icon-initial">\s*[A-Z]\s*<\/span/);
  });
});
