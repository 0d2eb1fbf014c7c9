import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getBalance } from '../../src/accounts/credits.ts';
import type { ScreenshotSetResult } from '../../src/core/set.ts';
import { heartbeat, releaseJob } from '../../src/queue/queue.ts';
import { claimJobs, completeJob, failJob, sweepExpiredLeases } from '../../src/sets/job-queue.ts';
import { createTestDatabase, testServers, type TestDatabase } from '../support/db.ts';
import { accountWithKey, insertApp } from '../support/fixtures.ts';
import { enqueueJobs, jobRows, ledger } from '../support/jobs.ts';

const RESULT: ScreenshotSetResult = {
  device: 'iphone-69',
  width: 1320,
  height: 2868,
  narrativeId: null,
  captionStyle: 'aso-expert',
  captionLength: 'short',
  slides: [],
  warnings: [],
};

for (const server of testServers()) {
  describe(`the queue on the ${server.name} server`, () => {
    let t: TestDatabase;
    let accountId: string;
    let appId: string;
    beforeEach(async () => {
      t = await createTestDatabase(server, 30);
      accountId = (await accountWithKey(t.pool, 'pro')).account.id;
      appId = await insertApp(t.pool, accountId);
    });
    afterEach(async () => t.drop());

    it('20 concurrent claimers take each of 200 jobs exactly once', async () => {
      const ids = await enqueueJobs(t.pool, accountId, appId, 200);
      const claimed: string[] = [];
      await Promise.all(
        Array.from({ length: 20 }, async (_, w) => {
          for (;;) {
            const jobs = await claimJobs(t.pool, `w${w}`, 3, 60_000);
            if (jobs.length === 0) return;
            claimed.push(...jobs.map((j) => j.id));
          }
        }),
      );
      expect(claimed.sort()).toEqual([...ids].sort());
      expect(new Set(claimed).size).toBe(200);
      for (const row of await jobRows(t.pool)) expect(row).toMatchObject({ status: 'running', attempts: 1 });
    });

    it('claims oldest first and only queued jobs', async () => {
      const ids = await enqueueJobs(t.pool, accountId, appId, 3);
      expect((await claimJobs(t.pool, 'w', 1, 60_000))[0].id).toBe(ids[0]);
      expect((await claimJobs(t.pool, 'w', 5, 60_000)).map((j) => j.id).sort()).toEqual(ids.slice(1).sort());
      expect(await claimJobs(t.pool, 'w', 5, 60_000)).toEqual([]);
    });

    it('completes only under a held lease, and a terminal job never changes again (guarded in SQL)', async () => {
      const [id] = await enqueueJobs(t.pool, accountId, appId, 1);
      await claimJobs(t.pool, 'w1', 1, 60_000);
      expect(await completeJob(t.pool, 'someone-else', id, { result: RESULT })).toBe(false);
      expect(await completeJob(t.pool, 'w1', id, { result: RESULT })).toBe(true);
      await expect(t.pool.query(`UPDATE jobs SET status = 'queued', result = NULL WHERE id = $1`, [id])).rejects.toThrow(/cannot change/);
      await expect(t.pool.query(`UPDATE jobs SET updated_at = now() WHERE id = $1`, [id])).rejects.toThrow(/cannot change/);
      expect(await failJob(t.pool, id, 'w1', { code: 'internal_error', message: 'x', retryable: false })).toBe(false);
      expect((await jobRows(t.pool))[0].status).toBe('succeeded');
    });

    it('a failed job is refunded once, in the same transaction', async () => {
      const [id] = await enqueueJobs(t.pool, accountId, appId, 1);
      await claimJobs(t.pool, 'w1', 1, 60_000);
      expect(await failJob(t.pool, id, 'w1', { code: 'planning_failed', message: 'no', retryable: false })).toBe(true);
      expect(await failJob(t.pool, id, 'w1', { code: 'planning_failed', message: 'no', retryable: false })).toBe(false);
      expect(await ledger(t.pool, accountId)).toEqual([
        { kind: 'charge', job_id: id, amount: 5 },
        { kind: 'refund', job_id: id, amount: 5 },
      ]);
      expect((await getBalance(t.pool, accountId, new Date())).remaining).toBe(2500);
    });

    it('heartbeats extend held leases and report lost ones', async () => {
      const [a, b] = await enqueueJobs(t.pool, accountId, appId, 2);
      await claimJobs(t.pool, 'w1', 2, 60_000);
      await releaseJob(t.pool, 'w1', b, false);
      expect(await heartbeat(t.pool, 'w1', [a, b], 60_000)).toEqual([b]);
      const rows = await jobRows(t.pool);
      expect(rows.find((r) => r.id === b)).toMatchObject({ status: 'queued', attempts: 0 });
    });

    it('the sweep requeues expired leases, then fails and refunds after the third attempt', async () => {
      const [id] = await enqueueJobs(t.pool, accountId, appId, 1);
      for (let attempt = 1; attempt <= 3; attempt++) {
        const [job] = await claimJobs(t.pool, `w${attempt}`, 1, 1);
        expect(job).toMatchObject({ id, attempts: attempt });
        // The lease is over (made so, rather than waited for).
        await t.pool.query(`UPDATE jobs SET lease_expires_at = now() - interval '1 second' WHERE id = $1`, [id]);
        const swept = await sweepExpiredLeases(t.pool);
        expect(swept).toEqual(attempt < 3 ? { requeued: [id], failed: [] } : { requeued: [], failed: [id] });
      }
      const [row] = await jobRows(t.pool);
      expect(row).toMatchObject({ status: 'failed', attempts: 3, error: { code: 'attempts_exhausted', retryable: false } });
      expect(await sweepExpiredLeases(t.pool)).toEqual({ requeued: [], failed: [] });
      expect((await ledger(t.pool, accountId)).filter((l) => l.kind === 'refund')).toHaveLength(1);
    });

    it('concurrent sweeps refund an exhausted job once', async () => {
      const ids = await enqueueJobs(t.pool, accountId, appId, 5);
      await t.pool.query(
        `UPDATE jobs SET status = 'running', attempts = 3, locked_by = 'dead', lease_expires_at = now() - interval '1 second'`,
      );
      const results = await Promise.all(Array.from({ length: 6 }, () => sweepExpiredLeases(t.pool)));
      expect(results.flatMap((r) => r.failed).sort()).toEqual([...ids].sort());
      expect((await ledger(t.pool, accountId)).filter((l) => l.kind === 'refund')).toHaveLength(5);
    });
  });
}
