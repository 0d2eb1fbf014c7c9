/**
 * `npm run bench:soak`: mixed traffic against `shotgen serve` on the embedded default for
 * SOAK_DURATION_S seconds (default 600): sets created with an uploaded screen and rendered, polls
 * with and without `Prefer: wait`, account reads, downloads of every slide and ZIP. Reports the
 * resident memory of the service and of PostgreSQL (proportional set size, so shared buffers are
 * not counted once per backend) after a warm-up and at the end, p50/p99 per route and every error.
 *
 * Goals (issue 13): no errors, memory flat within 10 %. Not part of `npm run bench`: it takes ten
 * minutes. Five accounts, each its own key; the per-key limit is raised so that bursts are measured, not refused.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { killAllChildren, spawnChild, type Child } from './children.ts';
import { percentile } from './load.ts';
import { benchAccount, openBenchDatabase, type BenchAccount, type BenchDatabase } from './setup.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DURATION_S = Number(process.env.SOAK_DURATION_S ?? 600);
const WARMUP_S = Math.min(30, Math.max(5, DURATION_S / 10));
const ACCOUNTS = 5;
const progress = (msg: string) => process.stderr.write(`[soak] ${msg}\n`);

const latencies = new Map<string, number[]>();
const errors = new Map<string, number>();
let bench: BenchDatabase | null = null;

function record(route: string, ms: number): void {
  let list = latencies.get(route);
  if (!list) latencies.set(route, (list = []));
  list.push(ms);
}

function fail(what: string): void {
  errors.set(what, (errors.get(what) ?? 0) + 1);
}

/** One request, timed and checked; a body that is read to the end, as a client would. */
async function call(route: string, url: string, init: RequestInit & { expect?: number[] } = {}): Promise<Response & { bodyBytes: Buffer }> {
  const started = performance.now();
  try {
    const res = await fetch(url, init);
    const bodyBytes = Buffer.from(await res.arrayBuffer());
    record(route, performance.now() - started);
    if (!(init.expect ?? [200]).includes(res.status)) fail(`${route} → ${res.status} ${bodyBytes.toString('utf8', 0, 200)}`);
    return Object.assign(res, { bodyBytes });
  } catch (error) {
    fail(`${route} → ${(error as Error).message}`);
    throw error;
  }
}

/** Kilobytes of proportional set size of a process (and optionally its children). */
function pssKb(pid: number, withChildren = false): number {
  const own = (p: number) => {
    try {
      const m = /^Pss:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${p}/smaps_rollup`, 'utf8'));
      return m ? Number(m[1]) : 0;
    } catch {
      return 0;
    }
  };
  let total = own(pid);
  if (withChildren) {
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
        if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) total += own(Number(entry));
      } catch {
        // gone
      }
    }
  }
  return total;
}

async function screenPng(): Promise<Buffer> {
  // A plausible app screen: a header bar and rows, 1290×2796 as an iPhone takes it.
  const rows = Array.from(
    { length: 12 },
    (_, i) => `<rect x="60" y="${400 + i * 190}" width="1170" height="150" rx="24" fill="#ffffff"/>`,
  ).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1290" height="2796"><rect width="1290" height="2796" fill="#eef2f7"/><rect width="1290" height="330" fill="#0a84ff"/>${rows}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

interface Client {
  account: BenchAccount;
  headers: Record<string, string>;
}

async function setLoop(base: string, c: Client, until: number, pace: number, jobs: string[]): Promise<void> {
  let n = 0;
  while (Date.now() < until) {
    const started = Date.now();
    const created = await call('POST /screenshots', `${base}/screenshots`, {
      method: 'POST',
      headers: { ...c.headers, 'content-type': 'application/json', 'idempotency-key': `soak-${c.account.accountId}-${n++}` },
      body: JSON.stringify({ appId: c.account.appId, device: 'iphone-69', count: 3 }),
      expect: [201],
    }).catch(() => null);
    if (created?.status === 201) {
      const { jobId } = JSON.parse(created.bodyBytes.toString()) as { jobId: string };
      jobs.push(jobId);
      if (!ownJobs.has(c)) ownJobs.set(c, []);
      ownJobs.get(c)!.push(jobId);
      const done = await call('GET /jobs/{id} (Prefer: wait=30)', `${base}/jobs/${jobId}`, {
        headers: { ...c.headers, prefer: 'wait=30' },
      }).catch(() => null);
      const job = done ? (JSON.parse(done.bodyBytes.toString()) as { status: string; result?: { slides: { index: number }[] } }) : null;
      if (job?.status === 'succeeded') {
        for (const s of job.result!.slides)
          await call('GET /jobs/{id}/slides/{n}.png', `${base}/jobs/${jobId}/slides/${s.index}.png`, { headers: c.headers }).catch(
            () => null,
          );
        await call('GET /jobs/{id}/archive.zip', `${base}/jobs/${jobId}/archive.zip`, { headers: c.headers }).catch(() => null);
      } else if (job) fail(`job ${job.status} after wait=30`);
    }
    await sleep(Math.max(0, pace - (Date.now() - started)));
  }
}

const ownJobs = new Map<Client, string[]>();

async function pollLoop(base: string, c: Client, until: number): Promise<void> {
  while (Date.now() < until) {
    // The client's own jobs only: another account's job is (rightly) a 404.
    const own = ownJobs.get(c) ?? [];
    const id = own.length ? own[Math.floor(Math.random() * own.length)] : null;
    if (id) await call('GET /jobs/{id}', `${base}/jobs/${id}`, { headers: c.headers }).catch(() => null);
    await call('GET /account', `${base}/account`, { headers: c.headers }).catch(() => null);
    await sleep(100);
  }
}

async function main(): Promise<void> {
  bench = await openBenchDatabase();
  progress(`database: ${bench.describe}`);
  const accounts: BenchAccount[] = [];
  for (let i = 0; i < ACCOUNTS; i++) accounts.push(await benchAccount(bench.database.pool, `soak ${i}`, 100_000));
  const child: Child = await spawnChild({
    name: 'service',
    args: [path.join(ROOT, 'bin/shotgen.js'), '--json', 'serve'],
    // The limiter runs on every request, but the soak's own bursts (a set's downloads on top of a
    // poller) must not be refused: a 429 here would be the load's doing, not the service's.
    env: {
      ...process.env,
      ...bench.childEnv,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      RATE_LIMIT_PER_SECOND: '1000',
    },
    isReady: (line) => typeof line.address === 'string',
  });
  const base = `${child.ready.address as string}/api/v1/public/v1`;
  const clients: Client[] = accounts.map((account) => ({ account, headers: { authorization: `Bearer ${account.key}` } }));
  const png = await screenPng();
  for (const c of clients) {
    await call('POST /apps/{id}/screens', `${base}/apps/${c.account.appId}/screens`, {
      method: 'POST',
      headers: { ...c.headers, 'content-type': 'image/png' },
      body: new Uint8Array(png),
      expect: [201],
    });
  }

  const postmaster = bench.database.embedded?.pid ?? null;
  const memory = () => ({ service: pssKb(child.process.pid!), postgres: postmaster ? pssKb(postmaster, true) : null });
  const until = Date.now() + DURATION_S * 1000;
  const jobs: string[] = [];
  progress(`running ${DURATION_S} s of mixed traffic (${ACCOUNTS} accounts)`);
  let start: ReturnType<typeof memory> | null = null;
  const warm = sleep(WARMUP_S * 1000).then(() => {
    start = memory();
    progress(`after ${WARMUP_S} s warm-up: service ${start.service} kB, postgres ${start.postgres ?? '-'} kB`);
  });
  // The trend, not only two points: a steady process levels off, a leak keeps climbing.
  const samples: { at: number; service: number }[] = [];
  const sampler = setInterval(
    () => samples.push({ at: Math.round((Date.now() - (until - DURATION_S * 1000)) / 1000), service: memory().service }),
    60_000,
  );
  // Each account: one client making sets (one every 8 s), one polling at ~10 requests/s.
  await Promise.all([warm, ...clients.flatMap((c) => [setLoop(base, c, until, 8_000, jobs), pollLoop(base, c, until)])]);
  clearInterval(sampler);
  const end = memory();
  await child.stop();

  const rows = [...latencies.entries()].map(([route, list]) => {
    const sorted = [...list].sort((a, b) => a - b);
    return `| ${route} | ${list.length} | ${percentile(sorted, 50).toFixed(1)} | ${percentile(sorted, 99).toFixed(1)} |`;
  });
  const growth = (a: number | null | undefined, b: number | null) => (a && b ? `${(((b - a) / a) * 100).toFixed(1)} %` : '-');
  console.log(`\n## Soak: ${DURATION_S} s of mixed traffic, ${jobs.length} sets rendered (${bench.describe})\n`);
  console.log('| route | requests | p50 ms | p99 ms |\n|---|---|---|---|');
  console.log(rows.join('\n'));
  console.log('\n| memory (PSS) | after warm-up | at the end | change |\n|---|---|---|---|');
  const s = start as ReturnType<typeof memory> | null;
  console.log(`| service | ${s?.service ?? '-'} kB | ${end.service} kB | ${growth(s?.service, end.service)} |`);
  console.log(
    `| PostgreSQL (postmaster + backends) | ${s?.postgres ?? '-'} kB | ${end.postgres ?? '-'} kB | ${growth(s?.postgres, end.postgres)} |`,
  );
  console.log(`\nservice PSS each minute: ${samples.map((x) => `${x.at} s ${Math.round(x.service / 1024)} MB`).join(', ')}`);
  console.log(`\nerrors: ${[...errors.values()].reduce((a, b) => a + b, 0)}`);
  for (const [what, n] of errors) console.log(`- ${n} × ${what}`);
}

try {
  await main();
} finally {
  killAllChildren();
  await (bench as BenchDatabase | null)?.cleanup();
}
