/**
 * Fair claiming (src/queue/claim.ts): one account's hundred queued sets do not hold another's, and
 * no account runs more than its cap, however many claimers race.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claimJobs, completeJob, setJobs, type SetJobOutcome } from '../../src/sets/job-queue.ts';
import { Worker } from '../../src/queue/worker.ts';
import type { ScreenshotSetResult } from '../../src/core/set.ts';
import { createTestDatabase, testServers, type TestDatabase } from '../support/db.ts';
import { accountWithKey, insertApp } from '../support/fixtures.ts';
import { enqueueJobs, until } from '../support/jobs.ts';

const outcome: SetJobOutcome = { result: { device: 'iphone-69', slides: [], warnings: [] } as unknown as ScreenshotSetResult };

for (const server of testServers()) {
  describe(`fair claiming on the ${server.name} server`, () => {
    let t: TestDatabase;
    const accounts: { id: string; app: string }[] = [];
    beforeEach(async () => {
      t = await createTestDatabase(server, 30);
      accounts.length = 0;
      for (const name of ['busy', 'quiet', 'third']) {
        const id = (await accountWithKey(t.pool, 'pro', name)).account.id;
        accounts.push({ id, app: await insertApp(t.pool, id) });
      }
    });
    afterEach(async () => t.drop());

    const running = async () => {
      const { rows } = await t.pool.query<{ account_id: string; n: number }>(
        `SELECT account_id, count(*)::int AS n FROM jobs WHERE status = 'running' GROUP BY account_id`,
      );
      return new Map(rows.map((r) => [r.account_id, r.n]));
    };

    it('takes the accounts round-robin, least served first, even when one account’s jobs are all older', async () => {
      const [busy, quiet] = accounts;
      await enqueueJobs(t.pool, busy.id, busy.app, 10, 'iphone-69', 1);
      await enqueueJobs(t.pool, quiet.id, quiet.app, 10, 'iphone-69', 1);
      const first = await claimJobs(t.pool, 'w1', 6, 60_000);
      expect(first.filter((j) => j.accountId === busy.id)).toHaveLength(3);
      expect(first.filter((j) => j.accountId === quiet.id)).toHaveLength(3);
      // With busy running 3 and quiet 3, then busy 3 and quiet 4: the next single claims alternate.
      const next = await claimJobs(t.pool, 'w1', 1, 60_000);
      const after = await claimJobs(t.pool, 'w1', 1, 60_000);
      expect(new Set([next[0].accountId, after[0].accountId])).toEqual(new Set([busy.id, quiet.id]));
      // Within an account, oldest first.
      const { rows } = await t.pool.query<{ id: string }>(`SELECT id FROM jobs WHERE account_id = $1 AND status = 'running' ORDER BY id`, [
        quiet.id,
      ]);
      const oldestQuiet = await t.pool.query<{ id: string }>(`SELECT id FROM jobs WHERE account_id = $1 ORDER BY created_at, id LIMIT $2`, [
        quiet.id,
        rows.length,
      ]);
      expect(rows.map((r) => r.id).sort()).toEqual(oldestQuiet.rows.map((r) => r.id).sort());
    });

    it('20 concurrent claimers never run more than the cap for any account', async () => {
      for (const a of accounts) await enqueueJobs(t.pool, a.id, a.app, 30, 'iphone-69', 1);
      const cap = 3;
      for (let round = 0; round < 4; round++) {
        const claimed: string[] = [];
        await Promise.all(
          Array.from({ length: 20 }, async (_, w) => {
            for (;;) {
              const jobs = await claimJobs(t.pool, `w${w}`, 2, 60_000, { perAccount: cap });
              if (jobs.length === 0) return;
              claimed.push(...jobs.map((j) => j.id));
            }
          }),
        );
        expect(new Set(claimed).size).toBe(claimed.length);
        const now = await running();
        for (const a of accounts) expect(now.get(a.id)).toBe(cap);
        // Finish two of each account's jobs: the next round may start exactly two more each.
        for (const a of accounts) {
          const { rows } = await t.pool.query<{ id: string; locked_by: string }>(
            `SELECT id, locked_by FROM jobs WHERE account_id = $1 AND status = 'running' ORDER BY id LIMIT 2`,
            [a.id],
          );
          for (const r of rows) expect(await completeJob(t.pool, r.locked_by, r.id, outcome)).toBe(true);
        }
      }
    });

    it('two workers busy with one account’s 100 queued sets start another account’s set within one job’s time', async () => {
      const [busy, quiet] = accounts;
      await enqueueJobs(t.pool, busy.id, busy.app, 100, 'iphone-69', 1);
      const starts: string[] = [];
      const release: (() => void)[] = [];
      // Each job runs until the test lets it go, so "one job's time" is a step the test controls.
      const run = async (job: { accountId: string }) => {
        starts.push(job.accountId);
        await new Promise<void>((r) => release.push(r));
        return outcome;
      };
      // No cap: fairness alone, not the cap, must let the quiet account in.
      const workers = [1, 2].map(
        (i) =>
          new Worker(t.pool, null, run, { queue: setJobs, concurrency: 2, leaseMs: 60_000, pollIntervalMs: 60_000, workerId: `w${i}` }),
      );
      try {
        for (const w of workers) w.wake();
        await until(async () => starts.length === 4);
        expect(starts).toEqual(Array(4).fill(busy.id));
        await enqueueJobs(t.pool, quiet.id, quiet.app, 1, 'iphone-69', 1);
        // One job ends; the slot it frees goes to the quiet account, not to the 97th busy set.
        const one = release.shift()!;
        one();
        await until(async () => starts.length === 5);
        expect(starts[4]).toBe(quiet.id);
        expect((await running()).get(quiet.id)).toBe(1);
      } finally {
        const stopped = Promise.all(workers.map((w) => w.stop(0)));
        for (const r of release.splice(0)) r();
        await stopped;
      }
    });
  });
}
