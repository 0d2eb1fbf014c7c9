/**
 * One account's concurrent creates share a statement and a commit (src/sets/charge-batches.ts),
 * and every answer and every row is what one-at-a-time creates would have given.
 */
import { describe, expect, it } from 'vitest';
import { grant } from '../../src/accounts/credits.ts';
import { ChargeBatches } from '../../src/sets/charge-batches.ts';
import { ChargeGather } from '../../src/sets/charge-gather.ts';
import { createAccount } from '../../src/accounts/accounts.ts';
import { createApiKey } from '../../src/accounts/api-keys.ts';
import { createTestApp } from '../support/app.ts';
import { insertApp } from '../support/fixtures.ts';

describe('ChargeBatches', () => {
  /** Runners whose calls the test sees and ends one by one. */
  function runners(fits: (items: number[]) => boolean) {
    const calls: number[][] = [];
    const pending: (() => void)[] = [];
    const gate = () => new Promise<void>((r) => pending.push(r));
    const batches = new ChargeBatches<number, string>({
      one: async (i) => {
        calls.push([i]);
        await gate();
        if (i < 0) throw new Error(`refused ${i}`);
        return `one ${i}`;
      },
      many: async (items) => {
        calls.push(items);
        await gate();
        return fits(items) ? items.map((i) => `many ${i}`) : null;
      },
    });
    const step = async () => {
      for (let i = 0; i < 20 && pending.length === 0; i++) await Promise.resolve();
      pending.shift()!();
      for (let i = 0; i < 20; i++) await Promise.resolve();
    };
    return { batches, calls, step };
  }

  it('runs the first create alone and those arriving meanwhile together, in order; other keys do not wait', async () => {
    const { batches, calls, step } = runners(() => true);
    const answers = [1, 2, 3, 4].map((i) => batches.charge('a', i));
    const other = batches.charge('b', 9);
    expect(calls).toEqual([[1], [9]]);
    await step();
    await step();
    expect(await other).toBe('one 9');
    expect(calls).toEqual([[1], [9], [2, 3, 4]]);
    await step();
    expect(await Promise.all(answers)).toEqual(['one 1', 'many 2', 'many 3', 'many 4']);
    expect(batches.combined).toBe(1);
  });

  it('a batch that does not fit runs again one by one, each with its own answer or refusal', async () => {
    const { batches, calls, step } = runners(() => false);
    const answers = [1, 2, -3, 4].map((i) => batches.charge('a', i).catch((e: Error) => e.message));
    for (let i = 0; i < 5; i++) await step();
    expect(calls).toEqual([[1], [2, -3, 4], [2], [-3], [4]]);
    expect(await Promise.all(answers)).toEqual(['one 1', 'one 2', 'refused -3', 'one 4']);
    expect(batches.combined).toBe(0);
  });
});

describe('creates of one account, concurrently', () => {
  it('share commits, and every answer, job and ledger row is exact', async () => {
    const h = await createTestApp();
    try {
      const appId = await insertApp(h.t.pool, h.account.id);
      await grant(h.t.pool, h.account.id, 1_000, new Date());
      const { rows: before } = await h.t.pool.query<{ remaining: number }>(
        'SELECT allowance + granted - used AS remaining FROM credit_periods WHERE account_id = $1',
        [h.account.id],
      );
      const n = 40;
      const create = () =>
        h.app.inject({ method: 'POST', url: '/api/v1/public/v1/screenshots', headers: h.auth, payload: { appId, device: 'iphone-69' } });
      // The first one alone: the checks before the charge are then cached, and the rest reach the charge together.
      const results = [await create()];
      results.push(...(await Promise.all(Array.from({ length: n - 1 }, create))));
      expect(results.map((r) => r.statusCode)).toEqual(Array(n).fill(201));
      const start = before[0].remaining;
      const remaining = results.map((r) => r.json().credits.remaining as number).sort((a, b) => b - a);
      expect(remaining).toEqual(Array.from({ length: n }, (_, i) => start - 5 * (i + 1)));
      const { rows } = await h.t.pool.query<{ jobs: number; charges: number; matching: number; moments: number; used: number }>(
        `SELECT (SELECT count(*) FROM jobs)::int AS jobs,
                (SELECT count(*) FROM credit_ledger WHERE kind = 'charge' AND amount = 5)::int AS charges,
                (SELECT count(*) FROM jobs j JOIN credit_ledger l ON l.job_id = j.id)::int AS matching,
                (SELECT count(DISTINCT created_at) FROM jobs)::int AS moments,
                (SELECT sum(used) FROM credit_periods WHERE account_id = $1)::int AS used`,
        [h.account.id],
      );
      expect(rows[0]).toMatchObject({ jobs: n, charges: n, matching: n, used: 5 * n });
      const ids = new Set(results.map((r) => r.json().jobId as string));
      expect(ids.size).toBe(n);
      // A transaction's jobs share its timestamp: fewer moments than jobs means creates shared commits.
      expect(rows[0].moments).toBeLessThan(n);
    } finally {
      await h.close();
    }
  });
});

describe('ChargeGather', () => {
  it('runs groups alone up to its limit, then those arriving meanwhile in one statement; a failed statement answers null to each', async () => {
    const calls: string[][] = [];
    const pending: ((fail: boolean) => void)[] = [];
    const gather = new ChargeGather<string, string>(async (groups) => {
      calls.push(groups);
      const fail = await new Promise<boolean>((r) => pending.push(r));
      if (fail) throw new Error('deadlock detected');
      return groups.map((g) => (g === 'short' ? null : `ok ${g}`));
    }, 1);
    const answers = ['a', 'b', 'short', 'c'].map((g) => gather.charge(g));
    expect(calls).toEqual([['a']]);
    pending.shift()!(false);
    await answers[0];
    for (let i = 0; i < 5; i++) await Promise.resolve();
    expect(calls).toEqual([['a'], ['b', 'short', 'c']]);
    expect(gather.combined).toBe(1);
    const late = gather.charge('d');
    pending.shift()!(false);
    expect(await Promise.all(answers)).toEqual(['ok a', 'ok b', null, 'ok c']);
    for (let i = 0; i < 5; i++) await Promise.resolve();
    pending.shift()!(true);
    expect(await late).toBeNull();
  });
});

describe('creates of many accounts, concurrently', () => {
  it("share statements, and each account's answers, jobs, ledger rows and balance are exact, a short one refused alone", async () => {
    const h = await createTestApp();
    try {
      const accounts: { id: string; key: string; appId: string; short: boolean }[] = [];
      for (let i = 0; i < 8; i++) {
        // The last account (free: 50 credits) can pay for only part of what it asks: the rest of its creates are 402.
        const short = i === 7;
        const account = await createAccount(h.t.pool, { name: `gathered ${i}`, plan: short ? 'free' : 'scale' });
        const key = await createApiKey(h.t.pool, account.id, 'test');
        accounts.push({ id: account.id, key: key.key, appId: await insertApp(h.t.pool, account.id), short });
      }
      const create = (a: (typeof accounts)[number]) =>
        h.app.inject({
          method: 'POST',
          url: '/api/v1/public/v1/screenshots',
          headers: { authorization: `Bearer ${a.key}` },
          payload: { appId: a.appId, device: 'iphone-69' },
        });
      // One create each first: the checks before the charge are then cached, and the rest reach the charge together.
      for (const a of accounts) expect((await create(a)).statusCode).toBe(201);
      const { rows: before } = await h.t.pool.query<{ account_id: string; remaining: number }>(
        'SELECT account_id, allowance + granted - used AS remaining FROM credit_periods WHERE account_id = ANY($1)',
        [accounts.map((a) => a.id)],
      );
      const start = new Map(before.map((r) => [r.account_id, r.remaining]));
      const n = 12;
      const results = await Promise.all(accounts.flatMap((a) => Array.from({ length: n }, () => create(a).then((r) => ({ a, r })))));
      for (const a of accounts) {
        const mine = results.filter((x) => x.a === a).map((x) => x.r);
        const ok = mine.filter((r) => r.statusCode === 201);
        const affordable = Math.min(n, Math.floor(start.get(a.id)! / 5));
        expect(affordable < n).toBe(a.short);
        expect(ok).toHaveLength(affordable);
        expect(mine.filter((r) => r.statusCode === 402)).toHaveLength(n - affordable);
        // Each 201 tells the balance right after its own charge, as if the creates had run one by one.
        const remaining = ok.map((r) => r.json().credits.remaining as number).sort((x, y) => y - x);
        expect(remaining).toEqual(Array.from({ length: affordable }, (_, i) => start.get(a.id)! - 5 * (i + 1)));
        const { rows } = await h.t.pool.query<{ jobs: number; charges: number; used: number; left: number }>(
          `SELECT (SELECT count(*) FROM jobs WHERE account_id = $1)::int AS jobs,
                  (SELECT count(*) FROM credit_ledger WHERE account_id = $1 AND kind = 'charge' AND amount = 5)::int AS charges,
                  (SELECT allowance + granted - used FROM credit_periods WHERE account_id = $1)::int AS left`,
          [a.id],
        );
        expect(rows[0]).toMatchObject({ jobs: affordable + 1, charges: affordable + 1, left: start.get(a.id)! - 5 * affordable });
        const { rows: matching } = await h.t.pool.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM jobs WHERE account_id = $1 AND id = ANY($2)',
          [a.id, ok.map((r) => r.json().jobId as string)],
        );
        expect(matching[0].n).toBe(affordable);
      }
      // Jobs of different accounts committed in one transaction share its timestamp.
      const { rows: shared } = await h.t.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM (SELECT created_at FROM jobs GROUP BY created_at HAVING count(DISTINCT account_id) > 1) x`,
      );
      expect(shared[0].n).toBeGreaterThan(0);
    } finally {
      await h.close();
    }
  });
});
