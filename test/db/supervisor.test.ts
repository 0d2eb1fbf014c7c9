/**
 * Supervision of the embedded server (src/db/supervisor.ts): a supervised handle restarts a dead
 * postmaster, crash recovery keeps what was committed, and two handles watching one server end on
 * one new server, not two.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { openEmbeddedServer, type EmbeddedServer } from '../../src/db/embedded.ts';
import { removeStalePostmasterFiles } from '../../src/db/postmaster.ts';
import { killPostmasters, postmastersFor, waitForDeath } from '../cli/helpers.ts';
import { until } from '../support/jobs.ts';
import { scaled } from '../support/timing.ts';

const dirs: string[] = [];
const handles: EmbeddedServer[] = [];

afterEach(async () => {
  for (const h of handles.splice(0)) await h.stop().catch(() => undefined);
  for (const dir of dirs.splice(0)) {
    await killPostmasters(dir);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotgen-sup-'));
  dirs.push(dir);
  return dir;
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

describe('supervised embedded server', () => {
  it(
    'two supervised handles: a SIGKILLed postmaster comes back once, with its committed data, and both use it',
    async () => {
      const dataDir = tempDir();
      const log: string[] = [];
      const open = () =>
        openEmbeddedServer({ dataDir, role: 'serve', supervise: true, settings: { fsync: 'off' }, log: (m) => log.push(m) });
      const a = await open();
      const b = await open();
      handles.push(a, b);
      expect(b.pid).toBe(a.pid);
      // Each handle watches the server (the handle says so: no module mock, which a shared module
      // cache in the test workers would make depend on the file's order).
      expect([a.supervised, b.supervised]).toEqual([true, true]);
      await query(a.url, 'CREATE TABLE survivors (n int); INSERT INTO survivors VALUES (1), (2), (3)');

      const dead = a.pid;
      process.kill(dead, 'SIGKILL');
      await waitForDeath(dead);
      await until(async () => a.pid !== dead && b.pid !== dead, 20_000);
      expect(b.pid).toBe(a.pid);
      expect(postmastersFor(dataDir)).toEqual([a.pid]);
      expect(await query(b.url, 'SELECT sum(n)::int AS total FROM survivors')).toEqual([{ total: 6 }]);
      expect(log.filter((m) => m.includes('is back'))).toHaveLength(2);

      // Whoever restarted it owns it; the last handle to stop stops the new server.
      const restarted = a.pid;
      await a.stop();
      expect(postmastersFor(dataDir)).toEqual([restarted]);
      await b.stop();
      await waitForDeath(restarted);
      expect(postmastersFor(dataDir)).toEqual([]);
    },
    scaled(60_000),
  );

  it(
    'an unsupervised handle (a one-off command) leaves a dead server dead',
    async () => {
      const dataDir = tempDir();
      const server = await openEmbeddedServer({ dataDir, settings: { fsync: 'off' } });
      handles.push(server);
      // No watcher, so nothing can restart it: no fixed wait needed to see that nothing happens.
      expect(server.supervised).toBe(false);
      process.kill(server.pid, 'SIGKILL');
      await waitForDeath(server.pid);
      // A backend it had forked and not yet retitled outlives it for a moment under load, orphaned
      // (so no longer filtered out as its child); it exits by itself. A restarted server would not.
      await until(async () => postmastersFor(dataDir).length === 0, 15_000);
      expect(postmastersFor(dataDir)).toEqual([]);
    },
    scaled(60_000),
  );

  it('a stale lock file naming a dead pid is left for PostgreSQL to check; one naming a live other process goes', () => {
    const pgDir = tempDir();
    const socketDir = tempDir();
    const pidFile = path.join(pgDir, 'postmaster.pid');
    const socketLock = path.join(socketDir, '.s.PGSQL.5432.lock');
    // A pid far above pid_max cannot run.
    fs.writeFileSync(pidFile, '99999999\n/some/dir\n');
    fs.writeFileSync(socketLock, '99999999\n');
    removeStalePostmasterFiles(pgDir, socketDir);
    expect([fs.existsSync(pidFile), fs.existsSync(socketLock)]).toEqual([true, true]);
    fs.writeFileSync(pidFile, `${process.pid}\n/some/dir\n`);
    fs.writeFileSync(socketLock, `${process.pid}\n`);
    removeStalePostmasterFiles(pgDir, socketDir);
    expect([fs.existsSync(pidFile), fs.existsSync(socketLock)]).toEqual([false, false]);
  });
});
