/**
 * Scenarios of `npm run bench` alone, without the rest of it and without rewriting README.md:
 *
 *   npx tsx bench/parts.ts pickup sets creates   (after `node scripts/build.mjs`: the service runs dist/)
 *
 * `account`: GET /account (role api) against the bare node:http responder, 50 connections each,
 * as bench/run.ts measures them: req/s, the ratio, and server CPU µs per response (the CPU ratio
 * is the steadier one on a shared machine).
 * `pickup`: bench/pickup.ts, job pickup latency on one-slide sets (role all), as bench/run.ts.
 * `sets`: bench/pictures.ts's 20 ten-slide sets, 201 → every PNG stored, with polls meanwhile
 * (role all), and the service's CPU per set; the same polls for 4 s before, nothing rendering, and
 * the HTTP thread's time on a core and waiting for one (ms a second) in both stretches. `creates`: POST /screenshots from 25 accounts over
 * 50 connections (role api), as bench/run.ts's createThroughput, with the service's and the
 * database's CPU per create and the credit accounting checked. On a machine other work shares,
 * compare the CPU figures: req/s and wall times there measure the other work too.
 * BENCH_CPU_PROF_DIR: .cpuprofile files of the service there.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { killAllChildren, spawnChild } from './children.ts';
import { cpuMs } from './cpu.ts';
import { cannon, postLoad, type LoadResult } from './load.ts';
import { benchAccount, openBenchDatabase, type BenchAccount } from './setup.ts';
import { benchSets, uploadBenchScreen } from './pictures.ts';
import { pickupLatency } from './pickup.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const parts = process.argv.slice(2);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 8);
const log = (m: string) => process.stderr.write(`[bench] ${m}\n`);
const bench = await openBenchDatabase();
const env = (extra: NodeJS.ProcessEnv) => {
  const e: NodeJS.ProcessEnv = { ...process.env };
  for (const n of ['DATABASE_URL', 'DATA_DIR', 'PORT', 'HOST', 'LOG_LEVEL', 'LLM_BASE_URL', 'LLM_MODEL', 'LLM_API_KEY', 'REDIS_URL'])
    delete e[n];
  return { ...e, RATE_LIMIT_PER_SECOND: '1000000000', ...bench.childEnv, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...extra };
};
const start = async (role: string) => {
  const prof = process.env.BENCH_CPU_PROF_DIR;
  const c = await spawnChild({
    name: role,
    args: [...(prof ? ['--cpu-prof', `--cpu-prof-dir=${prof}`] : []), path.join(ROOT, 'bin/shotgen.js'), '--json', 'serve', '--role', role],
    env: env({}),
    isReady: (l) => typeof l.address === 'string',
  });
  return { ...c, base: `${c.ready.address as string}/api/v1/public/v1` };
};
const out: Record<string, unknown> = {};
try {
  const db = bench.database.pool;
  const dbPid = bench.database.embedded?.pid;
  if (parts.includes('account')) {
    const acc = await benchAccount(db, 'account', 1_000_000);
    const measure = async (pid: number, url: string, headers: Record<string, string>) => {
      await cannon({ url, headers, durationS: 1, connections: 50 });
      const c0 = cpuMs(pid)!;
      const r: LoadResult = await cannon({ url, headers, durationS: DURATION_S, connections: 50 });
      const usPerResponse = (1000 * (cpuMs(pid)! - c0)) / r.responses;
      return { perSec: Math.round(r.reqPerSec), p99: r.p99Ms, failures: r.failures, usPerResponse: Math.round(usPerResponse) };
    };
    const bare = await spawnChild({
      name: 'bare',
      args: ['--import', 'tsx', path.join(ROOT, 'bench/bare-child.ts')],
      env: process.env,
      isReady: (l) => typeof l.port === 'number',
    });
    const b = await measure(bare.process.pid!, `http://127.0.0.1:${bare.ready.port as number}/`, {});
    await bare.stop();
    const api = await start('api');
    const a = await measure(api.process.pid!, `${api.base}/account`, { authorization: `Bearer ${acc.key}` });
    await api.stop();
    out.account = {
      bare: b,
      account: a,
      ratio: (a.perSec / b.perSec).toFixed(2),
      cpuRatio: (b.usPerResponse / a.usPerResponse).toFixed(2),
      load: os.loadavg()[0].toFixed(2),
    };
  }
  if (parts.includes('pickup')) {
    const [main, warm] = [await benchAccount(db, 'pickup', 1_000_000), await benchAccount(db, 'pickup warm', 1_000_000)];
    const s = await start('all');
    for (const a of [main, warm]) await uploadBenchScreen(s.base, a);
    const c0 = cpuMs(s.process.pid!)!;
    const t0 = performance.now();
    const r = await pickupLatency(s.base, db, main, warm, log);
    out.pickup = {
      jobs: r.jobs,
      p50: r.p50.toFixed(1),
      p95: r.p95.toFixed(1),
      p99: r.p99.toFixed(1),
      max: r.max.toFixed(1),
      offeredPerSec: r.offeredPerSec.toFixed(2),
      succeeded: r.succeeded,
      retried: r.retried,
      stageS: ((performance.now() - t0) / 1000).toFixed(1),
      serviceCpuMsPerJob: Math.round((cpuMs(s.process.pid!)! - c0) / (r.jobs + 20)),
      load: os.loadavg()[0].toFixed(2),
    };
    await s.stop();
  }
  if (parts.includes('sets')) {
    const acc = await benchAccount(db, 'sets', 1_000_000);
    const s = await start('all');
    // The service's own event-loop delay (prom-client's, reset at each scrape) beside the polls'
    // latency: a poll's p99 above it is the machine's scheduling (other work, the render threads),
    // not the HTTP thread being busy.
    const metrics = `${new URL(s.base).origin}/metrics`;
    const lag = async () => {
      const text = await (await fetch(metrics)).text();
      const read = (n: string) =>
        Number(new RegExp(`^shotgen_nodejs_eventloop_lag_${n}_seconds (\\S+)`, 'm').exec(text)?.[1] ?? NaN) * 1000;
      return { p50: read('p50').toFixed(2), p99: read('p99').toFixed(2), max: read('max').toFixed(2) };
    };
    await lag();
    const c0 = cpuMs(s.process.pid!)!;
    const load0 = os.loadavg()[0].toFixed(2);
    const r = await benchSets(s.base, acc, db, log, s.process.pid);
    const loop = await lag();
    out.sets = {
      p50: Math.round(r.p50),
      p95: Math.round(r.p95),
      pollP50: r.pollP50.toFixed(2),
      pollP99: r.pollP99.toFixed(2),
      // Nothing rendering, same clients, just before: what the machine alone gives the polls.
      quietPollP50: r.quietPollP50.toFixed(2),
      quietPollP99: r.quietPollP99.toFixed(2),
      httpThreadMsPerS: r.httpThread && {
        quiet: { run: Math.round(r.httpThread.quiet.runMsPerS), waitForCore: Math.round(r.httpThread.quiet.waitMsPerS) },
        sets: { run: Math.round(r.httpThread.sets.runMsPerS), waitForCore: Math.round(r.httpThread.sets.waitMsPerS) },
      },
      eventLoopDelayMs: loop,
      serviceCpuMsPerSet: Math.round((cpuMs(s.process.pid!)! - c0) / (r.sets + 1)),
      load: `${load0} → ${os.loadavg()[0].toFixed(2)}`,
    };
    await s.stop();
  }
  if (parts.includes('creates')) {
    const accounts: BenchAccount[] = [];
    for (let i = 0; i < 25; i++) accounts.push(await benchAccount(db, `c${i}`, 1_000_000));
    const warm = await benchAccount(db, 'warm', 10_000_000);
    const s = await start('all');
    for (const a of [warm, ...accounts]) await uploadBenchScreen(s.base, a);
    await s.stop();
    const api = await start('api');
    const url = `${api.base}/screenshots`;
    const body = (a: BenchAccount) => JSON.stringify({ appId: a.appId, device: 'iphone-69', count: 10 });
    const auth = (a: BenchAccount) => ({ authorization: `Bearer ${a.key}` });
    await postLoad({ url, durationS: 1, connections: 50, headers: auth(warm), body: body(warm), expectStatus: 201 });
    const [s0, d0] = [cpuMs(api.process.pid!)!, dbPid ? cpuMs(dbPid, true) : null];
    const load = await postLoad({
      url,
      durationS: DURATION_S,
      connections: 50,
      targets: accounts.map((a) => ({ headers: auth(a), body: body(a) })),
      expectStatus: 201,
    });
    const [s1, d1] = [cpuMs(api.process.pid!)!, dbPid ? cpuMs(dbPid, true) : null];
    const { rows } = await db.query(
      `SELECT (SELECT count(*)::int FROM jobs WHERE account_id = ANY($1)) AS jobs, (SELECT count(*)::int FROM credit_ledger WHERE account_id = ANY($1) AND kind='charge') AS charges, (SELECT COALESCE(sum(used),0)::int FROM credit_periods WHERE account_id = ANY($1)) AS used`,
      [accounts.map((a) => a.accountId)],
    );
    out.creates = {
      perSec: Math.round(load.reqPerSec),
      expected: load.expected,
      total: load.total,
      statuses: load.statuses,
      serverUsPerCreate: Math.round((1000 * (s1 - s0)) / load.expected),
      dbUsPerCreate: d0 === null ? null : Math.round((1000 * (d1! - d0)) / load.expected),
      exact: rows[0].jobs === load.expected && rows[0].charges === load.expected && rows[0].used === load.expected * 5,
      load: os.loadavg()[0].toFixed(2),
    };
    await api.stop();
  }
} finally {
  killAllChildren();
  await bench.cleanup();
}
console.log(JSON.stringify(out));
