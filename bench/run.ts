/**
 * `npm run bench`: HTTP throughput and latency of the service against a bare node:http baseline,
 * create-set throughput with exact credit accounting, job pickup latency and planning time.
 *
 * This process is only the load generator and the bookkeeper: the bare responder and the service
 * run as child processes (on a 2-core machine, sharing one event loop would measure neither).
 * Progress goes to stderr; the results table goes to stdout.
 *
 * `npm run bench -- first-creates` runs only an app's first POST /screenshots (bench/first-creates.ts:
 * a new app each time, its set asked for at once).
 *
 * `npm run bench -- rendering` runs only the rendering part (bench/rendering.ts) and the editor's
 * (bench/editing.ts: preview p50/p95 and its CPU, a revision of 1 of 10 slides) and previews while
 * another account floods them (bench/preview-flood.ts). Both end with OCR's CPU per screen
 * (bench/ocr.ts, in a child process).
 *
 * Settings: BENCH_DURATION_S (seconds per scenario, default 8), BENCH_DATABASE_URL (an external
 * PostgreSQL instead of a fresh embedded one), BENCH_CPU_PROF_DIR (write .cpuprofile files of the
 * service children there, for looking into a slow path), BENCH_REDIS_URL (rate-limit counters in
 * that Redis instead of in memory).
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { killAllChildren, spawnChild, type Child } from './children.ts';
import { cpuMs, selfCpuMs } from './cpu.ts';
import { cannon, percentile, postLoad, type LoadResult } from './load.ts';
import { benchAccount, openBenchDatabase, type BenchAccount, type BenchDatabase } from './setup.ts';
import { benchPlanning } from './planning.ts';
import { createOne, pickupLatency } from './pickup.ts';
import { benchRendering } from './rendering.ts';
import { benchEditing } from './editing.ts';
import { benchPreviewFlood } from './preview-flood.ts';
import { benchFirstCreates, fakeAppStore, firstCreatesLine, type FirstCreates } from './first-creates.ts';
import type { FakeStore } from '../test/support/fake-store.ts';
import { benchSets, uploadBenchScreen, GOALS as SET_GOALS, SLIDES } from './pictures.ts';
import { fmtInt, fmtMs, readmeRows, readmeTable, writeReadmeTable } from './readme.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DURATION_S = positiveNumber('BENCH_DURATION_S', 8);
// A short warm-up before each measured run: JIT, connection pools and caches settle first.
const WARMUP_S = Math.min(1, DURATION_S);
const CONNECTIONS = 50;
const COST = 5;
const MANY_ACCOUNTS = 25;

function positiveNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number of seconds, got "${raw}"`);
  return n;
}

const progress = (msg: string) => process.stderr.write(`[bench] ${msg}\n`);

// ---------------------------------------------------------------------------------------------
// Processes

let bench: BenchDatabase | null = null;
let cleaning: Promise<void> | null = null;

function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    killAllChildren();
    await bench?.cleanup().catch((e) => console.error('cleanup failed:', e));
  })();
  return cleaning;
}

// `on`, not `once`: Ctrl-C reaches this process twice (from the terminal's process group and
// relayed by the tsx wrapper), and a second, unhandled SIGINT would kill it mid-cleanup.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (cleaning) return;
    progress(`${signal}: cleaning up`);
    void cleanup().finally(() => process.exit(130));
  });
}

function serviceEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  // Settings that would point the children elsewhere or make jobs call a real LLM.
  for (const name of [
    'DATABASE_URL',
    'DATA_DIR',
    'PORT',
    'HOST',
    'BASE_PATH',
    'LOG_LEVEL',
    'LLM_BASE_URL',
    'LLM_MODEL',
    'LLM_API_KEY',
    'REDIS_URL',
    'RATE_LIMIT_PER_SECOND',
  ])
    delete env[name];
  // The limiter runs on every request (its cost is measured) but never refuses: one key makes
  // thousands of requests a second here. BENCH_REDIS_URL measures the limiter in Redis instead.
  const limits: NodeJS.ProcessEnv = { RATE_LIMIT_PER_SECOND: '1000000000' };
  if (process.env.BENCH_REDIS_URL)
    Object.assign(limits, { REDIS_URL: process.env.BENCH_REDIS_URL, REDIS_KEY_PREFIX: `shotgen-bench:${process.pid}:` });
  return { ...env, ...limits, ...extra };
}

async function startService(role: 'all' | 'api', extraEnv: NodeJS.ProcessEnv = {}): Promise<Child & { base: string }> {
  const profDir = process.env.BENCH_CPU_PROF_DIR;
  const child = await spawnChild({
    name: `service (role ${role})`,
    args: [
      ...(profDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profDir)}`] : []),
      path.join(ROOT, 'bin/shotgen.js'),
      '--json',
      'serve',
      '--role',
      role,
    ],
    env: serviceEnv({ ...bench!.childEnv, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...extraEnv }),
    isReady: (line) => typeof line.address === 'string',
  });
  return { ...child, base: `${child.ready.address as string}/api/v1/public/v1` };
}

async function stopChild(child: Child): Promise<void> {
  const how = await child.stop();
  if (how !== 0) progress(`${child.name} ended with ${how}`);
  for (const line of child.problems.slice(0, 5)) progress(`${child.name} logged: ${line.slice(0, 400)}`);
  if (child.problems.length > 5) progress(`${child.name} logged ${child.problems.length - 5} more warnings/errors`);
}

// ---------------------------------------------------------------------------------------------
// Scenarios

const auth = (account: BenchAccount) => ({ authorization: `Bearer ${account.key}` });
const createBody = (account: BenchAccount) => JSON.stringify({ appId: account.appId, device: 'iphone-69', count: 10 });

interface CpuShare {
  /** Busy share of one core during the measured run; null where /proc cannot tell. */
  serverPct: number | null;
  dbPct: number | null;
  generatorPct: number;
  /** Server process CPU per response, in µs. */
  serverUsPerResponse: number | null;
}

const cpuShares: { label: string; cpu: CpuShare }[] = [];

/** Runs one measured load and records how busy the server, the database and the generator were. */
async function withCpu<T extends LoadResult>(label: string, serverPid: number, run: () => Promise<T>): Promise<T> {
  const dbPid = bench!.database.embedded?.pid;
  const before = { server: cpuMs(serverPid), db: dbPid ? cpuMs(dbPid, true) : null, self: selfCpuMs() };
  const result = await run();
  const after = { server: cpuMs(serverPid), db: dbPid ? cpuMs(dbPid, true) : null, self: selfCpuMs() };
  const wallMs = result.elapsedS * 1000;
  const delta = (a: number | null, b: number | null) => (a === null || b === null ? null : b - a);
  const server = delta(before.server, after.server);
  const db = delta(before.db, after.db);
  cpuShares.push({
    label,
    cpu: {
      serverPct: server === null ? null : (100 * server) / wallMs,
      dbPct: db === null ? null : (100 * db) / wallMs,
      generatorPct: (100 * (after.self - before.self)) / wallMs,
      serverUsPerResponse: server === null || result.responses === 0 ? null : (1000 * server) / result.responses,
    },
  });
  return result;
}

async function measureGet(
  label: string,
  serverPid: number,
  url: string,
  headers: Record<string, string>,
): Promise<LoadResult & { bodyBytes: number }> {
  // One checked request first: a wrong key or id would otherwise be measured as fast 4xx answers.
  const res = await fetch(url, { headers });
  const body = await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${label}: GET ${url} answered ${res.status}: ${Buffer.from(body).toString()}`);
  progress(`${label}: warm-up ${WARMUP_S} s, then ${DURATION_S} s`);
  await cannon({ url, headers, durationS: WARMUP_S, connections: CONNECTIONS });
  const result = await withCpu(label, serverPid, () => cannon({ url, headers, durationS: DURATION_S, connections: CONNECTIONS }));
  return { ...result, bodyBytes: body.byteLength };
}

interface Accounting {
  responses201: number;
  jobs: number;
  jobsMatchingResponses: number;
  charges: number;
  refunds: number;
  creditsUsed: number;
  exact: boolean;
}

/**
 * Creates from `accounts` spread over the connections. One account is the worst case (every
 * charge queues on its one credit row); several accounts show what the service as a whole does.
 */
async function createThroughput(
  base: string,
  serverPid: number,
  label: string,
  accounts: BenchAccount[],
  warm: BenchAccount,
): Promise<{ load: Awaited<ReturnType<typeof postLoad>>; accounting: Accounting }> {
  progress(`${label}: warm-up ${WARMUP_S} s on another account, then ${DURATION_S} s`);
  const url = `${base}/screenshots`;
  await postLoad({ url, durationS: WARMUP_S, connections: CONNECTIONS, headers: auth(warm), body: createBody(warm), expectStatus: 201 });
  const jobIds: string[] = [];
  const load = await withCpu(label, serverPid, () =>
    postLoad({
      url,
      durationS: DURATION_S,
      connections: CONNECTIONS,
      targets: accounts.map((a) => ({ headers: auth(a), body: createBody(a) })),
      expectStatus: 201,
      onExpected: (body) => jobIds.push((body as { jobId: string }).jobId),
    }),
  );
  const { rows } = await bench!.database.pool.query<{ jobs: number; matching: number; charges: number; refunds: number; used: number }>(
    `SELECT (SELECT count(*) FROM jobs WHERE account_id = ANY($1)) AS jobs,
            (SELECT count(*) FROM jobs WHERE account_id = ANY($1) AND id = ANY($2)) AS matching,
            (SELECT count(*) FROM credit_ledger WHERE account_id = ANY($1) AND kind = 'charge') AS charges,
            (SELECT count(*) FROM credit_ledger WHERE account_id = ANY($1) AND kind = 'refund') AS refunds,
            (SELECT COALESCE(sum(used), 0) FROM credit_periods WHERE account_id = ANY($1)) AS used`,
    [accounts.map((a) => a.accountId), jobIds],
  );
  const r = rows[0];
  const n = load.expected;
  const exact = new Set(jobIds).size === n && r.jobs === n && r.matching === n && r.charges === n && r.refunds === 0 && r.used === n * COST;
  return {
    load,
    accounting: {
      responses201: n,
      jobs: r.jobs,
      jobsMatchingResponses: r.matching,
      charges: r.charges,
      refunds: r.refunds,
      creditsUsed: r.used,
      exact,
    },
  };
}

/**
 * An app's first create, in a service of its own (role api) reading a fake App Store: a new app
 * each time, its set asked for as soon as it exists (bench/first-creates.ts).
 */
async function firstCreatesPhase(): Promise<FirstCreates> {
  let store: FakeStore | null = null;
  let service: (Child & { base: string }) | null = null;
  try {
    store = await fakeAppStore();
    const account = await benchAccount(bench!.database.pool, 'bench first creates', 1_000_000);
    progress('service, role api, reading a fake App Store (first creates)');
    service = await startService('api', { APP_STORE_LOOKUP_URL: store.appStoreLookupUrl });
    return await benchFirstCreates(service.base, auth(account), progress);
  } finally {
    if (service) await stopChild(service);
    await store?.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Report

interface Row {
  scenario: string;
  reqPerSec: string;
  p50: string;
  p99: string;
  ratio: string;
  goal: string;
  met: string;
}

function loadRow(scenario: string, r: LoadResult, bare: LoadResult | null, goal: string, ok: boolean): Row {
  const failures = r.failures ? ` (${fmtInt(r.failures)} failed: ${JSON.stringify(r.statuses)})` : '';
  return {
    scenario,
    reqPerSec: fmtInt(r.reqPerSec),
    p50: fmtMs(r.p50Ms),
    p99: fmtMs(r.p99Ms),
    ratio: bare ? (r.reqPerSec / bare.reqPerSec).toFixed(2) : '—',
    goal,
    met: (ok && !r.failures ? 'yes' : 'no') + failures,
  };
}

function table(rows: Row[]): string {
  const head = ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'ratio to bare', 'goal', 'met?'];
  const lines = rows.map((r) => [r.scenario, r.reqPerSec, r.p50, r.p99, r.ratio, r.goal, r.met]);
  const fmt = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [fmt(head), fmt(head.map((_, i) => (i === 0 || i >= 5 ? '---' : '---:'))), ...lines.map(fmt)].join('\n');
}

/**
 * In the bare run the responder and the generator are each CPU-bound (one core apiece, or the
 * two sharing a 2-core machine); far less means other work had the CPU.
 */
function busyElsewhere(cpu: CpuShare): boolean {
  return cpu.serverPct !== null && cpu.serverPct + cpu.generatorPct < 0.75 * 100 * Math.min(2, os.availableParallelism());
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<boolean> {
  const started = Date.now();
  progress('opening the database');
  bench = await openBenchDatabase();
  const db = bench.database.pool;
  // Enough credits that no scenario can run out: a refused create would be a 402, not a measurement.
  const main = await benchAccount(db, 'bench main', 1_000_000);
  const warm = await benchAccount(db, 'bench warm-up', 10_000_000);
  const creates = await benchAccount(db, 'bench creates', 10_000_000);
  const setsAccount = await benchAccount(db, 'bench sets', 1_000_000);
  const manyAccounts: BenchAccount[] = [];
  for (let i = 0; i < MANY_ACCOUNTS; i++) manyAccounts.push(await benchAccount(db, `bench creates ${i}`, 1_000_000));

  progress('bare node:http responder');
  const bareChild = await spawnChild({
    name: 'bare responder',
    args: ['--import', 'tsx', path.join(ROOT, 'bench/bare-child.ts')],
    env: process.env,
    isReady: (l) => typeof l.port === 'number',
  });
  const bareUrl = `http://127.0.0.1:${bareChild.ready.port as number}/`;
  const bare = await measureGet('bare', bareChild.process.pid!, bareUrl, {});

  // Role all first: its jobs must run, and the api-only phase below leaves thousands queued.
  progress('service, role all (API + worker)');
  let service = await startService('all');
  for (const a of [main, warm, creates, ...manyAccounts]) await uploadBenchScreen(service.base, a);
  const pickup = await pickupLatency(service.base, db, main, warm, progress);
  const sets = await benchSets(service.base, setsAccount, db, progress, service.process.pid);
  await stopChild(service);

  progress('service, role api (no worker: created jobs stay queued)');
  service = await startService('api');
  const account = await measureGet('GET /account', service.process.pid!, `${service.base}/account`, auth(main));
  if (!pickup.succeededJobId) throw new Error('no pickup job succeeded; cannot measure GET of a succeeded job');
  const jobDone = await measureGet(
    'GET job (succeeded)',
    service.process.pid!,
    `${service.base}/jobs/${pickup.succeededJobId}`,
    auth(main),
  );
  const queuedId = await createOne(service.base, main);
  const jobQueued = await measureGet('GET job (queued)', service.process.pid!, `${service.base}/jobs/${queuedId}`, auth(main));
  const createOne_ = await createThroughput(service.base, service.process.pid!, 'POST /screenshots (one account)', [creates], warm);
  const createMany = await createThroughput(
    service.base,
    service.process.pid!,
    `POST /screenshots (${MANY_ACCOUNTS} accounts)`,
    manyAccounts,
    warm,
  );
  await stopChild(service);
  const first = await firstCreatesPhase();

  // A succeeded job's answer is ~20 times the size of bare's: the byte-for-byte fair baseline
  // is the same responder sending a body of the same size.
  const bareSameSize = await measureGet(
    `bare (${jobDone.bodyBytes} B)`,
    bareChild.process.pid!,
    `${bareUrl}?bytes=${jobDone.bodyBytes}`,
    {},
  );
  await stopChild(bareChild);

  progress('planning: 10-slide sets');
  const plans = (await benchPlanning()).rows;

  const rows: Row[] = [
    loadRow(`bare node:http responder (${bare.bodyBytes} B body)`, bare, bare, 'baseline', true),
    loadRow(`GET /account (Bearer, ${account.bodyBytes} B body)`, account, bare, '≥ 0.5× bare', account.reqPerSec / bare.reqPerSec >= 0.5),
    loadRow(
      `GET job, succeeded (from memory, ${jobDone.bodyBytes} B body)`,
      jobDone,
      bare,
      '≥ 0.5× bare',
      jobDone.reqPerSec / bare.reqPerSec >= 0.5,
    ),
    loadRow(`bare node:http responder (${bareSameSize.bodyBytes} B body, the job's size)`, bareSameSize, bareSameSize, 'baseline', true),
    loadRow(
      `GET job, succeeded, vs bare of the same size`,
      jobDone,
      bareSameSize,
      '≥ 0.5× bare',
      jobDone.reqPerSec / bareSameSize.reqPerSec >= 0.5,
    ),
    loadRow(
      `GET job, queued (read from DB, ${jobQueued.bodyBytes} B body)`,
      jobQueued,
      bare,
      '≥ 0.5× bare',
      jobQueued.reqPerSec / bare.reqPerSec >= 0.5,
    ),
    loadRow('POST /screenshots (one account, role api)', createOne_.load, null, '≥ 2,000/s', createOne_.load.reqPerSec >= 2000),
    loadRow(
      `POST /screenshots (${MANY_ACCOUNTS} accounts, role api)`,
      createMany.load,
      null,
      '≥ 2,000/s',
      createMany.load.reqPerSec >= 2000,
    ),
    {
      scenario: `POST /screenshots, an app's first, asked as soon as the app exists (${first.apps} new apps, one at a time, role api)`,
      reqPerSec: '—',
      p50: fmtMs(percentile(first.firstMs, 50)),
      p99: `p95 ${fmtMs(percentile(first.firstMs, 95))}`,
      ratio: '—',
      goal: 'p95 < 300 ms',
      met: percentile(first.firstMs, 95) < 300 ? 'yes' : 'no',
    },
    {
      scenario: `job pickup, created → started (${pickup.jobs} jobs, role all)`,
      reqPerSec: `${fmtInt(pickup.offeredPerSec)} offered`,
      p50: fmtMs(pickup.p50),
      p99: fmtMs(pickup.p99),
      ratio: '—',
      goal: 'p50 < 50 ms',
      met: pickup.p50 < 50 ? 'yes' : 'no',
    },
  ];
  rows.push(
    {
      scenario: `10-slide iphone-69 set, 201 → every PNG and the ZIP stored (${sets.sets} sets, one at a time, role all)`,
      reqPerSec: `${(sets.slides / sets.sets).toFixed(0)} slides/set`,
      p50: fmtMs(sets.p50),
      p99: `p95 ${fmtMs(sets.p95)}`,
      ratio: '—',
      goal: `p50 < ${SET_GOALS.setP50Ms} ms`,
      met: sets.p50 < SET_GOALS.setP50Ms ? 'yes' : 'no',
    },
    {
      scenario: `GET job (succeeded) while those sets render, same process (${fmtInt(sets.polls)} polls)`,
      reqPerSec: '—',
      p50: fmtMs(sets.pollP50),
      p99: fmtMs(sets.pollP99),
      ratio: '—',
      goal: `p99 < ${SET_GOALS.pollP99Ms} ms`,
      met: sets.pollP99 < SET_GOALS.pollP99Ms ? 'yes' : 'no',
    },
    {
      // The same clients just before, nothing rendering: on a shared machine its p99 is the
      // machine's, and the row above is only the sets' to the extent it is higher.
      scenario: `the same polls before the first set, nothing rendering (${fmtInt(sets.quietPolls)} polls)`,
      reqPerSec: '—',
      p50: fmtMs(sets.quietPollP50),
      p99: fmtMs(sets.quietPollP99),
      ratio: '—',
      goal: 'none: the machine without the sets',
      met: '',
    },
  );
  for (const p of plans) {
    rows.push({
      scenario: `planning: ${p.case}`,
      reqPerSec: fmtInt(1000 / p.meanMs),
      p50: `mean ${fmtMs(p.meanMs)}`,
      p99: fmtMs(p.p99Ms),
      ratio: '—',
      goal: `p99 < ${p.goalMs} ms`,
      met: p.ok ? 'yes' : 'no',
    });
  }

  const accountingLine = (label: string, { load, accounting: a }: typeof createMany) =>
    `accounting exact (${label}): ${a.exact ? 'yes' : 'no'} — 201 responses ${fmtInt(a.responses201)}, jobs rows ${fmtInt(a.jobs)} (matching the returned ids: ${fmtInt(a.jobsMatchingResponses)}), charge ledger rows ${fmtInt(a.charges)}, refunds ${a.refunds}, credits used / ${COST} = ${a.creditsUsed / COST}; other responses: ${fmtInt(load.total - load.expected)} ${JSON.stringify(load.statuses)}`;
  const out = [
    '',
    `shotgen bench — node ${process.version}, ${bench.describe}; ${DURATION_S} s per scenario after a ${WARMUP_S} s warm-up, ${CONNECTIONS} connections, pipelining 1; load generator in this process (autocannon for GETs, an exact-counting node:http client for creates), servers in child processes`,
    '',
    table(rows),
    '',
    accountingLine('one account', createOne_),
    accountingLine(`${MANY_ACCOUNTS} accounts`, createMany),
    firstCreatesLine(first),
    `job pickup latency (started_at - created_at, ${pickup.jobs} jobs at ${fmtInt(pickup.offeredPerSec)}/s, one at a time): p50 ${fmtMs(pickup.p50)} ms, p95 ${fmtMs(pickup.p95)} ms, p99 ${fmtMs(pickup.p99)} ms, max ${fmtMs(pickup.max)} ms; ${pickup.succeeded} succeeded, ${pickup.retried} needed more than one attempt`,
    `sets: ${sets.sets} sets of ${(sets.slides / sets.sets).toFixed(0)} slides framing an uploaded screen; 201 → succeeded p50 ${fmtMs(sets.p50)} ms, p95 ${fmtMs(sets.p95)} ms, max ${fmtMs(sets.max)} ms; mean PNG ${(sets.pngBytesMean / 1e6).toFixed(2)} MB; polls of a finished job meanwhile: p50 ${fmtMs(sets.pollP50)} ms, p99 ${fmtMs(sets.pollP99)} ms; the same polls before, nothing rendering: p50 ${fmtMs(sets.quietPollP50)} ms, p99 ${fmtMs(sets.quietPollP99)} ms${sets.httpThread ? `; the HTTP thread ran ${fmtMs(sets.httpThread.sets.runMsPerS)} ms a second and waited for a core ${fmtMs(sets.httpThread.sets.waitMsPerS)} ms a second while the sets rendered (${fmtMs(sets.httpThread.quiet.runMsPerS)} / ${fmtMs(sets.httpThread.quiet.waitMsPerS)} before)` : ''}`,
    `planning: ${plans.length} cases from bench/planning.ts (req/s column: plans per second at the mean)`,
    `CPU during the measured runs (100% = one core; server = the responder or service process${bench.database.embedded ? ', database = all embedded PostgreSQL processes' : ''}, generator = this process):`,
    ...cpuShares.map(({ label, cpu }) => {
      const pct = (n: number | null) => (n === null ? 'n/a' : `${n.toFixed(0)}%`);
      const bareUs = cpuShares[0].cpu.serverUsPerResponse;
      const us = cpu.serverUsPerResponse;
      // Bare's CPU per response over this one: the ratio the throughput would have if the server
      // alone were the bottleneck, steadier than req/s when other work shares the machine.
      const perReq =
        us === null
          ? ''
          : `, ${us.toFixed(0)} µs server CPU per response${bareUs && label !== 'bare' ? ` (CPU ratio to bare ${(bareUs / us).toFixed(2)})` : ''}`;
      return `- ${label}: server ${pct(cpu.serverPct)}, database ${pct(cpu.dbPct)}, generator ${pct(cpu.generatorPct)}${perReq}`;
    }),
    ...(busyElsewhere(cpuShares[0].cpu)
      ? [
          'warning: during the bare run the responder and the generator together used well under the 2 cores, so other work was competing for the CPU; its req/s and every ratio to it are unreliable (the CPU ratios above are not)',
        ]
      : []),
    `total bench time ${((Date.now() - started) / 1000).toFixed(0)} s`,
    '',
  ];
  process.stdout.write(out.join('\n'));

  // The README's table: the same figures, fewer columns. BENCH_README=0 leaves README.md alone.
  if (process.env.BENCH_README !== '0') {
    const cpuUs = Object.fromEntries(cpuShares.map(({ label, cpu }) => [label, cpu.serverUsPerResponse]));
    const rows = readmeRows({
      bare,
      account,
      jobDone,
      bareSameSize,
      jobQueued,
      createOne: { load: createOne_.load, exact: createOne_.accounting.exact },
      createMany: { load: createMany.load, exact: createMany.accounting.exact, accounts: MANY_ACCOUNTS },
      pickup,
      sets: { ...sets, requestedSlides: SLIDES },
      setGoals: SET_GOALS,
      cpuUs: {
        bare: cpuShares[0].cpu.serverUsPerResponse,
        account: cpuUs['GET /account'],
        jobDone: cpuUs['GET job (succeeded)'],
        jobQueued: cpuUs['GET job (queued)'],
      },
    });
    const machine = `${os.availableParallelism()} cores, load average ${os.loadavg()[0].toFixed(1)} at the end`;
    const footnote = `Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)} (node ${process.version}, ${machine}, ${DURATION_S} s a scenario). Ratios are to the bare responder measured in the same run; "CPU" is bare's server CPU per response over the service's, steadier than req/s when other work shares the machine.${busyElsewhere(cpuShares[0].cpu) ? ' Other work competed for the CPU during this run: its req/s ratios are unreliable, the CPU ratios less so.' : ''}`;
    writeReadmeTable(path.join(ROOT, 'README.md'), readmeTable(rows, footnote));
    progress('README.md: performance table written');
  }
  return createOne_.accounting.exact && createMany.accounting.exact;
}

let ok = false;
try {
  const args = process.argv.slice(2);
  if (args.includes('first-creates')) {
    bench = await openBenchDatabase();
    process.stdout.write(`\n${firstCreatesLine(await firstCreatesPhase())}\n`);
    ok = true;
  } else {
    const onlyRendering = args.includes('rendering');
    ok = onlyRendering || (await main());
    progress('rendering: one slide, the worker pool, ImageMagick, HTTP while rendering');
    const rendering = await benchRendering();
    process.stdout.write(rendering.text);
    ok = ok && rendering.correct;
    progress('editing: previews and a revision of one slide');
    process.stdout.write((await benchEditing()).text);
    progress('previews while another account floods');
    process.stdout.write((await benchPreviewFlood()).text);
    // OCR in a process of its own: its figure is that process's CPU, the ONNX threads included,
    // so nothing else this bench started may share it (issue 33: ≤ 1 s CPU a screen).
    progress('OCR: one screen on the reading thread');
    const ocr = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/ocr.ts')], { cwd: ROOT, encoding: 'utf8' });
    process.stdout.write(`\n${ocr.stdout.trim() || `OCR bench failed: ${ocr.stderr.trim().split('\n').at(-1)}`}\n`);
    ok = ok && ocr.status === 0 && /\bok$/.test(ocr.stdout.trim());
  }
} catch (error) {
  console.error('bench failed:', error);
} finally {
  await cleanup();
}
process.exitCode = ok ? 0 : 1;
