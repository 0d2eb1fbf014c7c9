import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgAnswerCache } from '../../src/captions/model/answer-cache.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { accountWithKey } from '../support/fixtures.ts';

describe('caption answers in PostgreSQL', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => t.drop());

  it('keeps answers per account and key, merges later ones, and forgets them after 7 days', async () => {
    const a = (await accountWithKey(t.pool, 'free', 'A')).account.id;
    const b = (await accountWithKey(t.pool, 'free', 'B')).account.id;
    const cache = pgAnswerCache(t.pool);
    await cache.put(a, 'k', { p1: '{"slides":[]}' });
    await cache.put(a, 'k', { p2: 'two' });
    expect(await cache.get(a, 'k')).toEqual({ p1: '{"slides":[]}', p2: 'two' });
    expect(await cache.get(b, 'k')).toEqual({});
    expect(await cache.get(a, 'other')).toEqual({});
    await t.pool.query(`UPDATE caption_answers SET created_at = now() - interval '8 days'`);
    expect(await cache.get(a, 'k')).toEqual({});
    await cache.put(b, 'k2', { p: 'x' });
    const { rows } = await t.pool.query(`SELECT account_id FROM caption_answers`);
    expect(rows).toEqual([{ account_id: b }]);
  });
});
