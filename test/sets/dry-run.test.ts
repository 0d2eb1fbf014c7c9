import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, expectProblem, uploadIphoneScreen, type TestApp } from '../support/app.ts';
import { accountWithKey, insertApp, sampleListing } from '../support/fixtures.ts';
import { ensurePeriod, periodStart } from '../../src/accounts/credits.ts';

const SETS = '/api/v1/public/v1/screenshots';
const ESTIMATE = `${SETS}/estimate`;

describe('POST /screenshots/estimate, the dry run: every check a create makes, nothing created or charged', () => {
  let h: TestApp;
  beforeEach(async () => {
    h = await createTestApp();
  });
  afterEach(async () => h.close());

  const ask = (body: object, auth: Record<string, string> = h.auth) =>
    h.app.inject({ method: 'POST', url: ESTIMATE, headers: auth, payload: body });
  const moved = async () =>
    (
      await h.t.pool.query(
        `SELECT (SELECT count(*) FROM jobs)::int AS jobs, (SELECT count(*) FROM credit_ledger)::int AS ledger,
                (SELECT coalesce(sum(used), 0) FROM credit_periods)::int AS used`,
      )
    ).rows[0];

  it('answers 200 with the slides, the price, the balance and the warnings a create would give', async () => {
    const appId = await insertApp(h.t.pool, h.account.id, sampleListing({ platform: 'mac' }));
    await uploadIphoneScreen(h, appId);
    const res = await ask({ appId, device: 'iphone-69', count: 3 });
    expect(res.statusCode).toBe(200);
    const balance = (await h.app.inject({ method: 'GET', url: '/api/v1/public/v1/account', headers: h.auth })).json().credits.remaining;
    expect(res.json()).toEqual({
      slides: 3,
      credits: { cost: 5, remaining: balance },
      warnings: [expect.stringContaining("This is a Mac app's listing")],
    });
    expect(res.headers.location).toBeUndefined();
    expect(await moved()).toEqual({ jobs: 0, ledger: 0, used: 0 });
    // The create itself answers the same warnings, and charges.
    const created = await h.app.inject({ method: 'POST', url: SETS, headers: h.auth, payload: { appId, device: 'iphone-69', count: 3 } });
    expect(created.json().warnings).toEqual(res.json().warnings);
  });

  it('refuses what the create refuses: cannot_fill_set, too few credits, a bad body', async () => {
    const sparse = await insertApp(
      h.t.pool,
      h.account.id,
      sampleListing({ description: 'Plan meals for the week in minutes.', subtitle: null }),
    );
    expectProblem(await ask({ appId: sparse, device: 'iphone-69', count: 6 }), 422, 'cannot_fill_set');
    const appId = await insertApp(h.t.pool, h.account.id);
    expectProblem(await ask({ appId, device: 'iphone-69', count: 0 }), 400, 'validation_failed');
    await ensurePeriod(h.t.pool, h.account.id, periodStart(new Date()));
    await h.t.pool.query(`UPDATE credit_periods SET used = allowance + granted - 3 WHERE account_id = $1`, [h.account.id]);
    const poor = expectProblem(await ask({ appId, device: 'iphone-69', count: 3 }), 402, 'insufficient_credits');
    expect(poor).toMatchObject({ cost: 5, remaining: 3 });
    expect(await moved()).toMatchObject({ jobs: 0, ledger: 0 });
  });

  it('another account’s app is app_not_found, and a request without a key is 401', async () => {
    const other = await accountWithKey(h.t.pool, 'free', 'Other');
    const theirs = await insertApp(h.t.pool, other.account.id);
    expectProblem(await ask({ appId: theirs, device: 'iphone-69', count: 3 }), 404, 'app_not_found');
    expectProblem(await ask({ appId: theirs, device: 'iphone-69', count: 3 }, {}), 401, 'missing_api_key');
    expect(await moved()).toEqual({ jobs: 0, ledger: 0, used: 0 });
  });
  it('counts the slides of a narrative or of own captions, and prices each locale', async () => {
    const appId = await insertApp(h.t.pool, h.account.id);
    await uploadIphoneScreen(h, appId);
    const narratives = (await h.app.inject({ method: 'GET', url: '/api/v1/public/v1/narratives', headers: h.auth })).json();
    const story = narratives.narratives[0];
    expect((await ask({ appId, device: 'iphone-69', narrativeId: story.id })).json().slides).toBe(story.roles.length);
    const own = await ask({ appId, device: 'iphone-69', slides: [{ headline: 'Plan Meals Fast' }, { headline: 'Shop From One List' }] });
    expect(own.json()).toMatchObject({ slides: 2, credits: { cost: 5 } });
    const twice = await ask({ appId, device: 'iphone-69', count: 3, locales: ['en-US', 'en-GB'] });
    expect(twice.json()).toMatchObject({ slides: 3, credits: { cost: 10 } });
    expect(await moved()).toEqual({ jobs: 0, ledger: 0, used: 0 });
  });

  it('POST /screenshots refuses the old dryRun flag, naming the estimate, and charges nothing', async () => {
    const appId = await insertApp(h.t.pool, h.account.id);
    await uploadIphoneScreen(h, appId);
    for (const dryRun of [true, false]) {
      const res = await h.app.inject({
        method: 'POST',
        url: SETS,
        headers: h.auth,
        payload: { appId, device: 'iphone-69', count: 3, dryRun },
      });
      const problem = expectProblem(res, 400, 'validation_failed');
      expect(problem.errors).toEqual([{ field: 'dryRun', message: expect.stringContaining('POST /public/v1/screenshots/estimate') }]);
    }
    expect(await moved()).toEqual({ jobs: 0, ledger: 0, used: 0 });
  });
});
