/**
 * The test support's own promise: every test database is its own, even when a test asks for
 * several at once (a split deployment beside an `all` one); clones are made ahead, so two callers
 * racing for the one made ahead must not both get it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';

const made: TestDatabase[] = [];
afterAll(async () => {
  await Promise.all(made.map((t) => t.drop()));
});

describe('test databases', () => {
  it('five asked for at once are five databases: a row written in one is in no other', async () => {
    // One first, so that a clone is being made ahead when the five ask.
    made.push(await createTestDatabase());
    const dbs = await Promise.all(Array.from({ length: 5 }, () => createTestDatabase()));
    made.push(...dbs);
    expect(new Set(dbs.map((t) => t.name)).size).toBe(5);
    await dbs[0].pool.query('CREATE TABLE only_here (n int)');
    for (const t of dbs.slice(1)) {
      const { rows } = await t.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'only_here'`);
      expect(rows[0].n).toBe(0);
    }
  });
});
