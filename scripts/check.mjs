// The checks `npm test` runs before vitest: the type check beside the build and the linters. tsc
// uses one core, so on a 2-core machine running them as two lanes takes the longer lane's time
// (about 30 s) instead of the sum (about 50 s). The build comes before the linters in its lane,
// and everything is done before vitest starts, which runs dist/ in its child processes.
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
      process.stdout.write(`${code === 0 ? 'ok' : 'FAILED'}: ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)\n${out}`);
      resolve(code === 0);
    });
  });
}

async function lane(steps) {
  for (const step of steps) if (!(await run(step))) return false;
  return true;
}

const results = await Promise.all(lanes.map(lane));
process.exit(results.every(Boolean) ? 0 : 1);
