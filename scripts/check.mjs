// The checks `npm test` runs beside vitest: the type check, the build and the linters. tsc uses
// one core, so on a 2-core machine running them as two lanes takes the longer lane's time (about
// 30 s) instead of the sum (about 50 s).
//
// `--vitest` (what `npm test` runs; any further arguments go to vitest): vitest starts as soon as
// the build is done (its child processes run dist/, test/support/dist.ts) and the type check and
// linters finish beside it. A vitest run waits on child processes, servers and PostgreSQL more than
// it computes (about a third of a file's time is CPU), so the checks fill cores it leaves idle
// instead of adding their ~45-90 s before it. A check's failure is printed when it happens; the
// passes are printed after vitest, so they do not break into its live report. The exit code is
// non-zero when any check or vitest fails.
//
// Each check keeps what it learnt in node_modules/.cache/shotgen-check (never committed), so a
// second `npm test` only checks what changed: tsc's build info (it re-checks every file whose
// own text or whose dependencies' types changed), and eslint's and prettier's per-file caches,
// keyed by each file's content and the configuration. Sound here because no eslint rule reads
// types across files (eslint.config.js uses no type information). A fresh clone checks it all.
//
// Prettier reads TypeScript with its babel-ts parser (.prettierrc.json): it prints every file the
// same as the default typescript parser and takes about a fifth less CPU (32 → 26 s for src/ and
// test/). Syntax itself is tsc's job.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const cache = 'node_modules/.cache/shotgen-check';
const lanes = [
  [['npx', ['tsc', '--noEmit', '-p', '.', '--incremental', '--tsBuildInfoFile', `${cache}/typecheck.tsbuildinfo`]]],
  [
    // The build skips its own type check (scripts/build.mjs): the tsc lane checks src/ already.
    ['npm', ['run', '--silent', 'build', '--', '--no-check']],
    ['npx', ['eslint', '--cache', '--cache-location', `${cache}/eslint`, '--cache-strategy', 'content', '.']],
    [
      'npx',
      [
        'prettier',
        '--check',
        '--log-level',
        'warn',
        '--cache',
        '--cache-location',
        `${cache}/prettier`,
        '--cache-strategy',
        'content',
        '.',
      ],
    ],
  ],
];

const withVitest = process.argv[2] === '--vitest';
const vitestArgs = process.argv.slice(3);
/** Passing checks' reports, held while vitest writes its own. */
const held = [];
let vitestRunning = false;

/** What `npm run build` reads: the sources (theirs and the client's), its configuration, the packages. */
const BUILD_INPUTS = [
  'src',
  'clients/typescript/src',
  'clients/typescript/tsconfig.json',
  'clients/typescript/scripts/build.mjs',
  'tsconfig.json',
  'tsconfig.build.json',
  'scripts/build.mjs',
  'scripts/bundle.mjs',
  'package-lock.json',
  'node_modules/.package-lock.json',
];

/** The latest change under `p`: folders count too, as removing or renaming a file changes its folder's time. */
function newest(p) {
  const stat = fs.statSync(p, { throwIfNoEntry: false });
  if (!stat) return Infinity;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...fs.readdirSync(p).map((name) => newest(path.join(p, name))));
}

/**
 * Whether dist/ is a finished build of what is here now (scripts/build.mjs marks one). In CI,
 * `npm ci` has just built it (`prepare`); building again found nothing to do and still cost about
 * 10 s of CPU, the two tsc programs parsing every file to compare it with their build info.
 */
function builtAlready() {
  const done = fs.statSync('dist/.build-done', { throwIfNoEntry: false })?.mtimeMs ?? 0;
  return BUILD_INPUTS.every((p) => newest(p) < done);
}

function run([cmd, args]) {
  return new Promise((resolve) => {
    const started = Date.now();
    // Output is kept per command and printed whole, so two lanes' lines do not interleave.
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    child.on('close', (code) => {
      const name = [cmd, ...args].join(' ');
      const report = `${code === 0 ? 'ok' : 'FAILED'}: ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)\n${out}`;
      if (vitestRunning && code === 0) held.push(report);
      else process.stdout.write(report);
      resolve(code === 0);
    });
  });
}

async function lane(steps) {
  for (const step of steps) if (!(await run(step))) return false;
  return true;
}

/** vitest, its output straight to ours; resolves true when it passed. */
function vitest() {
  vitestRunning = true;
  return new Promise((resolve) => {
    const child = spawn('npx', ['vitest', 'run', ...vitestArgs], { stdio: 'inherit' });
    child.on('close', (code) => {
      vitestRunning = false;
      resolve(code === 0);
    });
  });
}

let results;
if (withVitest) {
  const [typecheck, [build, ...lint]] = lanes;
  const checks = lane(typecheck);
  // A failed build ends the run: vitest would only test stale or missing output.
  let built = true;
  if (builtAlready()) held.push('ok: no build (dist/ is a finished build of these sources)\n');
  else built = await lane([build]);
  const tested = built ? vitest() : Promise.resolve(false);
  results = await Promise.all([checks, built ? lane(lint) : false, tested]);
  for (const report of held) process.stdout.write(report);
} else {
  results = await Promise.all(lanes.map(lane));
}
process.exit(results.every(Boolean) ? 0 : 1);
