/**
 * `npm run test:cpu` only (vitest.cpu.config.ts): each test file's CPU, read from its fork's
 * /proc/self/stat at the file's first and last hook. `fork` is the fork's own CPU with its threads
 * (render, planning, OCR); `children` the child processes it reaped meanwhile (`shotgen serve`,
 * `demo`, Chromium). A fork runs one file at a time, so the rows add up to the run's CPU but for
 * vitest's main process and the embedded PostgreSQL. One JSON line a file, appended to CPU_OUT
 * (default /tmp/shotgen-cpu-per-file.jsonl). Linux only; elsewhere it records nothing.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';

const TICKS_PER_S = 100;

/** utime, stime, cutime, cstime in clock ticks; null where there is no /proc. */
function cpu(): number[] | null {
  try {
    // Fields after "pid (comm) ": state is the first, utime the twelfth.
    const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return fields.slice(11, 15).map(Number);
  } catch {
    return null;
  }
}

let start = cpu();
let startedAt = Date.now();
beforeAll(() => {
  start = cpu();
  startedAt = Date.now();
});
afterAll(() => {
  const end = cpu();
  if (!start || !end) return;
  const [u, s, cu, cs] = end.map((v, i) => (v - start![i]) / TICKS_PER_S);
  const row = {
    file: expect.getState().testPath,
    pid: process.pid,
    start: startedAt,
    end: Date.now(),
    wall: (Date.now() - startedAt) / 1000,
    fork: u + s,
    children: cu + cs,
  };
  fs.appendFileSync(process.env.CPU_OUT ?? '/tmp/shotgen-cpu-per-file.jsonl', `${JSON.stringify(row)}\n`);
});
