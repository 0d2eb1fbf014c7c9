/**
 * `npm run bench:start`: how long `npm start` (that is, `node bin/shotgen.js serve`) takes to answer
 * its first request, and the memory it then holds, for the compiled JavaScript that `npm install`
 * builds (dist/) and for the TypeScript sources run through tsx (SHOTGEN_FROM_SOURCE=1, the
 * development mode). Cold: a fresh DATA_DIR (initdb included); warm: the same DATA_DIR again.
 * Every start is a new process on the embedded database, as a person would run it.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.BENCH_START_RUNS ?? 5);

const rssKb = (pid: number): number => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
};

/** Sum of the RSS of the embedded PostgreSQL processes of this DATA_DIR (postmaster and children). */
function postgresRssKb(dataDir: string): number {
  const pidFile = path.join(dataDir, 'pg', 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return 0;
  const postmaster = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  let total = rssKb(postmaster);
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(/PPid:\s+(\d+)/.exec(fs.readFileSync(`/proc/${entry}/status`, 'utf8'))?.[1]);
      if (ppid === postmaster) total += rssKb(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

async function once(dataDir: string, fromSource: boolean): Promise<{ ms: number; serviceMb: number; postgresMb: number }> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/shotgen.js'), 'serve'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      SHOTGEN_FROM_SOURCE: fromSource ? '1' : '',
    },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`serve exited with ${child.exitCode}`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}/readyz`);
        if (res.status === 200) break;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    const ms = performance.now() - started;
    // Memory once it has served: give it a moment to settle.
    await new Promise((r) => setTimeout(r, 500));
    return { ms, serviceMb: rssKb(child.pid!) / 1024, postgresMb: postgresRssKb(dataDir) / 1024 };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const rows: string[] = [
  '| mode | start | first answer, median ms | service RSS MB | PostgreSQL RSS MB |',
  '| --- | --- | ---: | ---: | ---: |',
];
for (const fromSource of [false, true]) {
  const mode = fromSource ? 'TypeScript through tsx (SHOTGEN_FROM_SOURCE=1)' : 'compiled dist/ (npm start)';
  const cold: Awaited<ReturnType<typeof once>>[] = [];
  const warm: Awaited<ReturnType<typeof once>>[] = [];
  for (let i = 0; i < RUNS; i++) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotgen-start-'));
    try {
      cold.push(await once(dataDir, fromSource));
      warm.push(await once(dataDir, fromSource));
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  for (const [kind, runs] of [
    ['cold (fresh DATA_DIR, initdb)', cold],
    ['warm (existing DATA_DIR)', warm],
  ] as const) {
    rows.push(
      `| ${mode} | ${kind} | ${median(runs.map((r) => r.ms)).toFixed(0)} | ${median(runs.map((r) => r.serviceMb)).toFixed(0)} | ${median(runs.map((r) => r.postgresMb)).toFixed(0)} |`,
    );
  }
  process.stderr.write(`[bench:start] ${mode} done\n`);
}
process.stdout.write(`\nnpm start to its first 200 on /readyz, ${RUNS} runs each, node ${process.version}\n\n${rows.join('\n')}\n`);
