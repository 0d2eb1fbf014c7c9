/**
 * The database goes away under load (issue 13, items 0 and 2): `shotgen serve` must live on,
 * answer only 503 service_unavailable with Retry-After meanwhile (never 500, never a dropped
 * connection), and serve again by itself, with every create charged once and every job run.
 *
 * The load uses every transaction path: creates with an Idempotency-Key (one transaction each),
 * polls and account reads, and the worker claiming, heartbeating and completing jobs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { grant } from '../../src/accounts/credits.ts';
import { createPool } from '../../src/db/pool.ts';
import { killPostmasters, postmasterPid, startServe, waitForDeath, type Serve } from '../cli/helpers.ts';
import { emptyScreenshots } from '../../src/stores/listing.ts';
import { accountWithKey, insertApp, sampleListing } from '../support/fixtures.ts';
import { until } from '../support/jobs.ts';
import { recovery, startLoad, type LoadReport } from '../support/load.ts';
import { tcpPostgres, type TcpPostgres } from '../support/tcp-postgres.ts';

// Jobs whose worker lost the database mid-run are retried once their lease expires: keep it short.
// A lease long enough that a loaded machine delaying heartbeats does not take jobs from a live
// worker (at 1.5 s they were lost again and again until their attempts ran out, and the test waited
// for sets that had failed); a job whose claim was lost in the outage is still back within ~15 s.
const ENV = { JOB_LEASE_MS: '10000', WORKER_CONCURRENCY: '4', LOG_LEVEL: 'warn' };

const dirs: string[] = [];
let serve: Serve | null = null;
let external: TcpPostgres | null = null;

afterEach(async () => {
  await serve?.terminate();
  serve = null;
  await external?.stop();
  external = null;
  for (const dir of dirs.splice(0)) {
    await killPostmasters(dir);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

async function seed(url: string) {
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
async function expectConsistent(url: string, accountId: string, report: LoadReport): Promise<void> {
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

function expectOnly503s(report: LoadReport): void {
  expect(report.networkErrors).toBe(0);
  expect(Object.keys(report.fiveXx)).toEqual(['503 service_unavailable']);
  expect(report.answers.filter((a) => a.status >= 500 && !a.wellFormed)).toEqual([]);
}

describe('database outages under load', () => {
  it('the embedded postmaster killed with SIGKILL: restarted by serve, 503s meanwhile, then served again', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotgen-outage-'));
    dirs.push(dataDir);
    serve = await startServe({ DATA_DIR: dataDir, PORT: '0', ...ENV });
    const url = `postgres://postgres@localhost/postgres?host=${encodeURIComponent(path.join(dataDir, 'run'))}&port=5432`;
    const { accountId, key, appId } = await seed(url);
    const load = startLoad({ base: `${serve.address}/api/v1`, key, appId });
    await load.successAfter(Date.now() + 1_000);

    const dead = postmasterPid(dataDir)!;
    const killedAt = Date.now();
    process.kill(dead, 'SIGKILL');
    await waitForDeath(dead);
    const firstFailure = await load.failureAfter(killedAt);
    const back = await load.successAfter(firstFailure);
    await load.successAfter(Date.now() + 1_000);
    const report = await load.stop();

    const { failures, recoveredAt } = recovery(report, killedAt);
    console.log(
      `embedded kill: ${failures} answers were 5xx (${JSON.stringify(report.fiveXx)}); first 503 ${firstFailure - killedAt} ms after the kill, ` +
        `a create served again ${back - killedAt} ms after it, the last 503 ${recoveredAt! - killedAt} ms after it`,
    );
    expect(failures).toBeGreaterThan(0);
    expectOnly503s(report);
    expect(serve.proc.exitCode).toBeNull();
    const restarted = postmasterPid(dataDir);
    expect(restarted).not.toBe(dead);
    expect(fs.readFileSync(path.join(dataDir, 'run', 'postgres.log'), 'utf8')).toMatch(
      /database system was interrupted|not properly shut down|automatic recovery/,
    );
    await expectConsistent(url, accountId, report);
    expect(await serve.terminate()).toBe(0);
    serve = null;
  });

  it('an external server restarted (fast shutdown, down for a second): 503s meanwhile, then served again', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotgen-outage-'));
    dirs.push(dataDir);
    external = await tcpPostgres();
    serve = await startServe({ DATA_DIR: dataDir, DATABASE_URL: external.url, PORT: '0', ...ENV });
    const { accountId, key, appId } = await seed(external.url);
    const load = startLoad({ base: `${serve.address}/api/v1`, key, appId });
    await load.successAfter(Date.now() + 1_000);

    const restartedAt = Date.now();
    await external.restart(1_000);
    const upAt = Date.now();
    const back = await load.successAfter(upAt);
    await load.successAfter(Date.now() + 1_000);
    const report = await load.stop();

    const { failures, recoveredAt } = recovery(report, restartedAt);
    console.log(
      `external restart: down ${upAt - restartedAt} ms, ${failures} answers were 5xx (${JSON.stringify(report.fiveXx)}); ` +
        `a create served ${back - upAt} ms after the server was back, the last 503 ${recoveredAt! - upAt} ms after`,
    );
    expect(failures).toBeGreaterThan(0);
    expectOnly503s(report);
    expect(serve.proc.exitCode).toBeNull();
    await expectConsistent(external.url, accountId, report);
    expect(await serve.terminate()).toBe(0);
    serve = null;
  });
});
