/**
 * Recognising our own postmaster (src/db/postmaster.ts): a live pid is ours only if it runs a
 * postgres for this very data directory, so a pid recycled by another cluster's postgres is never
 * mistaken for our server, neither when attaching nor by the supervisor watching it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isPostmasterOf, livePostmaster, runsPostmasterOf } from '../../src/db/postmaster.ts';
import { supervise } from '../../src/db/supervisor.ts';
import { until } from '../support/jobs.ts';

const dirs: string[] = [];
const children: ChildProcess[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  }
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotgen-pm-'));
  dirs.push(dir);
  return dir;
}

const cmdline = (...args: string[]) => [...args, ''].join('\0');

/**
 * A process whose command line looks like a postmaster of `pgDir` (`…/postgres -D pgDir …`): node
 * run through a link named postgres. It stands for another cluster's server on a recycled pid.
 */
async function fakePostgres(pgDir: string): Promise<ChildProcess> {
  const bin = path.join(tempDir(), 'postgres');
  fs.symlinkSync(process.execPath, bin);
  const child = spawn(bin, ['-e', 'setInterval(() => {}, 1000); console.log("up")', '--', '-D', pgDir, '-p', '5432'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  children.push(child);
  await once(child.stdout!, 'data');
  return child;
}

describe('isPostmasterOf (the command-line comparison)', () => {
  const pgDir = '/data/shotgen/pg';
  it('is a postgres serving this data directory', () => {
    expect(isPostmasterOf(cmdline('/opt/pg/bin/postgres', '-D', pgDir, '-p', '5432'), pgDir)).toBe(true);
  });
  it("is not another cluster's postgres, even one whose directory starts the same", () => {
    expect(isPostmasterOf(cmdline('/usr/lib/postgresql/15/bin/postgres', '-D', '/var/lib/postgresql/15/main'), pgDir)).toBe(false);
    expect(isPostmasterOf(cmdline('/opt/pg/bin/postgres', '-D', `${pgDir}2`), pgDir)).toBe(false);
  });
  it('is not another program naming the directory, nor a zombie (empty command line)', () => {
    expect(isPostmasterOf(cmdline('/usr/bin/rsync', '-a', pgDir, '/backup'), pgDir)).toBe(false);
    expect(isPostmasterOf('', pgDir)).toBe(false);
  });
});

describe.skipIf(!fs.existsSync('/proc/self/cmdline'))("a live pid of another cluster's postgres", () => {
  it('is not our postmaster: neither for runsPostmasterOf nor behind a postmaster.pid', async () => {
    const ours = path.join(tempDir(), 'pg');
    const theirs = path.join(tempDir(), 'pg');
    const other = await fakePostgres(theirs);
    expect(runsPostmasterOf(other.pid!, theirs)).toBe(true);
    expect(runsPostmasterOf(other.pid!, ours)).toBe(false);
    expect(runsPostmasterOf(process.pid, ours)).toBe(false);

    // A postmaster.pid of ours left by a crash, whose pid now runs the other cluster.
    fs.mkdirSync(ours, { recursive: true });
    fs.writeFileSync(path.join(ours, 'postmaster.pid'), [other.pid, ours, '0', '5432', '/tmp', '', '', 'ready', ''].join('\n'));
    expect(livePostmaster(ours)).toBeNull();
    fs.mkdirSync(theirs, { recursive: true });
    fs.writeFileSync(path.join(theirs, 'postmaster.pid'), [other.pid, theirs, '0', '5432', '/tmp', '', '', 'ready', ''].join('\n'));
    expect(livePostmaster(theirs)?.pid).toBe(other.pid);
  });

  it('is found gone by the supervisor, which starts ours again', async () => {
    const dataDir = tempDir();
    fs.mkdirSync(path.join(dataDir, 'run'));
    const pgDir = path.join(dataDir, 'pg');
    const other = await fakePostgres(path.join(tempDir(), 'pg'));
    const log: string[] = [];
    let stopped = false;
    const unwatch = supervise(
      // Binaries that cannot start: the restart is attempted (and fails) without a real server.
      {
        dataDir,
        pgDir,
        socketDir: path.join(dataDir, 'run'),
        bin: { initdb: '/nonexistent/initdb', postgres: '/nonexistent/postgres' },
        user: null,
        role: 'serve',
        start: {},
        log: (m) => log.push(m),
        intervalMs: 20,
      },
      {
        pid: other.pid!,
        get stopped() {
          return stopped;
        },
        replaced: () => undefined,
      },
    );
    try {
      await until(async () => log.some((m) => m.includes(`(pid ${other.pid}) is gone; restarting it`)), 5_000);
    } finally {
      stopped = true;
      unwatch();
      // Let the restart loop notice (it sleeps at most a few hundred ms between attempts) before the directory goes.
      await new Promise((r) => setTimeout(r, 500));
    }
  });
});
