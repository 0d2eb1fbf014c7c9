/** The dashboard's side of apps before launch: add one from its listing text, upload its icon, add its store page later. */
import { describe, expect } from 'vitest';
import { it, LISTED, type Fixtures } from '../support/context.ts';
import type { TestApp } from '../support/app.ts';
import { createDashboardApp, PageClient } from '../support/dashboard.ts';
import { solidPng } from '../support/fake-images.ts';

const LISTING = {
  'listing.name': 'Fernly',
  'listing.subtitle': 'Plant care made simple',
  'listing.description': 'Fernly keeps your houseplants alive.\n• Get watering reminders for every plant',
  'listing.category': 'Lifestyle',
  'listing.language': 'en-US',
  'listing.price': '0',
};

async function signedIn(store: Fixtures['store']): Promise<{ h: TestApp; c: PageClient; close: () => Promise<void> }> {
  const h = await createDashboardApp({ stores: store });
  const c = await new PageClient(h.app).signUp('owner@example.com');
  return { h, c, close: () => h.close() };
}

const iconFile = async (width = 1024, height = width) => ({
  field: 'icon',
  name: 'icon.png',
  type: 'image/png',
  bytes: await solidPng(width, height, 'green'),
});

describe('dashboard: an app before launch', () => {
  it('adds an app from its listing text, then its icon, then its store page', async ({ store }) => {
    const { h, c, close } = await signedIn(store);
    try {
      const apps = await c.get('/apps');
      expect(apps.body).toContain('action="/apps/listing"');
      expect(apps.body).toContain('<optgroup label="Google Play">');
      const asked = store.requests.length;
      const res = await c.post('/apps/listing', LISTING);
      expect(res.statusCode).toBe(303);
      const appId = /^\/apps\/(app_\w+)$/.exec(String(res.headers.location))![1];
      expect(store.requests.length).toBe(asked);
      const { rows } = await h.t.pool.query('SELECT own_listing, artwork_url FROM apps WHERE id = $1', [appId]);
      expect(rows[0]).toEqual({
        own_listing: {
          name: 'Fernly',
          subtitle: 'Plant care made simple',
          description: LISTING['listing.description'],
          category: 'Lifestyle',
          language: 'en-US',
          price: '0',
        },
        artwork_url: null,
      });

      const page = await c.get(`/apps/${appId}`);
      expect(page.body).toContain('not in a store yet');
      expect(page.body).toContain('No icon yet');
      expect(page.body).toContain('the app is in no store to take screenshots from');
      expect((await c.postFiles(`/apps/${appId}/icon`, {}, [await iconFile()])).statusCode).toBe(303);
      const withIcon = await c.get(`/apps/${appId}`);
      const src = /<img src="(\/apps\/app_\w+\/icon\?v=[0-9a-f]+)"/.exec(withIcon.body)?.[1];
      expect(src).toBeDefined();
      const icon = await c.get(src!);
      expect(icon.statusCode).toBe(200);
      expect(icon.headers['content-type']).toBe('image/png');
      expect(withIcon.body).toContain('Your uploaded icon (1024×1024)');
      await c.get(`/apps/${appId}`);

      const added = await c.post(`/apps/${appId}/stores`, {
        iosUrl: `https://apps.apple.com/us/app/x/id${LISTED.appStore}`,
        androidUrl: '',
      });
      expect(added.statusCode).toBe(303);
      const live = await c.get(`/apps/${appId}`);
      expect(live.body).toContain('>App Store</a>');
      expect(live.body).not.toContain('not in a store yet');
    } finally {
      await close();
    }
  });

  it('says what is wrong with the listing, keeps what was typed, stores nothing', async ({ store }) => {
    const { h, c, close } = await signedIn(store);
    try {
      await c.get('/apps');
      const res = await c.post('/apps/listing', {
        ...LISTING,
        'listing.name': 'A name far longer than thirty characters',
        'listing.category': '',
      });
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain('id="listing.name-error"');
      expect(res.body).toContain('id="listing.category-error"');
      expect(res.body).toContain('value="A name far longer than thirty characters"');
      expect(res.body).toContain('Get watering reminders for every plant');
      expect((await h.t.pool.query('SELECT count(*)::int AS n FROM apps')).rows[0].n).toBe(0);
    } finally {
      await close();
    }
  });

  it('refuses an icon that is not square, and another user gets 404 for the icon and the store page', async ({ store }) => {
    const { h, c, close } = await signedIn(store);
    try {
      await c.get('/apps');
      const appId = /(app_\w+)/.exec(String((await c.post('/apps/listing', LISTING)).headers.location))![1];
      await c.get(`/apps/${appId}`);
      const bad = await c.postFiles(`/apps/${appId}/icon`, {}, [await iconFile(1024, 512)]);
      expect(bad.statusCode).toBe(400);
      expect(bad.body).toContain('an app icon is square');
      await c.get(`/apps/${appId}`);
      await c.postFiles(`/apps/${appId}/icon`, {}, [await iconFile()]);

      const other = await new PageClient(h.app).signUp('other@example.com');
      await other.get('/apps');
      expect((await other.postFiles(`/apps/${appId}/icon`, {}, [await iconFile()])).statusCode).toBe(404);
      expect((await other.get(`/apps/${appId}/icon`)).statusCode).toBe(404);
      expect(
        (await other.post(`/apps/${appId}/stores`, { iosUrl: `https://apps.apple.com/us/app/x/id${LISTED.appStore}` })).statusCode,
      ).toBe(404);
      const { rows } = await h.t.pool.query('SELECT ios_listing, icon FROM apps WHERE id = $1', [appId]);
      expect(rows[0].ios_listing).toBeNull();
      expect(rows[0].icon.width).toBe(1024);
    } finally {
      await close();
    }
  });
});
