import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAN_IDS } from '../../src/accounts/plans.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';

describe('plans', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.drop());

  it('the plans table holds exactly the ids the API accepts, with CONTRACT’s monthly credits', async () => {
    const { rows } = await t.pool.query<{ id: string; monthly_credits: number }>(
      'SELECT id, monthly_credits FROM plans ORDER BY monthly_credits',
    );
    expect(rows.map((r) => r.id)).toEqual([...PLAN_IDS]);
    expect(Object.fromEntries(rows.map((r) => [r.id, r.monthly_credits]))).toEqual({ free: 50, starter: 500, pro: 2500, scale: 10000 });
  });
});
