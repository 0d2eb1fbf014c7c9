/** Screens on an app's page: uploaded through a multipart form, shown, deleted; one account's only. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { createDashboardApp, PageClient } from '../support/dashboard.ts';
import { solidPng } from '../support/fake-images.ts';
import { insertApp } from '../support/fixtures.ts';

describe('dashboard: an app’s screens', () => {
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

  const png = async (color: string) => ({
    field: 'screens',
    name: `${color}.png`,
    type: 'image/png',
    bytes: await solidPng(1290, 2796, color),
  });

  it('uploads several at once, shows them in order, serves their thumbnails, deletes one', async () => {
    await c.get(`/apps/${appId}`);
    const res = await c.postFiles(`/apps/${appId}/screens`, { family: '' }, [await png('red'), await png('blue')]);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/apps/${appId}?uploaded=2#screens`);
    // The page after the upload confirms it.
    const page = await c.get(`/apps/${appId}?uploaded=2`);
    expect(page.body).toContain('Uploaded 2 screens');
    const ids = [...page.body.matchAll(/src="\/apps\/app_\w+\/screens\/(scr_\w+)"/g)].map((m) => m[1]);
    expect(ids).toHaveLength(2);
    expect(page.body).toContain('iPhone · 1290×2796');
    const thumb = await c.get(`/apps/${appId}/screens/${ids[0]}`);
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/png');
    expect(thumb.rawPayload.equals((await png('red')).bytes)).toBe(true);
    await c.get(`/apps/${appId}`);
    expect((await c.post(`/apps/${appId}/screens/${ids[0]}/delete`, {})).statusCode).toBe(303);
    const after = await c.get(`/apps/${appId}`);
    expect(after.body).not.toContain(ids[0]);
    expect(after.body).toContain(ids[1]);
  });

  it('says why an upload is refused, and stores nothing', async () => {
    await c.get(`/apps/${appId}`);
    const bad = await c.postFiles(`/apps/${appId}/screens`, {}, [
      { field: 'screens', name: 'notes.png', type: 'image/png', bytes: Buffer.from('not an image at all') },
    ]);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('not a PNG or JPEG image');
    const none = await c.postFiles(`/apps/${appId}/screens`, {}, []);
    expect(none.statusCode).toBe(400);
    expect(none.body).toContain('Choose one or more');
    expect(Number((await h.t.pool.query('SELECT count(*) FROM screens')).rows[0].count)).toBe(0);
  });

  it('refuses an upload without its CSRF token', async () => {
    await c.get(`/apps/${appId}`);
    const res = await c.postFiles(`/apps/${appId}/screens`, { _csrf: null }, [await png('red')]);
    expect(res.statusCode).toBe(403);
    expect(Number((await h.t.pool.query('SELECT count(*) FROM screens')).rows[0].count)).toBe(0);
  });

  it('another user gets 404 for the upload, the thumbnail and the delete', async () => {
    await c.get(`/apps/${appId}`);
    await c.postFiles(`/apps/${appId}/screens`, {}, [await png('red')]);
    const id = /src="\/apps\/app_\w+\/screens\/(scr_\w+)"/.exec((await c.get(`/apps/${appId}`)).body)![1];
    const other = await new PageClient(h.app).signUp('other@example.com');
    await other.get('/apps');
    expect((await other.postFiles(`/apps/${appId}/screens`, {}, [await png('blue')])).statusCode).toBe(404);
    expect((await other.get(`/apps/${appId}/screens/${id}`)).statusCode).toBe(404);
    expect((await other.post(`/apps/${appId}/screens/${id}/delete`, {})).statusCode).toBe(404);
    expect(Number((await h.t.pool.query('SELECT count(*) FROM screens WHERE deleted_at IS NULL')).rows[0].count)).toBe(1);
  });
});
