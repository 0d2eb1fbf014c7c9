/**
 * The embedded server's care points (see the header of src/db/embedded.ts), each against its own
 * DATA_DIR. Every test leaves no postgres behind: afterEach stops whatever still runs in the dirs
 * it made, whoever started it.
 */
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isAlive, openEmbeddedServer, type EmbeddedServer } from '../../src/db/embedded.ts';
import { postmastersFor, waitForDeath } from '../cli/helpers.ts';
import { scaled } from '../support/timing.ts';

const CHILD = fileURLToPath(new URL('./embedded-child.ts', import.meta.url));
/**
 * CHILD and the sources it imports, compiled once for this file by esbuild (packages left to
 * node_modules), not by tsx in each child: the same transform (tsx's is esbuild's), without tsx's
 * loader, which cost each of the six children ~0.16 of its ~0.29 CPU-s. Kept under node_modules,
 * from where the child finds pg and the PostgreSQL binaries' package.
 */
const COMPILED_CHILD = fileURLToPath(new URL(`../../node_modules/.cache/shotgen-tests/embedded-child-${process.pid}.mjs`, import.meta.url));
const isRoot = process.getuid?.() === 0;

const pidFile = (dataDir: string) => path.join(dataDir, 'pg', 'postmaster.pid');

function postmasterPid(dataDir: string): number | null {
  try {
    return Number(fs.readFileSync(pidFile(dataDir), 'utf8').split('\n')[0]) || null;
  } catch {
    return null;
  }
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

const dirs: string[] = [];
const children: ChildProcessWithoutNullStreams[] = [];
const handles: EmbeddedServer[] = [];

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotgen-emb-'));
  dirs.push(dir);
  return dir;
}

async function open(dataDir: string, role: 'serve' | 'command' = 'command'): Promise<EmbeddedServer> {
  const server = await openEmbeddedServer({ dataDir, role, settings: { fsync: 'off' } });
  handles.push(server);
  return server;
}

// initdb takes about a second; every test but the fresh-directory one starts from a copy of one
// initialised (and cleanly stopped) directory. cp -a keeps the postgres user's ownership.
let template: string;
function initialisedDir(): string {
  const dir = tempDir();
  execFileSync('cp', ['-a', `${template}/.`, dir]);
  return dir;
}

interface Child {
  proc: ChildProcessWithoutNullStreams;
  next(): Promise<Record<string, unknown>>;
  stop(): Promise<Record<string, unknown>>;
}

/** A second process opening the server (test/db/embedded-child.ts). */
function child(dataDir: string, role: 'serve' | 'command'): Child {
  const proc = spawn(process.execPath, [COMPILED_CHILD, dataDir, role], { stdio: 'pipe' });
  children.push(proc);
  let stderr = '';
  proc.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const lines = readline.createInterface({ input: proc.stdout })[Symbol.asyncIterator]();
  const next = async () => {
    const line = await lines.next();
    if (line.done) throw new Error(`child exited (${proc.exitCode}): ${stderr.trim()}`);
    return JSON.parse(line.value) as Record<string, unknown>;
  };
  return {
    proc,
    next,
    async stop() {
      proc.stdin.write('stop\n');
      const result = await next();
      if (proc.exitCode === null) await once(proc, 'exit');
      return result;
    },
  };
}

beforeAll(async () => {
  await esbuild.build({
    entryPoints: [CHILD],
    outfile: COMPILED_CHILD,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    logLevel: 'error',
  });
  template = tempDir();
  const server = await openEmbeddedServer({ dataDir: template });
  await server.stop();
}, scaled(60_000));

afterEach(async () => {
  for (const c of children.splice(0)) {
    if (c.exitCode === null && c.signalCode === null) {
      c.kill('SIGKILL');
      await once(c, 'exit');
    }
  }
  for (const h of handles.splice(0)) await h.stop().catch(() => undefined);
  // Whatever still runs (a non-owner's server, a failed assertion's leftovers) is stopped here.
  for (const dir of dirs.slice(1)) {
    for (const pid of postmastersFor(dir)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    for (const pid of postmastersFor(dir)) await waitForDeath(pid);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  dirs.splice(1);
});

afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(COMPILED_CHILD, { force: true });
});

describe('embedded PostgreSQL', () => {
  it('listens only on a unix socket inside DATA_DIR/run, even with 127.0.0.1:5432 taken', async () => {
    // Hold 5432 ourselves unless the system PostgreSQL already does, so that a server which tried
    // TCP would fail to start either way.
    const blocker = net.createServer();
    const held = await new Promise<boolean>((resolve, reject) => {
      blocker.once('error', (e: NodeJS.ErrnoException) => (e.code === 'EADDRINUSE' ? resolve(false) : reject(e)));
      blocker.listen(5432, '127.0.0.1', () => resolve(true));
    });
    try {
      const dataDir = initialisedDir();
      const server = await open(dataDir);
      expect(server.socketDir).toBe(path.join(dataDir, 'run'));
      expect(fs.statSync(path.join(dataDir, 'run', `.s.PGSQL.${server.port}`)).isSocket()).toBe(true);
      const [{ listen_addresses }] = await query<{ listen_addresses: string }>(server.url, 'SHOW listen_addresses');
      expect(listen_addresses).toBe('');
      const [{ addr }] = await query<{ addr: string | null }>(server.url, 'SELECT inet_server_addr() AS addr');
      expect(addr).toBeNull();
    } finally {
      if (held) await new Promise((r) => blocker.close(r));
    }
  });

  it.skipIf(!isRoot)('as root, runs the postmaster as the postgres OS user', async () => {
    const server = await open(initialisedDir());
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const uids = /^Uid:\s+(.*)$/m
      .exec(fs.readFileSync(`/proc/${server.pid}/status`, 'utf8'))![1]
      .split(/\s+/)
      .map(Number);
    expect(uids).toEqual([uid, uid, uid, uid]);
    const [{ user }] = await query<{ user: string }>(server.url, 'SELECT current_user AS user');
    expect(user).toBe('postgres');
  });

  it('a second process attaches to the running server instead of starting another', async () => {
    const dataDir = initialisedDir();
    const server = await open(dataDir);
    expect(server.owned).toBe(true);
    const other = child(dataDir, 'command');
    expect(await other.next()).toEqual({ pid: server.pid, owned: false, answer: 42 });
    // Only postmasters name the data directory on their command line; backends rename themselves.
    expect(postmastersFor(dataDir)).toEqual([server.pid]);
    expect(server.owned).toBe(true);
  });

  it('the owner stops the server on stop(); a non-owner’s stop() leaves it running', async () => {
    const dataDir = initialisedDir();
    const server = await open(dataDir);
    const other = child(dataDir, 'command');
    await other.next();
    expect(await other.stop()).toEqual({ stopped: true, ownedBeforeStop: false });
    expect(isAlive(server.pid)).toBe(true);
    expect(await query(server.url, 'SELECT 1')).toHaveLength(1);

    await server.stop();
    await waitForDeath(server.pid);
    expect(fs.existsSync(pidFile(dataDir))).toBe(false);
    expect(postmastersFor(dataDir)).toEqual([]);
  });

  it('a serve process takes over a server a command started, and is the one that stops it', async () => {
    const dataDir = initialisedDir();
    const command = await open(dataDir, 'command');
    const serve = child(dataDir, 'serve');
    expect(await serve.next()).toEqual({ pid: command.pid, owned: true, answer: 42 });
    expect(command.owned).toBe(false);
    await command.stop();
    expect(isAlive(command.pid)).toBe(true);

    expect(await serve.stop()).toEqual({ stopped: true, ownedBeforeStop: true });
    await waitForDeath(command.pid);
    expect(postmastersFor(dataDir)).toEqual([]);
  });

  it('a command that started the server exits after a serve process took it over; the server keeps running', async () => {
    const dataDir = initialisedDir();
    const command = child(dataDir, 'command');
    const { pid } = (await command.next()) as { pid: number };
    const serve = await open(dataDir, 'serve');
    expect(serve.pid).toBe(pid);
    expect(serve.owned).toBe(true);
    // child.stop() waits for the process to end: a server still tied to it would keep it alive.
    expect(await command.stop()).toEqual({ stopped: true, ownedBeforeStop: false });
    expect(isAlive(pid)).toBe(true);
    expect(await query(serve.url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
    await serve.stop();
    await waitForDeath(pid);
  });

  it('recovers from a postmaster killed with SIGKILL, keeping committed data', async () => {
    const dataDir = initialisedDir();
    const first = await open(dataDir);
    await query(first.url, 'CREATE TABLE survivors (n int); INSERT INTO survivors VALUES (1), (2), (3)');
    process.kill(first.pid, 'SIGKILL');
    await waitForDeath(first.pid);
    expect(fs.existsSync(pidFile(dataDir))).toBe(true);

    const second = await open(dataDir);
    expect(second.pid).not.toBe(first.pid);
    expect(second.owned).toBe(true);
    expect(await query(second.url, 'SELECT sum(n)::int AS total FROM survivors')).toEqual([{ total: 6 }]);
    // The dead server's handle no longer counts as a user of the new one.
    await second.stop();
    await waitForDeath(second.pid);
  });

  it('recovers from a postmaster.pid naming a live process that is not this data directory’s postgres', async () => {
    const dataDir = initialisedDir();
    // Our own pid: alive, but node, not postgres.
    fs.writeFileSync(
      pidFile(dataDir),
      `${process.pid}\n${path.join(dataDir, 'pg')}\n1700000000\n5432\n${path.join(dataDir, 'run')}\n\n  5432001         0\nready   \n`,
    );
    if (isRoot) execFileSync('chown', ['postgres:postgres', pidFile(dataDir)]);
    const server = await open(dataDir);
    expect(server.pid).not.toBe(process.pid);
    expect(postmasterPid(dataDir)).toBe(server.pid);
    expect(await query(server.url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });

  it(
    'concurrent opens from two processes on a fresh DATA_DIR end with one server both use',
    async () => {
      const dataDir = tempDir();
      const a = child(dataDir, 'command');
      const b = child(dataDir, 'command');
      const [ra, rb] = await Promise.all([a.next(), b.next()]);
      expect(ra.answer).toBe(42);
      expect(rb.answer).toBe(42);
      expect(ra.pid).toBe(rb.pid);
      expect([ra.owned, rb.owned].sort()).toEqual([false, true]);

      // Whichever stops first, the other keeps its server until it stops too.
      const [first, second] = ra.owned ? [a, b] : [b, a];
      await first.stop();
      expect(isAlive(ra.pid as number)).toBe(true);
      await second.stop();
      await waitForDeath(ra.pid as number);
      expect(postmastersFor(dataDir)).toEqual([]);
    },
    scaled(30_000),
  );
});
