/** What a new user meets: a checklist, the first call with the key filled in, names instead of ids, the right plurals, a favicon. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createScreenshotSet } from '../../src/sets/create.ts';
import type { TestApp } from '../support/app.ts';
import { createDashboardApp, PageClient } from '../support/dashboard.ts';
import { insertApp, sampleListing } from '../support/fixtures.ts';
import { newId } from '../../src/core/ids.ts';
import { planScreenshotSet } from '../../src/planning/plan.ts';

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
    // A one-slide set while it renders: "0 of 1 slide".
    await h.t.pool.query(
      `UPDATE jobs SET status = 'running', locked_by = 'test', lease_expires_at = now() + interval '1 minute', progress_done = 0, progress_total = 1`,
    );
    const { rows } = await h.t.pool.query<{ id: string }>('SELECT id FROM jobs');
    const running = await c.get(`/sets/${rows[0].id}`);
    expect(running.body).toContain(' · 0 of 1 slide<');
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

  it('a set that came out shorter than asked shows the slides it has, in the list and on its page, with the fixes', async () => {
    // A set from before sets were refused short: 5 slides asked for, 2 made.
    const listing = sampleListing();
    const appId = await insertApp(h.t.pool, accountId, listing);
    const request = { device: 'iphone-69' as const, slides: [{ headline: 'Plan Every Meal Fast' }, { headline: 'Shop With One List' }] };
    const result = planScreenshotSet({ listings: [listing], extraContext: null, request });
    expect(result.slides).toHaveLength(2);
    // What the planner and the renderer say, in the API's words.
    result.warnings = [
      'The listing gives 2 distinct ideas worth a slide. Add a few lines about the app as extraContext (POST /public/v1/apps), or write the captions yourself with "slides".',
      `The app's icon could not be read (fetch failed), so the colours come from the app's name; the next set tries the icon again, or set colours in the brand kit (PUT /public/v1/apps/${appId}/brand).`,
    ];
    const stored = { device: 'iphone-69', count: 5, captionStyle: 'aso-expert', captionLength: 'short', narrativeId: null };
    const jobId = newId('job');
    await h.t.pool.query(
      `INSERT INTO jobs (id, account_id, app_id, status, request, result, cost, period_start)
       VALUES ($1, $2, $3, 'succeeded', $4, $5, 5, date_trunc('month', now())::date)`,
      [jobId, accountId, appId, JSON.stringify(stored), JSON.stringify(result)],
    );
    const cell = (body: string) => /<td data-label="Slides">\s*([^<]*)(?:<span class="muted">([^<]*)<\/span>)?/.exec(body)!;
    for (const list of [await c.get(`/apps/${appId}`), await c.get('/apps')]) {
      const [, count, asked] = cell(list.body);
      expect(count.trim()).toBe('2');
      expect(asked).toBe('of 5 asked');
    }
    const set = await c.get(`/sets/${jobId}`);
    expect(set.body).toContain('2 slides');
    expect(set.body).not.toMatch(/\b5 slides\b/);
    expect(set.body).toContain('not the 5 asked for');
    expect(set.body).toContain(`href="/apps/${appId}#guidance"`);
    expect(set.body).toContain(`href="/apps/${appId}#captions"`);
    // Said in the dashboard's words: no API call or field a dashboard user has no use for.
    expect(set.body).toContain(
      'Add a few lines about the app as the app&#39;s guidance for the captions, on its page, or write the captions yourself in the set form.',
    );
    expect(set.body).toContain('set colours in the brand kit on the app&#39;s page.');
    expect(set.body).not.toContain('/public/v1');
    expect(set.body).not.toContain('extraContext');
  });
});
