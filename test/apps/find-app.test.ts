/**
 * findApp keeps each app's parsed listings in the process (they change only with listings_version,
 * test/apps/own-listing.test.ts) and reads only the small columns after the first time: the answer
 * must be the same either way.
 */
import { expect } from 'vitest';
import { findApp, setGuidance } from '../../src/apps/apps.ts';
import { it } from '../support/context.ts';
import { accountWithKey, insertApp, sampleListing } from '../support/fixtures.ts';

it('answers the same app from the cache as from the row, with its guidance as it is now', async ({ db }) => {
  const { account } = await accountWithKey(db.pool, 'pro', 'owner');
  const appId = await insertApp(db.pool, account.id, sampleListing({ name: 'Cached Planner' }));
  const first = await findApp(db.pool, account.id, appId);
  expect(first?.iosListing?.name).toBe('Cached Planner');
  const { rows } = await db.pool.query<{ created_at: Date }>('SELECT created_at FROM apps WHERE id = $1', [appId]);

  expect(await setGuidance(db.pool, account.id, appId, 'For nurses on night shifts')).toBe(true);
  const second = await findApp(db.pool, account.id, appId);
  expect(second).toEqual({ ...first, extraContext: 'For nurses on night shifts' });
  expect(second?.createdAt).toEqual(rows[0].created_at);
  // Shared between callers, so nobody may change them.
  expect(() => {
    (second!.iosListing as { name: string }).name = 'changed';
  }).toThrow(TypeError);
  expect(Object.isFrozen(second!.iosListing!.screenshots)).toBe(true);
});

it('a cached app is still unknown to another account', async ({ db }) => {
  const { account } = await accountWithKey(db.pool, 'pro', 'owner');
  const { account: other } = await accountWithKey(db.pool, 'pro', 'other');
  const appId = await insertApp(db.pool, account.id);
  expect(await findApp(db.pool, account.id, appId)).not.toBeNull();
  expect(await findApp(db.pool, other.id, appId)).toBeNull();
  expect(await findApp(db.pool, account.id, 'app_00000000000000000000000000')).toBeNull();
});
