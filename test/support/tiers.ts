/**
 * A tier is a group of tests that needs something outside the repository: Redis, the recorded
 * store responses in ../shared, an external PostgreSQL, Chromium. Where the thing is missing, a
 * clone on a laptop skips the tier and says why; in CI (CI=true) a tier that cannot run fails,
 * so that a broken runner cannot pass green. Each tier adds one test that carries its state in
 * its meta, which the summary reporter (./summary-reporter.ts) prints at the end of the run.
 */
import { describe, it } from 'vitest';

export interface TierState {
  name: string;
  ran: boolean;
  /** Why it did not run. */
  missing?: string;
}

declare module 'vitest' {
  interface TaskMeta {
    tier?: TierState;
  }
}

export const inCi = (): boolean => !!process.env.CI && process.env.CI !== 'false' && process.env.CI !== '0';

export interface TierOptions {
  /** Whether what the tier needs is there. */
  available: boolean;
  /** What is missing, said so that the reader can fix it. */
  missing: string;
  /** false: skipped even in CI (e.g. tests that need to run as root). Default true. */
  requiredInCi?: boolean;
}

/** `describe`, for a tier: the suite runs when its tier can, and reports it either way. */
export function tier(name: string, opts: TierOptions): (title: string, body: () => void) => void {
  const required = (opts.requiredInCi ?? true) && inCi();
  if (!opts.available) console.warn(`[tier ${name}] ${required ? 'FAILS in CI' : 'skipped'}: ${opts.missing}`);
  return (title, body) =>
    describe(title, () => {
      it(`tier ${name} ${opts.available ? 'runs' : 'is missing'}`, (ctx) => {
        ctx.task.meta.tier = opts.available ? { name, ran: true } : { name, ran: false, missing: opts.missing };
        if (opts.available) return;
        if (required) throw new Error(`CI=true and the ${name} tier cannot run: ${opts.missing}`);
        ctx.skip(opts.missing);
      });
      if (opts.available) body();
    });
}
