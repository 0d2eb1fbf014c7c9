// The checks `npm test` runs before vitest: the type check beside the build and the linters. tsc
// uses one core, so on a 2-core machine running them as two lanes takes the longer lane's time
// (about 30 s) instead of the sum (about 50 s). The build comes before the linters in its lane,
// and everything is done before vitest starts, which runs dist/ in its child processes.
import { spawn } from 'node:child_process';

const lanes = [
  [['npm', ['run', '--silent', 'typecheck']]],
  [
    ['npm', ['run', '--silent', 'build']],
    ['npx', ['eslint', '.']],
    ['npx', ['prettier', '--check', '--log-level', 'warn', '.']],
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
