/**
 * Apps before launch (issue 32, CONTRACT fourth milestone): an app created from its own listing
 * text, its uploaded icon, and a store URL added later with PATCH.
 */
import sharp from 'sharp';
import { describe, expect } from 'vitest';
import { findApp } from '../../src/apps/apps.ts';
import { expectProblem, type TestApp } from '../support/app.ts';
import { it, LISTED } from '../support/context.ts';
import { solidPng } from '../support/fake-images.ts';
import { FAIL } from '../support/fake-store.ts';
import { accountWithKey } from '../support/fixtures.ts';
import { lookupBody, lookupResult } from '../support/store-fixtures.ts';

const APPS = '/api/v1/public/v1/apps';
const IOS = `https://apps.apple.com/us/app/pocket-planner/id${LISTED.appStore}`;
const ANDROID = `https://play.google.com/store/apps/details?id=${LISTED.googlePlay}&hl=en&gl=us`;

const LISTING = {
  name: 'Fernly',
  subtitle: 'Plant care made simple',
  description: 'Fernly keeps your houseplants alive.\n• Get watering reminders for every plant\n• Identify any plant from a photo',
  category: 'Lifestyle',
};

const post = (h: TestApp, body: unknown, headers: Record<string, string> = h.auth) =>
  h.app.inject({ method: 'POST', url: APPS, headers, payload: body as object });
const patch = (h: TestApp, appId: string, body: unknown, headers: Record<string, string> = h.auth) =>
  h.app.inject({ method: 'PATCH', url: `${APPS}/${appId}`, headers, payload: body as object });
const putIcon = (h: TestApp, appId: string, bytes: Buffer, type = 'image/png', headers: Record<string, string> = h.auth) =>
  h.app.inject({ method: 'PUT', url: `${APPS}/${appId}/icon`, headers: { ...headers, 'content-type': type }, payload: bytes });
const row = async (h: TestApp, appId: string) => (await h.t.pool.query('SELECT * FROM apps WHERE id = $1', [appId])).rows[0];
const appCount = async (h: TestApp) => (await h.t.pool.query('SELECT count(*)::int AS n FROM apps')).rows[0].n as number;

async function ownApp(h: TestApp, listing: object = LISTING): Promise<string> {
  const res = await post(h, { listing });
  if (res.statusCode !== 200) throw new Error(`create answered ${res.statusCode}: ${res.body}`);
  return res.json().appId;
}

/** Another account on the same server, with its key's headers. */
async function otherAccount(h: TestApp) {
  const { key } = await accountWithKey(h.t.pool, 'free', 'Other');
  return { authorization: `Bearer ${key}` };
}

describe('POST /apps with listing', () => {
  it('creates an app from its own listing without asking any store; artworkUrl is null', async ({ api: h, store }) => {
    const before = store.requests.length;
    const res = await post(h, { listing: LISTING, extraContext: 'For people who forget to water.' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      appId: expect.stringMatching(/^app_[0-9A-Z]{26}$/),
      name: 'Fernly',
      category: 'Lifestyle',
      artworkUrl: null,
    });
    expect(store.requests.length).toBe(before);
    const r = await row(h, res.json().appId);
    expect(r).toMatchObject({ account_id: h.account.id, ios_listing: null, android_listing: null, artwork_url: null, icon: null });
    // The defaults are written out: the language the captions are checked in, and free.
    expect(r.own_listing).toEqual({ ...LISTING, language: 'en-US', price: '0' });
    expect(r.extra_context).toBe('For people who forget to water.');
  });

  it('keeps language and price as given, completing a bare language with its region', async ({ api: h }) => {
    const appId = await ownApp(h, { ...LISTING, subtitle: undefined, language: 'fr', price: '4.99', category: 'Tools' });
    expect((await row(h, appId)).own_listing).toMatchObject({ subtitle: null, language: 'fr-FR', price: '4.99', category: 'Tools' });
    const app = await findApp(h.t.pool, h.account.id, appId);
    expect(app?.listing?.language).toBe('fr-FR');
  });

  it('400 validation_failed for every problem at once, storing nothing', async ({ api: h, store }) => {
    const before = store.requests.length;
    const cases: Array<[unknown, string[]]> = [
      [{ listing: LISTING, iosUrl: IOS }, ['listing']],
      [{ listing: LISTING, androidUrl: ANDROID, iosUrl: IOS }, ['listing']],
      [{ listing: { ...LISTING, name: 'x'.repeat(31) } }, ['listing.name']],
      [{ listing: { ...LISTING, name: '   ' } }, ['listing.name']],
      [{ listing: { ...LISTING, subtitle: '' } }, ['listing.subtitle']],
      [{ listing: { ...LISTING, description: 'x'.repeat(4001) } }, ['listing.description']],
      [{ listing: { ...LISTING, category: 'Gardening' } }, ['listing.category']],
      [{ listing: { ...LISTING, category: 'lifestyle' } }, ['listing.category']],
      [{ listing: { ...LISTING, language: 'english' } }, ['listing.language']],
      [{ listing: { ...LISTING, language: 'xx-QQ' } }, ['listing.language']],
      [{ listing: { ...LISTING, price: '4,99' } }, ['listing.price']],
      [{ listing: { ...LISTING, price: 4.99 } }, ['listing.price']],
      [{ listing: { ...LISTING, rating: 5 } }, ['listing.rating']],
      [{ listing: { name: 'Fernly' } }, ['listing.category', 'listing.description']],
      [{ listing: { ...LISTING, name: 'Fern\u0000ly' } }, ['listing.name']],
      [{ listing: { ...LISTING, description: 'half a pair \ud83c' } }, ['listing.description']],
      [{ listing: 'Fernly' }, ['listing']],
    ];
    for (const [body, fields] of cases) {
      const problem = expectProblem(await post(h, body), 400, 'validation_failed');
      expect([...new Set(problem.errors.map((e: { field: string }) => e.field))].sort(), JSON.stringify(body)).toEqual(fields);
    }
    expect(await appCount(h)).toBe(0);
    expect(store.requests.length).toBe(before);
  });

  it('counts the limits in characters: a 30-emoji name and a 4,000-character description are fine', async ({ api: h }) => {
    const res = await post(h, { listing: { ...LISTING, name: '🌿'.repeat(30), description: 'é'.repeat(4000) } });
    expect(res.statusCode).toBe(200);
  });

  it('401 without a key', async ({ api: h }) => {
    expectProblem(await post(h, { listing: LISTING }, {}), 401, 'missing_api_key');
    expect(await appCount(h)).toBe(0);
  });
});

describe('PUT /apps/{appId}/icon', () => {
  it('stores a square icon, answers a signed artworkUrl that serves it without the key, and resets the icon colours', async ({
    api: h,
  }) => {
    const appId = await ownApp(h);
    await h.t.pool.query(`UPDATE apps SET icon_colors = '{"primary":"#000000"}' WHERE id = $1`, [appId]);
    const icon = await solidPng(1024, 1024, 'green');
    const res = await putIcon(h, appId, icon);
    expect(res.statusCode).toBe(200);
    const { artworkUrl } = res.json();
    expect(res.json()).toMatchObject({ appId, name: 'Fernly', category: 'Lifestyle' });
    expect(artworkUrl).toMatch(new RegExp(`^http://localhost(:\\d+)?/api/v1/public/v1/apps/${appId}/icon\\?expires=\\d+&sig=`));
    const r = await row(h, appId);
    expect(r.icon_colors).toBeNull();
    expect(r.icon).toMatchObject({ contentType: 'image/png', width: 1024, height: 1024, objectKey: expect.stringMatching(/^apps\//) });

    const signed = await h.app.inject({ method: 'GET', url: new URL(artworkUrl).pathname + new URL(artworkUrl).search });
    expect(signed.statusCode).toBe(200);
    expect(signed.headers['content-type']).toBe('image/png');
    expect(await sharp(signed.rawPayload).metadata()).toMatchObject({ width: 1024, height: 1024 });
    const withKey = await h.app.inject({ method: 'GET', url: `${APPS}/${appId}/icon`, headers: h.auth });
    expect(withKey.rawPayload.equals(signed.rawPayload)).toBe(true);
    const again = await h.app.inject({
      method: 'GET',
      url: `${APPS}/${appId}/icon`,
      headers: { ...h.auth, 'if-none-match': signed.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);

    // A new icon replaces the old one, whose bytes are removed.
    const jpeg = await sharp({ create: { width: 600, height: 600, channels: 3, background: '#3366cc' } })
      .jpeg()
      .toBuffer();
    expect((await putIcon(h, appId, jpeg, 'image/jpeg')).statusCode).toBe(200);
    expect(await h.services.objects.get(r.icon.objectKey)).toBeNull();
    const replaced = await h.app.inject({ method: 'GET', url: `${APPS}/${appId}/icon`, headers: h.auth });
    expect(replaced.headers['content-type']).toBe('image/jpeg');
  });

  it('400 invalid_image for what is not a square icon of 512 px or more; 415 for JSON; nothing stored', async ({ api: h }) => {
    const appId = await ownApp(h);
    const cases: Array<[Buffer, RegExp]> = [
      [await solidPng(1024, 768, 'green'), /square/],
      [await solidPng(400, 400, 'green'), /at least 512 px/],
      [Buffer.from('not a picture at all'), /not a PNG or JPEG/],
      [
        await sharp({ create: { width: 600, height: 600, channels: 3, background: '#fff' } })
          .webp()
          .toBuffer(),
        /webp/,
      ],
    ];
    for (const [bytes, detail] of cases) expect(expectProblem(await putIcon(h, appId, bytes), 400, 'invalid_image').detail).toMatch(detail);
    expectProblem(await putIcon(h, appId, Buffer.from('{}'), 'application/json'), 415, 'unsupported_media_type');
    expect((await row(h, appId)).icon).toBeNull();
    expectProblem(await h.app.inject({ method: 'GET', url: `${APPS}/${appId}/icon`, headers: h.auth }), 404, 'app_not_found');
  });

  it("another account's app is 404, for the upload and the download; a changed signature is 403", async ({ api: h }) => {
    const appId = await ownApp(h);
    const other = await otherAccount(h);
    const icon = await solidPng(512, 512, 'green');
    expectProblem(await putIcon(h, appId, icon, 'image/png', other), 404, 'app_not_found');
    expect((await row(h, appId)).icon).toBeNull();
    const { artworkUrl } = (await putIcon(h, appId, icon)).json();
    expectProblem(await h.app.inject({ method: 'GET', url: `${APPS}/${appId}/icon`, headers: other }), 404, 'app_not_found');
    const url = new URL(artworkUrl);
    const otherApp = await ownApp(h);
    expectProblem(await h.app.inject({ method: 'GET', url: `${APPS}/${otherApp}/icon${url.search}` }), 403, 'invalid_signature');
    expectProblem(await putIcon(h, 'app_00000000000000000000000000', icon), 404, 'app_not_found');
  });
});

describe('PATCH /apps/{appId}', () => {
  it("reads the store listing and keeps the app's own text where the store has none", async ({ api: h, store }) => {
    const appId = await ownApp(h);
    // The App Store page as it often is at launch: no subtitle read, an empty description.
    store.set('app-store', LISTED.appStore, { body: lookupBody([lookupResult({ trackName: 'Fernly: Plant Care', description: '' })]) });
    const res = await patch(h, appId, { iosUrl: IOS });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      appId,
      name: 'Fernly: Plant Care',
      category: 'Productivity',
      artworkUrl: expect.stringMatching(/^https:\/\//),
    });
    const r = await row(h, appId);
    expect(r.ios_listing).toMatchObject({
      store: 'app-store',
      storeId: LISTED.appStore,
      name: 'Fernly: Plant Care',
      description: LISTING.description,
      subtitle: LISTING.subtitle,
    });
    expect(r.own_listing).toMatchObject(LISTING);
    expect(r.listings_version).toBe(2);
    // The process's cache of parsed listings sees the change.
    expect((await findApp(h.t.pool, h.account.id, appId))?.iosListing?.name).toBe('Fernly: Plant Care');

    // Play's description is its own: it is kept, and the App Store listing stays as it was.
    const both = await patch(h, appId, { androidUrl: ANDROID });
    expect(both.statusCode).toBe(200);
    const after = await row(h, appId);
    expect(after.android_listing.description).not.toBe(LISTING.description);
    expect(after.android_listing.description.length).toBeGreaterThan(0);
    expect(after.ios_listing).toEqual(r.ios_listing);
  });

  it('an uploaded icon still outranks the store’s', async ({ api: h }) => {
    const appId = await ownApp(h);
    await putIcon(h, appId, await solidPng(512, 512, 'green'));
    const res = await patch(h, appId, { iosUrl: IOS });
    expect(res.json().artworkUrl).toMatch(new RegExp(`/public/v1/apps/${appId}/icon\\?`));
    expect((await row(h, appId)).artwork_url).toMatch(/^https:\/\/.*mzstatic/);
  });

  it('refuses a bad body, another account’s app (before any store is asked) and a store failure, changing nothing', async ({
    api: h,
    store,
  }) => {
    const appId = await ownApp(h);
    const before = await row(h, appId);
    for (const [body, fields] of [
      [{}, ['iosUrl']],
      [{ listing: LISTING }, ['iosUrl', 'listing']],
      [{ iosUrl: 'https://example.com/app/id1' }, ['iosUrl']],
      [{ iosUrl: IOS, extraContext: 'x' }, ['extraContext']],
    ] as const) {
      const problem = expectProblem(await patch(h, appId, body), 400, 'validation_failed');
      expect([...new Set(problem.errors.map((e: { field: string }) => e.field))].sort(), JSON.stringify(body)).toEqual(fields);
    }
    const asked = store.requests.length;
    expectProblem(await patch(h, appId, { iosUrl: IOS }, await otherAccount(h)), 404, 'app_not_found');
    expectProblem(await patch(h, 'app_00000000000000000000000000', { iosUrl: IOS }), 404, 'app_not_found');
    expect(store.requests.length).toBe(asked);
    store.set('app-store', LISTED.appStore, FAIL.serverError);
    expectProblem(await patch(h, appId, { iosUrl: IOS }), 502, 'store_unavailable');
    store.set('app-store', '999', { body: lookupBody([]) });
    expectProblem(await patch(h, appId, { iosUrl: 'https://apps.apple.com/us/app/none/id999' }), 422, 'store_app_not_found');
    expect(await row(h, appId)).toEqual(before);
    expectProblem(await patch(h, appId, { iosUrl: IOS }, {}), 401, 'missing_api_key');
  });
});
