/** GET/PUT /public/v1/apps/{appId}/brand: the kit stored with the app, checked, and scoped to the account. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRAND_FONT_IDS } from '../../src/core/themes.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { accountWithKey, insertApp } from '../support/fixtures.ts';

let h: TestApp;
beforeAll(async () => {
  h = await createTestApp();
});
afterAll(async () => h?.close());

const url = (appId: string) => `/api/v1/public/v1/apps/${appId}/brand`;
const get = (appId: string, auth = h.auth) => h.app.inject({ method: 'GET', url: url(appId), headers: auth });
const put = (appId: string, payload: unknown, auth = h.auth) =>
  h.app.inject({ method: 'PUT', url: url(appId), headers: auth, payload: payload as object });

describe('brand kit', () => {
  it('starts at the defaults with colours from the name until the icon is read, and stores a replaced kit', async () => {
    const appId = await insertApp(h.t.pool, h.account.id);
    const first = await get(appId);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      appId,
      colors: null,
      font: 'noto-sans',
      iconBadge: false,
      defaultTheme: 'soft',
      iconColors: null,
      effective: { source: 'app-name' },
    });

    const saved = await put(appId, { colors: { primary: '#0b3d91', secondary: '#1F6FEB' }, iconBadge: true, defaultTheme: 'dark' });
    expect(saved.statusCode).toBe(200);
    const expected = {
      appId,
      colors: { primary: '#0B3D91', secondary: '#1F6FEB' },
      font: 'noto-sans',
      iconBadge: true,
      defaultTheme: 'dark',
      effective: { primary: '#0B3D91', secondary: '#1F6FEB', textColor: '#FFFFFF', source: 'brand-kit' },
    };
    expect(saved.json()).toMatchObject(expected);
    expect((await get(appId)).json()).toMatchObject(expected);

    // PUT replaces the whole kit: omitted fields go back to their defaults.
    const reset = await put(appId, {});
    expect(reset.json()).toMatchObject({ colors: null, iconBadge: false, defaultTheme: 'soft', effective: { source: 'app-name' } });
  });

  it('shows the icon colours once a set has read them', async () => {
    const appId = await insertApp(h.t.pool, h.account.id);
    const icon = { primary: '#127A12', secondary: '#0F6B4F', textColor: '#FFFFFF' };
    await h.t.pool.query('UPDATE apps SET icon_colors = $2 WHERE id = $1', [appId, JSON.stringify(icon)]);
    expect((await get(appId)).json()).toMatchObject({ iconColors: icon, effective: { ...icon, source: 'icon' } });
  });

  it('refuses colours no text colour can be read on, bad shapes and unknown values, and changes nothing', async () => {
    const appId = await insertApp(h.t.pool, h.account.id);
    await put(appId, { defaultTheme: 'bold' });
    const unreadable = await put(appId, { colors: { primary: '#000080', secondary: '#FFFF00' } });
    expect(unreadable.statusCode).toBe(400);
    expect(unreadable.json()).toMatchObject({ code: 'validation_failed', errors: [{ field: 'colors' }] });
    expect(unreadable.json().errors[0].message).toMatch(/WCAG AA/);
    for (const body of [
      { colors: { primary: 'red', secondary: '#FFFFFF' } },
      { colors: { secondary: '#FFFFFF' } },
      { colors: { primary: '#6B2FBF', accent: 'amber' } },
      { font: 'comic-sans' },
      { defaultTheme: 'neon' },
      { iconBadge: 'yes' },
      { colour: '#FFFFFF' },
    ]) {
      const res = await put(appId, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
    expect((await get(appId)).json()).toMatchObject({ defaultTheme: 'bold', colors: null });
  });

  it('stores each bundled font and refuses a font it does not bundle, as problem+json, keeping the stored one', async () => {
    const appId = await insertApp(h.t.pool, h.account.id);
    expect(BRAND_FONT_IDS).toEqual(['noto-sans', 'inter', 'poppins', 'playfair-display', 'nunito']);
    for (const font of BRAND_FONT_IDS) {
      const saved = await put(appId, { font });
      expect(saved.statusCode, font).toBe(200);
      expect(saved.json().font).toBe(font);
      expect((await get(appId)).json().font).toBe(font);
    }
    for (const font of ['montserrat', 'Inter', 'sg-brand-inter', '']) {
      const res = await put(appId, { font });
      expect(res.statusCode, font).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.json()).toMatchObject({ status: 400, code: 'validation_failed' });
    }
    expect((await get(appId)).json().font).toBe('nunito');
  });

  it("another account's app, a missing app and a malformed id are 404 app_not_found; no key is 401", async () => {
    const other = await accountWithKey(h.t.pool, 'free', 'Other');
    const theirs = await insertApp(h.t.pool, other.account.id);
    await put(theirs, { defaultTheme: 'dark' }, { authorization: `Bearer ${other.key}` });
    for (const appId of [theirs, 'app_01JD2ZK5T8Q3W4E5R6T7Y8U9CD', 'nope']) {
      expect((await get(appId)).json()).toMatchObject({ status: 404, code: 'app_not_found' });
      expect((await put(appId, { defaultTheme: 'bold' })).json()).toMatchObject({ status: 404, code: 'app_not_found' });
    }
    // Their kit is untouched.
    expect((await get(theirs, { authorization: `Bearer ${other.key}` })).json()).toMatchObject({ defaultTheme: 'dark' });
    expect((await h.app.inject({ method: 'GET', url: url(theirs) })).statusCode).toBe(401);
  });
});
