/** The brand kit on an app's page and the theme picker of the new-set form; one account's apps only. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { escapeHtml } from '../../src/dashboard/html.ts';
import type { TestApp } from '../support/app.ts';
import { createDashboardApp, expectSecurityHeaders, PageClient } from '../support/dashboard.ts';
import { accountWithKey, insertApp } from '../support/fixtures.ts';

describe('dashboard: brand kit and theme', () => {
  let h: TestApp;
  let c: PageClient;
  let appId: string;
  beforeEach(async () => {
    h = await createDashboardApp();
    c = await new PageClient(h.app).signUp('owner@example.com');
    const accountId = (await h.t.pool.query(`SELECT account_id FROM users`)).rows[0].account_id;
    appId = await insertApp(h.t.pool, accountId);
  });
  afterEach(async () => h.close());

  const kit = async () => (await h.t.pool.query('SELECT brand_kit FROM apps WHERE id = $1', [appId])).rows[0].brand_kit;

  it('shows the colours and where they come from, saves the kit, and the form offers every theme', async () => {
    const page = await c.get(`/apps/${appId}`);
    expectSecurityHeaders(page);
    expect(page.body).toContain('id="brand"');
    expect(page.body).toContain(escapeHtml("from the app's name"));
    for (const theme of ['bold', 'soft', 'dark', 'full-bleed', 'panoramic']) expect(page.body).toContain(`<option value="${theme}"`);
    expect(page.body).toContain('The brand kit&#39;s: Soft gradient');
    for (const font of ['noto-sans', 'inter', 'poppins', 'playfair-display', 'nunito'])
      expect(page.body).toContain(`<option value="${font}"`);

    const saved = await c.post(`/apps/${appId}/brand`, {
      ownColors: '1',
      primary: '#0b3d91',
      secondary: '#1f6feb',
      font: 'playfair-display',
      defaultTheme: 'dark',
      iconBadge: '1',
    });
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe(`/apps/${appId}#brand`);
    expect(await kit()).toEqual({
      colors: { primary: '#0B3D91', secondary: '#1F6FEB' },
      font: 'playfair-display',
      iconBadge: true,
      defaultTheme: 'dark',
    });
    const after = await c.get(`/apps/${appId}`);
    expect(after.body).toContain('fill="#0B3D91"');
    expect(after.body).toContain('from your brand kit');
    expect(after.body).toContain('The brand kit&#39;s: Dark');
    expect(after.body).toMatch(/<option value="playfair-display"\s+selected/);
  });

  it('a set made from the form carries the chosen theme; an unknown one is refused', async () => {
    const form = await c.get(`/apps/${appId}`);
    const once = /name="once" value="([^"]+)"/.exec(form.body)![1];
    const fields = { device: 'iphone-69', captionStyle: 'aso-expert', captionLength: 'short', narrativeId: '', count: '3', once };
    const bad = await c.post(`/apps/${appId}/sets`, { ...fields, theme: 'neon' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('choose a theme from the list');
    await c.get(`/apps/${appId}`);
    expect((await c.post(`/apps/${appId}/sets`, { ...fields, theme: 'full-bleed' })).statusCode).toBe(303);
    const { rows } = await h.t.pool.query('SELECT request FROM jobs');
    expect(rows.map((r) => r.request.theme)).toEqual(['full-bleed']);
  });

  it('refuses unreadable colours with the reason, and keeps the kit', async () => {
    await c.get(`/apps/${appId}`);
    await c.post(`/apps/${appId}/brand`, { defaultTheme: 'bold' });
    await c.get(`/apps/${appId}`);
    const res = await c.post(`/apps/${appId}/brand`, { ownColors: '1', primary: '#000080', secondary: '#ffff00', defaultTheme: 'soft' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('WCAG AA');
    expect((await kit()).defaultTheme).toBe('bold');
  });

  it("another account's app: 404, and its kit is untouched; no CSRF token: refused", async () => {
    const other = await accountWithKey(h.t.pool, 'free', 'Other');
    const theirs = await insertApp(h.t.pool, other.account.id);
    await c.get(`/apps/${appId}`);
    expect((await c.post(`/apps/${theirs}/brand`, { defaultTheme: 'dark' })).statusCode).toBe(404);
    expect((await h.t.pool.query('SELECT brand_kit FROM apps WHERE id = $1', [theirs])).rows[0].brand_kit).toBeNull();
    const forged = await c.post(`/apps/${appId}/brand`, { _csrf: null, defaultTheme: 'dark' });
    expect(forged.statusCode).toBe(403);
    expect(await kit()).toBeNull();
  });
});
