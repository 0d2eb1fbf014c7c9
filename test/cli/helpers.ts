/** Running `shotgen` as the operator does: a child process of bin/shotgen.js. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import readline from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { isAlive } from '../../src/db/embedded.ts';
import { scaled } from '../support/timing.ts';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = path.join(ROOT, 'bin', 'shotgen.js');

export interface Env {
  DATA_DIR: string;
  DATABASE_URL?: string;
  [name: string]: string | undefined;
}

/** The test runner's environment minus anything that would point the CLI at another database. */
function childEnv(env: Env): NodeJS.ProcessEnv {
  const base = { ...process.env };
  delete base.DATABASE_URL;
  return { ...base, LOG_LEVEL: 'warn', ...env };
}

export interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

export async function shotgen(args: string[], env: Env): Promise<Result> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: childEnv(env) });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout, stderr };
}

/** Runs a command that must succeed with --json and returns its parsed output. */
export async function shotgenJson<T = Record<string, unknown>>(args: string[], env: Env): Promise<T> {
  const r = await shotgen([...args, '--json'], env);
  if (r.code !== 0) throw new Error(`shotgen ${args.join(' ')} exited ${r.code}: ${r.stderr.trim()}`);
  return JSON.parse(r.stdout) as T;
}

export interface Serve {
  proc: ChildProcessWithoutNullStreams;
  address: string;
  /** SIGTERM, then the exit code. */
  terminate(): Promise<number | null>;
}

/** `shotgen serve --json` in the background, resolved once it prints its address. */
export async function startServe(env: Env, args: string[] = []): Promise<Serve> {
  const proc = spawn(process.execPath, [BIN, 'serve', '--json', ...args], { cwd: ROOT, env: childEnv({ HOST: '127.0.0.1', ...env }) });
  let stderr = '';
  proc.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = once(proc, 'exit');
  const lines = readline.createInterface({ input: proc.stdout });
  const address = await new Promise<string>((resolve, reject) => {
    lines.on('line', (line) => {
      try {
        const parsed = JSON.parse(line) as { address?: string; role?: string; level?: number };
        // Log lines are JSON too; the --json announcement is the one without a level.
        if (parsed.address && parsed.role && parsed.level === undefined) resolve(parsed.address);
      } catch {
        // not JSON: ignore
      }
    });
    void exited.then(([code]) => reject(new Error(`serve exited (${code}) before listening: ${stderr.trim()}`)));
  });
  return {
    proc,
    address,
    async terminate() {
      if (proc.exitCode !== null || proc.signalCode !== null) return proc.exitCode;
      proc.kill('SIGTERM');
      const [code] = (await exited) as [number | null];
      return code;
    },
  };
}

/**
 * Ports the kernel never hands out by itself: below Linux's ephemeral range (32768-60999), from
 * which it takes both `listen(0)` ports and the local ports of outgoing connections. A port taken
 * from that range was free when asked, but a connection of the busy run (a pool, a fetch) could
 * take it before the process meant to listen on it did: serve exited with EADDRINUSE in a full run
 * under load. Here only another test's freePort could choose the same port, 1 in ~12,000.
 */
const CHOSEN_PORTS = { from: 20_000, to: 32_767 };

/** A port nothing listens on now, for a process to listen on (or, for a refused connection, for none to). */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = CHOSEN_PORTS.from + Math.floor(Math.random() * (CHOSEN_PORTS.to - CHOSEN_PORTS.from + 1));
    const server = net.createServer();
    const free = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (!free) continue;
    await new Promise((resolve) => server.close(resolve));
    return port;
  }
}

/** Resolves once the process is gone; throws if it is still alive after `timeoutMs`. */
export async function waitForDeath(pid: number, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + scaled(timeoutMs);
  while (isAlive(pid)) {
    if (Date.now() > deadline) throw new Error(`pid ${pid} still alive after ${timeoutMs} ms`);
    await sleep(10);
  }
}

/**
 * Postmasters running for this DATA_DIR: they name the data directory on their command line. A
 * child the postmaster has just forked does too until it sets its own title ("postgres:
 * checkpointer"), which a loaded machine can delay: a process whose parent is listed is not one.
 */
export function postmastersFor(dataDir: string): number[] {
  const pgDir = path.join(dataDir, 'pg');
  const named = fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return fs.readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0').includes(pgDir);
      } catch {
        return false;
      }
    })
    .map(Number);
  return named.filter((pid) => !named.includes(parentOf(pid)));
}

/** The parent pid from /proc/PID/stat (the field after the parenthesised command name). */
function parentOf(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return -1;
  }
}

export function postmasterPid(dataDir: string): number | null {
  try {
    return Number(fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]) || null;
  } catch {
    return null;
  }
}

/** Cleanup after a failed test: no postgres may outlive the run. */
export async function killPostmasters(dataDir: string): Promise<void> {
  for (const pid of postmastersFor(dataDir)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
    await waitForDeath(pid);
  }
}
