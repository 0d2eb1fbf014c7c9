/** POST /screenshots with the user's own captions (CONTRACT "Captions you write yourself"). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import { createTestApp, expectProblem, type TestApp } from '../support/app.ts';
import { primaryServer } from '../support/db.ts';
import { accountWithKey, insertApp, sampleListing } from '../support/fixtures.ts';

const SETS = '/api/v1/public/v1/screenshots';
const SCREEN = 'scr_01JD2ZK5T8Q3W4E5R6T7Y8V9CD';
const own = [
  { headline: 'Your week, finally under control' },
  { headline: 'Plans that move when you do', subheadline: 'Drag a task to tomorrow and everything after it follows.', screenId: SCREEN },
];

describe('own captions', () => {
  let h: TestApp;
  let appId: string;
  beforeEach(async () => {
    h = await createTestApp({ server: primaryServer() });
    appId = await insertApp(h.t.pool, h.account.id);
    // The screen a slide names must be one of the app's (404 screen_not_found otherwise).
    await h.t.pool.query(
      `INSERT INTO screens (id, account_id, app_id, family, content_type, width, height, bytes, sha256, object_key) VALUES ($1, $2, $3, 'iphone', 'image/png', 1290, 2796, 1, 'x', 'screens/x.png')`,
      [SCREEN, h.account.id, appId],
    );
  });
  afterEach(async () => h.close());
  const create = (body: object, auth = h.auth) => h.app.inject({ method: 'POST', url: SETS, headers: auth, payload: body });
  const charges = async () =>
    (await h.t.pool.query(`SELECT count(*)::int AS n FROM credit_ledger WHERE kind = 'charge'`)).rows[0].n as number;

  it('accepts them at the same price and stores them verbatim with the screen id', async () => {
    const res = await create({ appId, device: 'iphone-69', slides: own });
    expect(res.statusCode).toBe(201);
    // A screen of another app is not this app's.
    expectProblem(
      await create({ appId: await insertApp(h.t.pool, h.account.id), device: 'iphone-69', slides: own }),
      404,
      'screen_not_found',
    );
    expect(res.json().credits.cost).toBe(5);
    const { rows } = await h.t.pool.query('SELECT request FROM jobs WHERE id = $1', [res.json().jobId]);
    expect(rows[0].request.slides).toEqual(own);
    expect(rows[0].request.count).toBe(2);
    // One source of defaults: the stored request says what the planner will use (a subheadline makes it long).
    expect(rows[0].request.captionLength).toBe('long');
    expect(rows[0].request.captionStyle).toBe('aso-expert');
  });

  it('refuses count or narrativeId with them, bad lengths and a malformed screen id, charging nothing', async () => {
    for (const body of [
      { appId, device: 'iphone-69', slides: own, count: 2 },
      { appId, device: 'iphone-69', slides: own, narrativeId: 'single-hero' },
      { appId, device: 'iphone-69', slides: [] },
      { appId, device: 'iphone-69', slides: Array.from({ length: 11 }, () => ({ headline: 'x' })) },
      { appId, device: 'iphone-69', slides: [{ headline: 'x'.repeat(61) }] },
      { appId, device: 'iphone-69', slides: [{ headline: 'ok', subheadline: 'y'.repeat(141) }] },
      { appId, device: 'iphone-69', slides: [{ headline: 'ok', screenId: 'scr_nope' }] },
      { appId, device: 'iphone-69', slides: [{ headline: 'ok', extra: 1 }] },
    ])
      expectProblem(await create(body), 400, 'validation_failed');
    expect(await charges()).toBe(0);
  });

  it("are refused without a key, and another account's app stays unknown", async () => {
    expectProblem(await create({ appId, device: 'iphone-69', slides: own }, {} as never), 401, 'missing_api_key');
    const other = await accountWithKey(h.t.pool);
    const theirs = await insertApp(h.t.pool, other.account.id);
    expectProblem(await create({ appId: theirs, device: 'iphone-69', slides: own }), 404, 'app_not_found');
    expect(await charges()).toBe(0);
  });

  it('plans exactly those slides with that text, picking the rest', () => {
    const listing = sampleListing();
    const r = planScreenshotSet({ listings: [listing], extraContext: null, request: { device: 'iphone-69', slides: own } });
    expect(r.slides.map((s) => [s.headline, s.subheadline, s.screenId])).toEqual([
      [own[0].headline, null, undefined],
      [own[1].headline, own[1].subheadline, SCREEN],
    ]);
    expect(r.slides[1].screenshotUrl).toBeNull();
    expect(r.slides[0].background.colors.length).toBe(2);
  });
});
