/**
 * A process checks a create against its own snapshot of the app (src/sets/app-snapshots.ts). Changes
 * it never hears of (another process, or SQL as here) must still decide: the charge writes only
 * while the app says what the check read, and a refusal is only answered after reading again.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { grant } from '../../src/accounts/credits.ts';
import { createTestApp, expectProblem, uploadIphoneScreen, type TestApp } from '../support/app.ts';
import { insertApp, sampleListing } from '../support/fixtures.ts';

const SETS = '/api/v1/public/v1/screenshots';
const sparse = sampleListing({ description: 'Plan meals for the week in minutes.', subtitle: null });
const GUIDANCE = [
  'Build a shopping list from your meal plan in one tap.',
  'Save your favourite recipes with photos and notes.',
  'Share the week’s plan with your family.',
  'Track what is left in the fridge before it goes off.',
].join('\n');

describe('creates checked from a snapshot of the app that has since gone stale', () => {
  let h: TestApp;
  beforeEach(async () => {
    h = await createTestApp();
    await grant(h.t.pool, h.account.id, 1000, new Date());
  });
  afterEach(async () => h.close());

  const create = (body: object) => h.app.inject({ method: 'POST', url: SETS, headers: h.auth, payload: body });
  const moved = async () =>
    (
      await h.t.pool.query(
        `SELECT (SELECT count(*) FROM jobs)::int AS jobs, (SELECT count(*) FROM credit_ledger WHERE kind = 'charge')::int AS charges,
                (SELECT coalesce(sum(used), 0) FROM credit_periods)::int AS used`,
      )
    ).rows[0] as { jobs: number; charges: number; used: number };

  it('guidance removed behind its back: the set is refused before the charge, alone and in a batch', async () => {
    const appId = await insertApp(h.t.pool, h.account.id, sparse);
    await h.t.pool.query('UPDATE apps SET extra_context = $2 WHERE id = $1', [appId, GUIDANCE]);
    expect((await create({ appId, device: 'iphone-69', count: 4 })).statusCode).toBe(201);
    expect(await moved()).toEqual({ jobs: 1, charges: 1, used: 5 });

    await h.t.pool.query('UPDATE apps SET extra_context = NULL WHERE id = $1', [appId]);
    expectProblem(await create({ appId, device: 'iphone-69', count: 4 }), 422, 'cannot_fill_set');
    // Concurrent creates share one charge statement (the first alone, the rest together).
    await h.t.pool.query('UPDATE apps SET extra_context = $2 WHERE id = $1', [appId, GUIDANCE]);
    expect((await create({ appId, device: 'iphone-69', count: 4 })).statusCode).toBe(201);
    await h.t.pool.query('UPDATE apps SET extra_context = NULL WHERE id = $1', [appId]);
    const answers = await Promise.all(Array.from({ length: 6 }, () => create({ appId, device: 'iphone-69', count: 4 })));
    for (const res of answers) expectProblem(res, 422, 'cannot_fill_set');
    expect(await moved()).toEqual({ jobs: 2, charges: 2, used: 10 });
  });

  it('its only screen deleted behind its back: nothing to frame is refused before the charge', async () => {
    const mac = await insertApp(h.t.pool, h.account.id, sampleListing({ platform: 'mac' }));
    await uploadIphoneScreen(h, mac);
    expect((await create({ appId: mac, device: 'iphone-69', count: 3 })).statusCode).toBe(201);
    await h.t.pool.query('UPDATE screens SET deleted_at = now() WHERE app_id = $1', [mac]);
    const answers = await Promise.all(Array.from({ length: 4 }, () => create({ appId: mac, device: 'iphone-69', count: 3 })));
    for (const res of answers) expect(expectProblem(res, 422, 'cannot_fill_set').detail).toMatch(/upload iPhone screens/i);
    expect(await moved()).toEqual({ jobs: 1, charges: 1, used: 5 });
  });

  it('its listing replaced behind its back (a store URL added elsewhere): the set is checked again before the charge', async () => {
    const appId = await insertApp(h.t.pool, h.account.id);
    expect((await create({ appId, device: 'iphone-69', count: 4 })).statusCode).toBe(201);
    // What PATCH /apps/{appId} writes in another process: a listing without iPhone screenshots that says too little.
    await h.t.pool.query('UPDATE apps SET ios_listing = $2, listings_version = listings_version + 1 WHERE id = $1', [
      appId,
      { ...sparse, screenshots: { iphone: [], ipad: [], 'android-phone': [], 'android-tablet': [] } },
    ]);
    expectProblem(await create({ appId, device: 'iphone-69', count: 4 }), 422, 'cannot_fill_set');
    const answers = await Promise.all(Array.from({ length: 4 }, () => create({ appId, device: 'iphone-69', count: 4 })));
    for (const res of answers) expectProblem(res, 422, 'cannot_fill_set');
    expect(await moved()).toEqual({ jobs: 1, charges: 1, used: 5 });
  });

  it('guidance added behind its back: a set refused before is made, charged once', async () => {
    const appId = await insertApp(h.t.pool, h.account.id, sparse);
    expectProblem(await create({ appId, device: 'iphone-69', count: 4 }), 422, 'cannot_fill_set');
    await h.t.pool.query('UPDATE apps SET extra_context = $2 WHERE id = $1', [appId, GUIDANCE]);
    const answers = await Promise.all(Array.from({ length: 3 }, () => create({ appId, device: 'iphone-69', count: 4 })));
    expect(answers.map((r) => r.statusCode)).toEqual([201, 201, 201]);
    expect(await moved()).toEqual({ jobs: 3, charges: 3, used: 15 });
  });
});
