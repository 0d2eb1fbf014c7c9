/**
 * `npm run bench:claim`: what fair claiming (src/queue/claim.ts) costs per claim against the FIFO
 * claim it replaced, on a deep, lopsided queue: one account with 5,000 queued sets and 49 with 100
 * each. Claims of 4 jobs (a worker's default) with the per-account cap of 4, each claimed batch
 * completed at once so the queue keeps its shape; by one claimer and by 4 at once. Short: a few
 * seconds of database work on a fresh embedded server (or BENCH_DATABASE_URL).
 */
import { claimJobs } from '../src/queue/claim.ts';
import type { Db } from '../src/db/pool.ts';
import { percentile } from './load.ts';
import { benchAccount, openBenchDatabase } from './setup.ts';

const CLAIMS = 300;
const BATCH = 4;

/** The claim before fair claiming: oldest first, whoever it belongs to. */
async function fifoClaim(db: Db, workerId: string, limit: number): Promise<{ id: string; account_id: string }[]> {
  const { rows } = await db.query<{ id: string; account_id: string }>(
    `UPDATE jobs SET status = 'running', attempts = attempts + 1, locked_by = $1,
       lease_expires_at = now() + interval '60 seconds', started_at = clock_timestamp(), updated_at = now()
     WHERE id IN (SELECT id FROM jobs WHERE status = 'queued' AND run_at <= now() ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED)
     RETURNING id, account_id`,
    [workerId, limit],
  );
  return rows;
}

async function fill(db: Db, accounts: { accountId: string; appId: string }[]): Promise<void> {
  // The jobs and what refers to them (events, ledger lines): a fresh queue of the same shape.
  await db.query(`TRUNCATE jobs CASCADE`);
  for (const [i, a] of accounts.entries()) {
    await db.query(
      `INSERT INTO jobs (id, account_id, app_id, request, cost, period_start, created_at)
       SELECT 'job_bench_' || $1 || '_' || n, $2, $3, '{"device":"iphone-69","count":1}'::jsonb, 0, current_date,
              now() - make_interval(secs => ($4 - n) / 1000.0)
       FROM generate_series(1, $4) n`,
      [i, a.accountId, a.appId, i === 0 ? 5_000 : 100],
    );
  }
  await db.query('ANALYZE jobs');
}

async function finish(db: Db, ids: string[]): Promise<void> {
  if (ids.length)
    await db.query(`UPDATE jobs SET status = 'succeeded', result = '{}'::jsonb, lease_expires_at = NULL WHERE id = ANY($1)`, [ids]);
}

async function run(db: Db, claimers: number, claim: (worker: string) => Promise<{ id: string; accountId: string }[]>) {
  const times: number[] = [];
  const busyShare: number[] = [];
  await Promise.all(
    Array.from({ length: claimers }, async (_, w) => {
      for (let i = 0; i < CLAIMS / claimers; i++) {
        const started = performance.now();
        const jobs = await claim(`w${w}`);
        times.push(performance.now() - started);
        busyShare.push(jobs.filter((j) => j.accountId === busyAccount).length / Math.max(1, jobs.length));
        await finish(
          db,
          jobs.map((j) => j.id),
        );
      }
    }),
  );
  times.sort((a, b) => a - b);
  const share = busyShare.reduce((a, b) => a + b, 0) / busyShare.length;
  return { p50: percentile(times, 50), p99: percentile(times, 99), share };
}

let busyAccount = '';

const bench = await openBenchDatabase();
try {
  const db = bench.database.pool;
  const accounts = [];
  for (let i = 0; i < 50; i++) accounts.push(await benchAccount(db, `claim bench ${i}`, 0));
  busyAccount = accounts[0].accountId;
  const rows: string[] = [
    '| claim | claimers | p50 ms | p99 ms | share of claimed jobs from the 5,000-set account |',
    '|---|---|---|---|---|',
  ];
  for (const claimers of [1, 4]) {
    await fill(db, accounts);
    const fifo = await run(db, claimers, async (w) => (await fifoClaim(db, w, BATCH)).map((r) => ({ id: r.id, accountId: r.account_id })));
    rows.push(`| FIFO (before) | ${claimers} | ${fifo.p50.toFixed(2)} | ${fifo.p99.toFixed(2)} | ${(fifo.share * 100).toFixed(0)} % |`);
    await fill(db, accounts);
    const fair = await run(db, claimers, (w) => claimJobs(db, w, BATCH, 60_000, { perAccount: 4 }));
    rows.push(`| fair, cap 4 | ${claimers} | ${fair.p50.toFixed(2)} | ${fair.p99.toFixed(2)} | ${(fair.share * 100).toFixed(0)} % |`);
  }
  process.stdout.write(`${bench.describe}; ${CLAIMS} claims of ${BATCH}\n${rows.join('\n')}\n`);
} finally {
  await bench.cleanup();
}
