/**
 * Workers as separate processes on one database: `shotgen serve --role worker`, as deployed.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JobReader } from '../../src/sets/reader.ts';
import { createTestDatabase, primaryServer, type TestDatabase } from '../support/db.ts';
import { emptyScreenshots } from '../../src/core/listing.ts';
import { accountWithKey, insertApp, sampleListing } from '../support/fixtures.ts';
import { enqueueJobs, jobRows, ledger, until } from '../support/jobs.ts';
import { shotgen, type Child } from '../support/processes.ts';
import { scaled } from '../support/timing.ts';

const RANK = { queued: 0, running: 1, succeeded: 2, failed: 2 } as const;
const JOBS = 16;

// On the primary server only: exactly-once claiming is SQL that test/queue/queue.test.ts runs with
// 20 concurrent claimers on both servers; what this file adds is real processes, which the second
// server does not change, and it was the suite's slowest file when it ran twice.
{
  const server = primaryServer();
  describe(`worker processes on the ${server.name} server`, () => {
    let t: TestDatabase;
    let accountId: string;
    let appId: string;
    const children: Child[] = [];
    let dataDir: string;
    beforeEach(async () => {
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotgen-workers-'));
      t = await createTestDatabase(server);
      accountId = (await accountWithKey(t.pool, 'pro')).account.id;
      // Workers render every set: a listing without screenshots keeps them off the network (its
      // slides are text-only), and one slide a job keeps the jobs quick.
      appId = await insertApp(t.pool, accountId, sampleListing({ screenshots: emptyScreenshots() }));
    });
    afterEach(async () => {
      await Promise.all(children.splice(0).map((c) => c.stop('SIGKILL')));
      await t.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    const worker = (env: Record<string, string> = {}) => {
      // The pictures go to a scratch directory, shared by the workers as a deployment shares its bucket.
      const c = shotgen(['--json', 'serve', '--role', 'worker'], {
        DATABASE_URL: t.url,
        DATA_DIR: dataDir,
        // A worker serves /healthz, /readyz and /metrics on PORT: any free one.
        PORT: '0',
        HOST: '127.0.0.1',
        WORKER_CONCURRENCY: '4',
        ...env,
      });
      children.push(c);
      return c;
    };

    // Rendering is CPU work: 16 sets, enqueued while the workers claim, say as much about
    // exactly-once as 90 did (each batch of four is claimed by both workers at once), at a fraction
    // of the load on a runner busy with other test files. Two claimers are all a race needs; a third
    // process cost 2.7 CPU seconds of start-up and claimed nothing the two do not.
    it('two workers run each of 16 jobs exactly once; polls never lag a committed status', { timeout: scaled(120_000) }, async () => {
      // One job at a time each, and jobs arriving four at a time: a worker cannot take a whole batch,
      // so both claim. With four slots each and jobs arriving one by one, a worker that finished
      // each quick job before the next arrived took all of them on a loaded machine.
      const workers = [0, 1].map(() => worker({ WORKER_CONCURRENCY: '1' }));
      // Both must be up before the jobs arrive, or the first could take them all.
      // Ready means /readyz answers, not a log line: the workers claim as soon as they are.
      await Promise.all(workers.map((w) => w.ready(60_000)));
      const reader = new JobReader(t.pool);
      // Poll as clients do while the workers run: the API never shows an older status than the
      // one already committed when the poll started.
      let pendingPolls = 0;
      const poll = async (id: string) => {
        const committed = (await t.pool.query<{ status: keyof typeof RANK }>('SELECT status FROM jobs WHERE id = $1', [id])).rows[0].status;
        const seen = (await reader.get(accountId, id))!.status;
        expect(RANK[seen]).toBeGreaterThanOrEqual(RANK[committed]);
        if (RANK[committed] < 2) pendingPolls++;
      };
      const ids: string[] = [];
      for (let i = 0; i < JOBS; i += 4) {
        ids.push(...(await enqueueJobs(t.pool, accountId, appId, 4, 'iphone-69', 1, true)));
        for (const id of ids.slice(-4)) await poll(id);
      }
      await until(async () => {
        for (const id of ids) await poll(id);
        return (await jobRows(t.pool)).every((r) => r.status === 'succeeded');
      }, scaled(90_000));
      const rows = await t.pool.query<{ attempts: number; locked_by: string }>('SELECT attempts, locked_by FROM jobs');
      expect(rows.rows.every((r) => r.attempts === 1)).toBe(true);
      expect(new Set(rows.rows.map((r) => r.locked_by)).size).toBeGreaterThanOrEqual(2);
      // The polls overlapped the work: some saw a job still queued or running.
      expect(pendingPolls).toBeGreaterThan(0);
      expect((await ledger(t.pool, accountId)).filter((l) => l.kind === 'charge')).toHaveLength(JOBS);
      expect((await ledger(t.pool, accountId)).filter((l) => l.kind === 'refund')).toHaveLength(0);
      for (const c of children) expect(await c.stop('SIGTERM')).toBe(0);
    });

    it('a worker told to stop while it is still starting exits cleanly', { timeout: scaled(60_000) }, async () => {
      const appName = `starting-worker-${process.pid}-${Date.now()}`;
      const c = worker({ PGAPPNAME: appName });
      // Past the loading of bin/shotgen.js and the CLI, inside the service's own start-up: its
      // first database connection is the sign (a fixed delay is too short on a loaded machine).
      await until(
        async () =>
          (await t.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1', [appName]))
            .rows[0].n > 0,
        30_000,
        10,
      );
      expect(await c.stop('SIGTERM')).toBe(0);
    });

    it(
      'a worker killed with SIGKILL mid-job: the job is retried after its lease and succeeds, charged once',
      { timeout: scaled(90_000) },
      async () => {
        // A model endpoint that accepts the request and never answers keeps the first worker busy.
        const hanging = http.createServer(() => undefined);
        await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', r));
        try {
          const llmUrl = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/v1`;
          // Its lease is scaled: a loaded machine delaying this worker's own heartbeats past the
          // lease would let its sweep take the job back before the kill, and cost a third attempt.
          const doomed = worker({ LLM_BASE_URL: llmUrl, LLM_MODEL: 'test-model', JOB_LEASE_MS: String(scaled(1_500)) });
          const [id] = await enqueueJobs(t.pool, accountId, appId, 1, 'iphone-69', 3, true);
          const running = await until(
            async () => (await t.pool.query('SELECT locked_by FROM jobs WHERE id = $1 AND status = $2', [id, 'running'])).rows[0],
            20_000,
          );
          doomed.proc.kill('SIGKILL');
          await doomed.exited;
          // A long lease of its own: a loaded machine delaying its heartbeats must not cost a third attempt.
          worker({ JOB_LEASE_MS: String(scaled(10_000)) });
          await until(async () => (await jobRows(t.pool))[0].status === 'succeeded', 30_000);
          const { rows } = await t.pool.query('SELECT attempts, locked_by FROM jobs WHERE id = $1', [id]);
          expect(rows[0].attempts).toBe(2);
          expect(rows[0].locked_by).not.toBe(running.locked_by);
          expect(await ledger(t.pool, accountId)).toEqual([{ kind: 'charge', job_id: id, amount: 5 }]);
        } finally {
          hanging.closeAllConnections();
          hanging.close();
        }
      },
    );
  });
}
