import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getBalance, grant, periodEnd, periodStart, refund } from '../../src/accounts/credits.ts';
import { transaction } from '../../src/db/pool.ts';
import { createScreenshotSet, SCREENSHOT_SET_COST } from '../../src/sets/create.ts';
import { isProblem } from '../../src/core/problem.ts';
import { createTestDatabase, testServers, type TestDatabase } from '../support/db.ts';
import { accountWithKey, insertApp } from '../support/fixtures.ts';

const NOV = new Date('2026-11-21T12:00:00Z');

async function ledgerSum(t: TestDatabase, accountId: string, period: string) {
  const { rows } = await t.pool.query<{ kind: string; total: number; n: number }>(
    `SELECT kind, sum(amount)::int AS total, count(*)::int AS n FROM credit_ledger WHERE account_id = $1 AND period_start = $2 GROUP BY kind`,
    [accountId, period],
  );
  return Object.fromEntries(rows.map((r) => [r.kind, { total: r.total, n: r.n }]));
}

/**
 * Charges go through createScreenshotSet, the one statement the service charges with (app check,
 * guarded charge, ledger row and job together), so these tests hold the SQL that runs in production.
 */
async function chargeSet(t: TestDatabase, accountId: string, now: Date) {
  const appId = await insertApp(t.pool, accountId);
  const { body } = await createScreenshotSet(t.pool, accountId, { appId, device: 'iphone-69' }, { now });
  return { remaining: body.credits.remaining, periodStart: periodStart(now), jobId: body.jobId };
}

describe('periods', () => {
  it('are calendar months in UTC', () => {
    expect(periodStart(new Date('2026-11-30T23:59:59.999Z'))).toBe('2026-11-01');
    expect(periodStart(new Date('2026-12-01T00:00:00Z'))).toBe('2026-12-01');
    expect(periodEnd(new Date('2026-12-31T23:00:00Z')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });
});

for (const server of testServers()) {
  describe(`credits on the ${server.name} server`, () => {
    let t: TestDatabase;
    beforeEach(async () => {
      t = await createTestDatabase(server, 40);
    });
    afterEach(async () => t.drop());

    it('100 concurrent charges of 5 on 50 credits: exactly 10 succeed', async () => {
      const { account } = await accountWithKey(t.pool);
      const appId = await insertApp(t.pool, account.id);
      const attempts = await Promise.allSettled(
        Array.from({ length: 100 }, () =>
          createScreenshotSet(t.pool, account.id, { appId, device: 'iphone-69' }, { now: NOV }).then((r) => r.body.credits),
        ),
      );
      const ok = attempts.filter((a) => a.status === 'fulfilled');
      const refused = attempts.filter((a) => a.status === 'rejected');
      expect(ok).toHaveLength(10);
      expect(refused).toHaveLength(90);
      for (const r of refused) expect(isProblem(r.reason) && r.reason.code === 'insufficient_credits').toBe(true);
      const remaining = ok.map((a) => (a as PromiseFulfilledResult<{ remaining: number }>).value.remaining).sort((a, b) => a - b);
      expect(remaining).toEqual([0, 5, 10, 15, 20, 25, 30, 35, 40, 45]);
      const balance = await getBalance(t.pool, account.id, NOV);
      expect(balance).toMatchObject({ allowance: 50, used: 50, remaining: 0 });
      expect(await ledgerSum(t, account.id, '2026-11-01')).toEqual({ charge: { total: 50, n: 10 } });
    });

    it('refuses a charge that would go below zero without changing anything', async () => {
      const { account } = await accountWithKey(t.pool);
      await grant(t.pool, account.id, 1, NOV);
      for (let i = 0; i < 10; i++) await chargeSet(t, account.id, NOV);
      const jobs = async () => (await t.pool.query('SELECT count(*)::int AS n FROM jobs')).rows[0].n;
      expect(await jobs()).toBe(10);
      const err = await chargeSet(t, account.id, NOV).catch((e) => e);
      expect(await jobs()).toBe(10);
      expect(err.status).toBe(402);
      expect(err.extensions).toEqual({ cost: 5, remaining: 1, resetsAt: '2026-12-01T00:00:00Z' });
      expect((await getBalance(t.pool, account.id, NOV)).remaining).toBe(1);
    });

    it('writes a ledger row for charge, refund and grant, and the ledger sums to the balance', async () => {
      const { account } = await accountWithKey(t.pool, 'starter');
      const c = await chargeSet(t, account.id, NOV);
      await refund(t.pool, account.id, c.periodStart, SCREENSHOT_SET_COST, c.jobId, NOV);
      await chargeSet(t, account.id, NOV);
      await grant(t.pool, account.id, 20, NOV, 'support ticket 12');
      const sums = await ledgerSum(t, account.id, '2026-11-01');
      expect(sums).toEqual({ charge: { total: 10, n: 2 }, refund: { total: 5, n: 1 }, grant: { total: 20, n: 1 } });
      const balance = await getBalance(t.pool, account.id, NOV);
      expect(balance).toMatchObject({ allowance: 520, used: 5, remaining: 515 });
      expect(balance.remaining).toBe(500 + sums.grant.total - sums.charge.total + sums.refund.total);
    });

    it('refunds a job at most once', async () => {
      const { account } = await accountWithKey(t.pool);
      const c = await chargeSet(t, account.id, NOV);
      await transaction(t.pool, (tx) => refund(tx, account.id, c.periodStart, 5, c.jobId, NOV));
      await expect(transaction(t.pool, (tx) => refund(tx, account.id, c.periodStart, 5, c.jobId, NOV))).rejects.toThrow();
      expect((await getBalance(t.pool, account.id, NOV)).remaining).toBe(50);
    });

    it('refunds a job that fails after the month turned into the new month', async () => {
      const { account } = await accountWithKey(t.pool);
      const c = await chargeSet(t, account.id, new Date('2026-11-30T23:59:59Z'));
      const dec = new Date('2026-12-01T00:00:05Z');
      await transaction(t.pool, (tx) => refund(tx, account.id, c.periodStart, 5, c.jobId, dec));
      expect(await getBalance(t.pool, account.id, dec)).toMatchObject({ allowance: 55, used: 0, remaining: 55 });
      expect(await ledgerSum(t, account.id, '2026-12-01')).toEqual({ refund: { total: 5, n: 1 } });
    });

    it('undoes the charge in its own month when the refunding clock is behind the charging one', async () => {
      const { account } = await accountWithKey(t.pool);
      const c = await chargeSet(t, account.id, new Date('2026-12-01T00:00:01Z'));
      await transaction(t.pool, (tx) => refund(tx, account.id, c.periodStart, 5, c.jobId, new Date('2026-11-30T23:59:59Z')));
      expect(await getBalance(t.pool, account.id, new Date('2026-12-01T00:00:02Z'))).toMatchObject({
        allowance: 50,
        used: 0,
        remaining: 50,
      });
      expect(await ledgerSum(t, account.id, '2026-12-01')).toEqual({ charge: { total: 5, n: 1 }, refund: { total: 5, n: 1 } });
    });

    it('rolls over to a fresh allowance at the month boundary (UTC)', async () => {
      const { account } = await accountWithKey(t.pool);
      const lastInstant = new Date('2026-11-30T23:59:59.999Z');
      const firstInstant = new Date('2026-12-01T00:00:00.000Z');
      await grant(t.pool, account.id, 10, lastInstant);
      for (let i = 0; i < 12; i++) await chargeSet(t, account.id, lastInstant);
      await expect(chargeSet(t, account.id, lastInstant)).rejects.toMatchObject({ code: 'insufficient_credits' });
      const dec = await chargeSet(t, account.id, firstInstant);
      expect(dec).toMatchObject({ remaining: 45, periodStart: '2026-12-01' });
      expect(await getBalance(t.pool, account.id, firstInstant)).toMatchObject({
        allowance: 50,
        used: 5,
        remaining: 45,
        resetsAt: new Date('2027-01-01T00:00:00Z'),
      });
      expect(await getBalance(t.pool, account.id, lastInstant)).toMatchObject({ allowance: 60, used: 60, remaining: 0 });
    });
  });
}
