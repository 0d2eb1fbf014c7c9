import { describe, expect } from 'vitest';
import { expectProblem, type TestApp } from '../support/app.ts';
import { it } from '../support/context.ts';
import { FAIL } from '../support/fake-store.ts';
import { lookupBody } from '../support/store-fixtures.ts';

const APPS = '/api/v1/public/v1/apps';
const IOS = 'https://apps.apple.com/us/app/pocket-planner/id1234567890';
const ANDROID = 'https://play.google.com/store/apps/details?id=com.example.trails&hl=en&gl=us';

describe('POST /apps', () => {
  const post = (h: TestApp, body: unknown, headers: Record<string, string> = h.auth) =>
    h.app.inject({ method: 'POST', url: APPS, headers, payload: body as object });
  const appCount = async (h: TestApp) => (await h.t.pool.query('SELECT count(*)::int AS n FROM apps')).rows[0].n as number;

  it('creates an app from an App Store URL', async ({ api: h }) => {
    const res = await post(h, { iosUrl: IOS, extraContext: 'Stress the offline mode.' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      appId: expect.stringMatching(/^app_[0-9A-Z]{26}$/),
      name: 'Pocket Planner',
      category: 'Productivity',
      artworkUrl: expect.stringMatching(/^https:\/\/.*512x512/),
    });
    const { rows } = await h.t.pool.query('SELECT account_id, ios_listing, android_listing, extra_context FROM apps WHERE id = $1', [
      body.appId,
    ]);
    expect(rows[0]).toMatchObject({ account_id: h.account.id, android_listing: null, extra_context: 'Stress the offline mode.' });
    expect(rows[0].ios_listing).toMatchObject({ store: 'app-store', storeId: '1234567890', country: 'us' });
  });

  it('creates an app from a Google Play URL', async ({ api: h }) => {
    const res = await post(h, { androidUrl: ANDROID });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Trail Mapper', category: 'Maps & Navigation' });
    expect(res.json().artworkUrl).toMatch(/^https:\/\//);
  });

  it('with both URLs: reads both, takes name, category and icon from the App Store', async ({ api: h }) => {
    const res = await post(h, { iosUrl: IOS, androidUrl: ANDROID });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Pocket Planner', category: 'Productivity' });
    const { rows } = await h.t.pool.query('SELECT ios_listing IS NOT NULL AS ios, android_listing IS NOT NULL AS android FROM apps');
    expect(rows[0]).toEqual({ ios: true, android: true });
  });

  it('requests the store’s own endpoint built from the parsed id, never the given URL', async ({ api: h, store }) => {
    await post(h, { iosUrl: 'https://itunes.apple.com/fr/app/x/id1234567890?mt=8&uo=4' });
    const req = store.requests.at(-1)!;
    expect(req.store).toBe('app-store');
    expect(req.query).toMatchObject({ id: '1234567890', country: 'fr', entity: 'software' });
  });

  it('400 validation_failed for every problem at once, storing nothing', async ({ api: h }) => {
    const cases: Array<[unknown, string[]]> = [
      [{}, ['iosUrl']],
      [{ iosUrl: 'https://example.com/app/id1' }, ['iosUrl']],
      [{ iosUrl: 'http://apps.apple.com/us/app/x/id1' }, ['iosUrl']],
      [{ androidUrl: 'https://play.google.com/store/apps/details?id=not a package' }, ['androidUrl']],
      [
        { iosUrl: 'https://apps.apple.com:8443/us/app/x/id1', androidUrl: 'https://evil.com/store/apps/details?id=com.a.b' },
        ['androidUrl', 'iosUrl'],
      ],
      [{ iosUrl: IOS, extraContext: 'x'.repeat(2001) }, ['extraContext']],
      [{ iosUrl: IOS, color: 'red' }, ['color']],
      [{ iosUrl: 42 }, ['iosUrl']],
      // schema errors and URL errors in one answer
      [{ iosUrl: 'https://example.com/app/id1', color: 'red' }, ['color', 'iosUrl']],
      [{ androidUrl: 'ftp://play.google.com/x', extraContext: 7 }, ['androidUrl', 'extraContext']],
      [{ iosUrl: IOS, extraContext: 'nul \u0000 inside' }, ['extraContext']],
      [[IOS], ['body']],
    ];
    for (const [body, fields] of cases) {
      const problem = expectProblem(await post(h, body), 400, 'validation_failed');
      expect(problem.errors.map((e: { field: string }) => e.field).sort(), JSON.stringify(body)).toEqual(fields);
    }
    expect(await appCount(h)).toBe(0);
  });

  it('counts extraContext in code points: 2000 emoji are fine', async ({ api: h }) => {
    expect((await post(h, { iosUrl: IOS, extraContext: '🚀'.repeat(2000) })).statusCode).toBe(200);
  });

  it('422 store_app_not_found when the store has no such app', async ({ api: h, store }) => {
    store.set('app-store', '999', { body: lookupBody([]) });
    expectProblem(await post(h, { iosUrl: 'https://apps.apple.com/us/app/none/id999' }), 422, 'store_app_not_found');
    expectProblem(
      await post(h, { androidUrl: 'https://play.google.com/store/apps/details?id=com.nobody.here' }),
      422,
      'store_app_not_found',
    );
    expect(await appCount(h)).toBe(0);
  });

  it('502 store_unavailable with Retry-After when a store is down; nothing stored even if the other read worked', async ({
    api: h,
    store,
  }) => {
    store.set('google-play', 'com.example.trails', FAIL.serverError);
    const res = await post(h, { iosUrl: IOS, androidUrl: ANDROID });
    expectProblem(res, 502, 'store_unavailable');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(await appCount(h)).toBe(0);
  });

  it('401 without a key, before any store is asked', async ({ api: h, store }) => {
    const before = store.requests.length;
    expectProblem(await post(h, { iosUrl: IOS }, {}), 401, 'missing_api_key');
    expect(store.requests.length).toBe(before);
  });
});
