/**
 * The database goes away under load (issue 13, items 0 and 2): `shotgen serve` must live on,
 * answer only 503 service_unavailable with Retry-After meanwhile (never 500, never a dropped
 * connection), and serve again by itself, with every create charged once and every job run.
 *
 * The load uses every transaction path: creates with an Idempotency-Key (one transaction each),
 * polls and account reads, and the worker claiming, heartbeating and completing jobs.
 *
 * Each outage is a file of its own (outage-embedded.test.ts, outage-external.test.ts): each waits
 * on leases and restarts far more than it computes, and two files run side by side.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, expect } from 'vitest';
import { grant } from '../../src/accounts/credits.ts';
import { createPool } from '../../src/db/pool.ts';
import { killPostmasters, type Serve } from '../cli/helpers.ts';
import { emptyScreenshots } from '../../src/core/listing.ts';
import { accountWithKey, insertApp, sampleListing } from '../support/fixtures.ts';
import { until } from '../support/jobs.ts';
import type { LoadReport } from '../support/load.ts';
import type { TcpPostgres } from '../support/tcp-postgres.ts';

// Jobs whose worker lost the database mid-run are retried once their lease expires: keep it short.
// A lease long enough that a loaded machine delaying heartbeats does not take jobs from a live
// worker (at 1.5 s they were lost again and again until their attempts ran out, and the test waited
// for sets that had failed); a job whose claim was lost in the outage is still back within ~15 s.
export const ENV = { JOB_LEASE_MS: '10000', WORKER_CONCURRENCY: '4', LOG_LEVEL: 'warn' };

/** What a test started, stopped and removed after it whatever its outcome. */
export const started: { serve: Serve | null; external: TcpPostgres | null } = { serve: null, external: null };

/** A data directory removed (its postmasters killed first) after the test. */
export function dataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotgen-outage-'));
  dirs.push(dir);
  return dir;
}
const dirs: string[] = [];

export function cleanUpAfterEach(): void {
  afterEach(async () => {
    await started.serve?.terminate();
    started.serve = null;
    await started.external?.stop();
    started.external = null;
    for (const dir of dirs.splice(0)) {
      await killPostmasters(dir);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
}

export async function seed(url: string) {
  const pool = createPool(url, 2);
  try {
    const { account, key } = await accountWithKey(pool, 'scale');
    await grant(pool, account.id, 1_000_000, new Date(), 'load test');
    // Text-only slides: the workers render every set and must not need the stores' image hosts.
    return { accountId: account.id, key, appId: await insertApp(pool, account.id, sampleListing({ screenshots: emptyScreenshots() })) };
  } finally {
    await pool.end();
  }
}

/** Every 201 named one job per key, every job is charged once and has run to success. */
export async function expectConsistent(url: string, accountId: string, report: LoadReport): Promise<void> {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  try {
    for (const [key, ids] of report.created) expect([key, ids.size]).toEqual([key, 1]);
    const answered = new Set([...report.created.values()].flatMap((s) => [...s]));
    const jobs = await until(
      async () => {
        const { rows } = await pool.query<{ id: string; status: string }>('SELECT id, status FROM jobs WHERE account_id = $1', [accountId]);
        return rows.every((r) => r.status === 'succeeded') && rows;
      },
      30_000,
      200,
    );
    // A create answered 503 may still have committed: its key's retry replayed it, so every job
    // was answered to some request.
    expect(new Set(jobs.map((j) => j.id))).toEqual(answered);
    const { rows } = await pool.query<{ kind: string; n: number }>(
      'SELECT kind, count(*)::int AS n FROM credit_ledger WHERE account_id = $1 AND job_id IS NOT NULL GROUP BY kind',
      [accountId],
    );
    expect(rows).toEqual([{ kind: 'charge', n: jobs.length }]);
  } finally {
    await pool.end();
  }
}

export function expectOnly503s(report: LoadReport): void {
  expect(report.networkErrors).toBe(0);
  expect(Object.keys(report.fiveXx)).toEqual(['503 service_unavailable']);
  expect(report.answers.filter((a) => a.status >= 500 && !a.wellFormed)).toEqual([]);
}
