/**
 * How much longer than on an idle machine a test may take: one factor for vitest's own timeouts
 * (vitest.config.ts) and for every helper that waits for a condition (until, printed, ...).
 * A deadline only decides when a hung test is reported; a passing test ends as soon as its
 * condition holds, so a generous factor costs nothing. TEST_TIME_FACTOR overrides it; otherwise
 * at least 2 (a 2-core runner shared with a benchmark runs about half as fast), more when the
 * machine is already loaded as the run starts.
 */
import os from 'node:os';

function factor(): number {
  const set = Number(process.env.TEST_TIME_FACTOR);
  if (Number.isFinite(set) && set > 0) return set;
  const cores = Math.max(1, os.availableParallelism());
  return Math.min(6, Math.max(2, 1 + os.loadavg()[0] / cores));
}

export const TIME_FACTOR = factor();

/** A deadline of `ms` on an idle machine, scaled for this one. */
export const scaled = (ms: number): number => Math.round(ms * TIME_FACTOR);
