/**
 * A set the listing cannot fill is refused with its fixes in place: the app's guidance is edited on
 * its page, captions can be written in the set form. All plain forms (no JavaScript).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { createDashboardApp, PageClient } from '../support/dashboard.ts';
import { insertApp, sampleListing } from '../support/fixtures.ts';
import { refusalFixes } from '../../src/dashboard/pages/fixes.ts';

// Two lines: the rule writer cannot fill six slides from it.
const sparse = sampleListing({ description: 'Plan meals for the week in minutes.', subtitle: null });
const GUIDANCE =
  'Build shopping lists automatically. Share lists with your family. Scan barcodes to add groceries. Save favourite recipes offline. Track what is in your pantry.';
const setForm = (fields: Record<string, string>) => ({
  device: 'iphone-69',
  captionStyle: 'aso-expert',
  captionLength: 'short',
  narrativeId: '',
  count: '6',
  ...fields,
});

describe('the fixes of a refused set, on the app page', () => {
  let h: TestApp;
  let c: PageClient;
  let accountId: string;
  beforeEach(async () => {
    h = await createDashboardApp();
    c = await new PageClient(h.app).signUp('owner@example.com');
    accountId = (await h.t.pool.query(`SELECT account_id FROM users`)).rows[0].account_id;
  });
  afterEach(async () => h.close());
  const guidanceOf = async (appId: string) =>
    (await h.t.pool.query('SELECT extra_context FROM apps WHERE id = $1', [appId])).rows[0].extra_context as string | null;

  it('offers the fixes next to the refusal; saving guidance there lets the same set through', async () => {
    const appId = await insertApp(h.t.pool, accountId, sparse);
    await c.get(`/apps/${appId}`);
    const refused = await c.post(`/apps/${appId}/sets`, setForm({ once: 'a' }));
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('How to get this set');
    // The refusal names what to do here, not the API's field and call.
    expect(refused.body).not.toContain('/public/v1');
    expect(refused.body).not.toContain('extraContext (');
    expect(refused.body).toContain(`href="/apps/${appId}#guidance"`);
    expect(refused.body).toContain(`href="/apps/${appId}#captions"`);
    expect(refused.body).toContain(`href="/apps/${appId}#count"`);
    // Each link lands on the control it names, on this page.
    for (const id of ['guidance', 'captions', 'count']) expect(refused.body).toContain(`id="${id}"`);
    // A refusal whose lines are too long for short headlines links to the length on the same form.
    expect(String(refusalFixes(appId, ['captionLength']))).toContain(`href="/apps/${appId}#captionLength"`);
    expect(refused.body).toContain('id="captionLength"');

    const saved = await c.post(`/apps/${appId}/guidance`, { extraContext: GUIDANCE });
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe(`/apps/${appId}?saved=guidance#guidance`);
    expect(await guidanceOf(appId)).toBe(GUIDANCE);
    const page = await c.get(`/apps/${appId}?saved=guidance`);
    expect(page.body).toContain('Guidance saved');
    expect(page.body).toContain(GUIDANCE);
    expect(page.body).not.toContain('How to get this set');

    const accepted = await c.post(`/apps/${appId}/sets`, setForm({ once: 'b' }));
    expect(accepted.statusCode).toBe(303);
    expect(accepted.headers.location).toMatch(/^\/sets\/job_/);
  });

  it('makes a set of the captions written in the form, one slide a line, whatever the listing says', async () => {
    const appId = await insertApp(h.t.pool, accountId, sparse);
    await c.get(`/apps/${appId}`);
    const res = await c.post(`/apps/${appId}/sets`, setForm({ once: 'c', captions: 'Plan Every Meal\r\n\r\nShop With One List\n' }));
    expect(res.statusCode).toBe(303);
    const { rows } = await h.t.pool.query('SELECT request FROM jobs');
    expect(rows[0].request.slides).toEqual([{ headline: 'Plan Every Meal' }, { headline: 'Shop With One List' }]);
  });

  it('refuses guidance over 2,000 characters with the field named, and captions too long, changing nothing', async () => {
    const appId = await insertApp(h.t.pool, accountId, sparse);
    await c.get(`/apps/${appId}`);
    const res = await c.post(`/apps/${appId}/guidance`, { extraContext: 'x'.repeat(2001) });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('id="extraContext-error"');
    expect(await guidanceOf(appId)).toBeNull();
    const long = await c.post(`/apps/${appId}/sets`, setForm({ once: 'd', captions: 'y'.repeat(61) }));
    expect(long.statusCode).toBe(400);
    expect(long.body).toContain('id="captions-error"');
    expect((await h.t.pool.query('SELECT count(*)::int AS n FROM jobs')).rows[0].n).toBe(0);
  });

  it('another account’s app is 404 and keeps its guidance; a form without the CSRF token is 403', async () => {
    const other = await new PageClient(h.app).signUp('other@example.com');
    const otherAccount = (await h.t.pool.query(`SELECT account_id FROM users WHERE email = 'other@example.com'`)).rows[0].account_id;
    const theirs = await insertApp(h.t.pool, otherAccount, sparse);
    await c.get('/apps');
    expect((await c.post(`/apps/${theirs}/guidance`, { extraContext: 'mine now' })).statusCode).toBe(404);
    expect((await c.post('/apps/app_nope/guidance', { extraContext: 'x' })).statusCode).toBe(404);
    expect(await guidanceOf(theirs)).toBeNull();
    await other.get(`/apps/${theirs}`);
    expect((await other.post(`/apps/${theirs}/guidance`, { _csrf: null, extraContext: 'no token' })).statusCode).toBe(403);
    expect(await guidanceOf(theirs)).toBeNull();
  });
});
