/**
 * Supervision of the embedded server (CONTRACT, "Operations"): a `serve` process that uses it
 * checks a few times a second that its postmaster still runs, and when it has died (killed, out
 * of memory, crashed) starts it again from the same data directory, where PostgreSQL replays its
 * WAL (crash recovery) before it accepts connections. Meanwhile every query fails fast (no socket,
 * or "the database system is starting up") and the API answers 503 with Retry-After.
 *
 * Several serve processes may share the server: the first to take the start lock restarts it and
 * becomes its owner; the others find it running under the lock and attach to it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { withLock, writeOwner, type Role } from './embedded-records.ts';
import {
  livePostmaster,
  removeStalePostmasterFiles,
  runsPostmasterOf,
  startPostmaster,
  type Binaries,
  type OsUser,
  type StartOptions,
} from './postmaster.ts';

export interface SuperviseContext {
  dataDir: string;
  pgDir: string;
  socketDir: string;
  bin: Binaries;
  user: OsUser | null;
  role: Role;
  start: StartOptions;
  log: (message: string) => void;
  intervalMs?: number;
}

/** The handle being kept alive. */
export interface Watched {
  readonly pid: number;
  readonly stopped: boolean;
  /** The server runs again as `pid` (started by this process or another: the owner record says which). */
  replaced(pid: number): void;
}

/** Starts watching; returns the function that stops it. */
export function supervise(ctx: SuperviseContext, target: Watched): () => void {
  let restarting = false;
  const timer = setInterval(() => {
    // The pid itself, not postmaster.pid (which a dead server leaves behind), and only as a postgres
    // of this data directory: a recycled pid now running another cluster's postgres is not ours.
    if (restarting || target.stopped || runsPostmasterOf(target.pid, ctx.pgDir)) return;
    restarting = true;
    void restart(ctx, target).finally(() => (restarting = false));
  }, ctx.intervalMs ?? 200);
  timer.unref();
  return () => clearInterval(timer);
}

async function restart(ctx: SuperviseContext, target: Watched): Promise<void> {
  const diedAt = Date.now();
  const dead = target.pid;
  ctx.log(`embedded PostgreSQL (pid ${dead}) is gone; restarting it`);
  for (let attempt = 1; !target.stopped; attempt++) {
    try {
      const outcome = await withLock(ctx.dataDir, async () => {
        if (target.stopped) return null;
        const live = livePostmaster(ctx.pgDir);
        if (live && live.pid !== dead) {
          // Another serve process got there first (it held the lock until its server was ready).
          return { pid: live.pid, started: false };
        }
        removeStalePostmasterFiles(ctx.pgDir, ctx.socketDir);
        const pid = await startPostmaster(ctx.dataDir, ctx.pgDir, ctx.socketDir, ctx.bin, ctx.user, ctx.start);
        writeOwner(ctx.dataDir, { pid: process.pid, role: ctx.role });
        return { pid, started: true };
      });
      if (!outcome) return;
      target.replaced(outcome.pid);
      ctx.log(
        `embedded PostgreSQL is back (pid ${outcome.pid}${outcome.started ? '' : ', started by another process'}) ${Date.now() - diedAt} ms after it was found gone`,
      );
      return;
    } catch (error) {
      // Keep trying (the API answers 503 meanwhile), without flooding the log.
      if (attempt === 1 || attempt % 30 === 0)
        ctx.log(`restarting embedded PostgreSQL failed (attempt ${attempt}): ${(error as Error).message}`);
      await sleep(Math.min(2_000, 100 * attempt));
    }
  }
}
