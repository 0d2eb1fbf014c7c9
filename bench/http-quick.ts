/**
 * `npm run bench -- http`-sized check of the two GET hot paths alone: bare node:http, GET /account
 * and GET job (queued) of the same service, ratios taken in the same run (a shared machine moves
 * absolute numbers, not ratios much). BENCH_CPU_PROF_DIR profiles the service as in bench/run.ts.
 * QUICK_SUCCEEDED=1 measures GET of a succeeded one-slide set instead (role all, which renders it);
 * QUICK_CREATES=N measures POST /screenshots from N accounts instead of the GETs; ROUNDS repeats
 * either, and then prints the median of the rounds. Every figure carries the machine's load average:
 * on a shared machine it moves throughput several times over, and CPU per request much less.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { killAllChildren, spawnChild } from './children.ts';
import { cpuMs } from './cpu.ts';
import { cannon, postLoad } from './load.ts';
import { fakeScreen } from './rendering.ts';
import { benchAccount, openBenchDatabase } from './setup.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SECONDS = Number(process.env.BENCH_DURATION_S ?? 4);
const SUCCEEDED = !!process.env.QUICK_SUCCEEDED;
const ROUNDS = Number(process.env.ROUNDS ?? 1);
const load = () =>
  `load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`;
const log = (m: string) => process.stderr.write(`[http-quick] ${m}\n`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

const bench = await openBenchDatabase();
try {
  const account = await benchAccount(bench.database.pool, 'quick', 1_000_000);
  const auth = { authorization: `Bearer ${account.key}` };
  const bare = await spawnChild({
    name: 'bare',
    args: ['--import', 'tsx', path.join(ROOT, 'bench/bare-child.ts')],
    env: process.env,
    isReady: (l) => typeof l.port === 'number',
  });
  const profDir = process.env.BENCH_CPU_PROF_DIR;
  const service = await spawnChild({
    name: 'service',
    args: [
      ...(profDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profDir)}`] : []),
      path.join(ROOT, 'bin/shotgen.js'),
      '--json',
      'serve',
      '--role',
      // Role api leaves the measured job queued; a succeeded one needs the worker too.
      SUCCEEDED ? 'all' : 'api',
    ],
    env: { ...process.env, ...bench.childEnv, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_PER_SECOND: '1000000000' },
    isReady: (l) => typeof l.address === 'string',
  });
  const base = `${service.ready.address as string}/api/v1/public/v1`;
  log(`service pid ${service.process.pid}, bare pid ${bare.process.pid}`);
  if (process.env.BENCH_PAUSE_S) await new Promise((r) => setTimeout(r, Number(process.env.BENCH_PAUSE_S) * 1000));
  // The bench listing has no screenshots: a set frames an uploaded screen, or is refused (422).
  const upload = await fetch(`${base}/apps/${account.appId}/screens`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'image/png' },
    body: new Uint8Array(await fakeScreen()),
  });
  if (upload.status !== 201) throw new Error(`screen upload answered ${upload.status}: ${await upload.text()}`);
  const createSet = async (count: number): Promise<string> => {
    const res = await fetch(`${base}/screenshots`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ appId: account.appId, device: 'iphone-69', count }),
    });
    if (res.status !== 201) throw new Error(`POST /screenshots answered ${res.status}: ${await res.text()}`);
    return ((await res.json()) as { jobId: string }).jobId;
  };
  // QUICK_SUCCEEDED=1: the job measured is a finished one-slide set (role all renders it).
  const jobId = await createSet(SUCCEEDED ? 1 : 3);
  if (SUCCEEDED) {
    let status = 'queued';
    for (let i = 0; i < 10 && (status === 'queued' || status === 'running'); i++)
      ({ status } = (await (await fetch(`${base}/jobs/${jobId}`, { headers: { ...auth, prefer: 'wait=30' } })).json()) as {
        status: string;
      });
    if (status !== 'succeeded') throw new Error(`the set to measure ended ${status}`);
  }
  const run = async (label: string, pid: number, url: string, headers: Record<string, string>) => {
    await cannon({ url, headers, durationS: 1 });
    const before = cpuMs(pid)!;
    const r = await cannon({ url, headers, durationS: SECONDS });
    const us = ((cpuMs(pid)! - before) * 1000) / r.responses;
    log(`${label}: ${Math.round(r.reqPerSec)}/s, ${us.toFixed(0)} µs server CPU per response, failures ${r.failures}`);
    return { rps: r.reqPerSec, us };
  };
  // QUICK_CREATES=N: POST /screenshots from N accounts instead of the GETs, with the service's and
  // PostgreSQL's CPU per create (a create's cost is split between the two).
  const creators = Number(process.env.QUICK_CREATES ?? 0);
  if (creators > 0) {
    const accounts = [account];
    for (let i = 1; i < creators; i++) accounts.push(await benchAccount(bench.database.pool, `quick-${i}`, 1_000_000));
    // Each other app gets an uploaded screen to frame too.
    const screen = new Uint8Array(await fakeScreen());
    for (const a of accounts.slice(1))
      await fetch(`${base}/apps/${a.appId}/screens`, {
        method: 'POST',
        headers: { authorization: `Bearer ${a.key}`, 'content-type': 'image/png' },
        body: screen,
      });
    const targets = accounts.map((a) => ({
      headers: { authorization: `Bearer ${a.key}` },
      body: JSON.stringify({ appId: a.appId, device: 'iphone-69', count: 10 }),
    }));
    const url = `${base}/screenshots`;
    await postLoad({ url, durationS: 1, connections: 50, targets, expectStatus: 201 });
    const rounds: { rps: number; service: number; pg: number }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const [s0, p0] = [cpuMs(service.process.pid!)!, cpuMs(bench.database.embedded!.pid, true)!];
      const r = await postLoad({ url, durationS: SECONDS, connections: 50, targets, expectStatus: 201 });
      const per = (ms: number) => (ms * 1000) / r.expected;
      const m = {
        rps: r.expected / r.elapsedS,
        service: per(cpuMs(service.process.pid!)! - s0),
        pg: per(cpuMs(bench.database.embedded!.pid, true)! - p0),
      };
      rounds.push(m);
      log(
        `POST /screenshots, ${creators} account(s): ${Math.round(m.rps)}/s, µs CPU per create: service ${m.service.toFixed(0)}, PostgreSQL ${m.pg.toFixed(0)}; failures ${r.failures} ${JSON.stringify(r.statuses)}; ${load()}`,
      );
    }
    if (ROUNDS > 1) {
      const med = (k: 'rps' | 'service' | 'pg') => median(rounds.map((r) => r[k])).toFixed(0);
      log(`median of ${ROUNDS}: ${med('rps')}/s, µs CPU per create: service ${med('service')}, PostgreSQL ${med('pg')}`);
    }
  }
  const ratios: { account: number; job: number }[] = [];
  for (let round = 0; round < (creators > 0 ? 0 : ROUNDS); round++) {
    const b = await run('bare', bare.process.pid!, `http://127.0.0.1:${bare.ready.port as number}/`, {});
    const a = await run('GET /account', service.process.pid!, `${base}/account`, auth);
    log(`ratio: /account ${(a.rps / b.rps).toFixed(2)} (CPU ${(b.us / a.us).toFixed(2)})`);
    if (process.env.ONLY_ACCOUNT) continue;
    const j = await run(SUCCEEDED ? 'GET job (succeeded)' : 'GET job (queued)', service.process.pid!, `${base}/jobs/${jobId}`, auth);
    log(
      `ratios: /account ${(a.rps / b.rps).toFixed(2)} (CPU ${(b.us / a.us).toFixed(2)}), job ${(j.rps / b.rps).toFixed(2)} (CPU ${(b.us / j.us).toFixed(2)}); ${load()}`,
    );
    ratios.push({ account: a.rps / b.rps, job: j.rps / b.rps });
  }
  if (ratios.length > 1)
    log(
      `median of ${ratios.length}: /account ${median(ratios.map((r) => r.account)).toFixed(2)}, job ${median(ratios.map((r) => r.job)).toFixed(2)}`,
    );
  await service.stop();
  await bare.stop();
} finally {
  killAllChildren();
  await bench.cleanup();
}
