/**
 * A checked-out client must survive its connection going away (issue 13, item 0): before, the
 * server's FATAL on a client inside transaction() was an unheard 'error' event that ended the
 * process. And the classification that turns such failures into 503s instead of 500s.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isConnectionLost, transaction, withClient } from '../../src/db/pool.ts';
import { createTestDatabase, testServers, type TestDatabase } from '../support/db.ts';
import { until } from '../support/jobs.ts';

async function terminate(t: TestDatabase, pid: number): Promise<void> {
  await t.pool.query('SELECT pg_terminate_backend($1)', [pid]);
}

for (const server of testServers()) {
  describe(`checked-out clients on the ${server.name} server`, () => {
    let t: TestDatabase;
    beforeEach(async () => {
      t = await createTestDatabase(server, 3);
    });
    afterEach(async () => {
      await t.drop();
    });

    it('a transaction whose connection is killed between statements fails; the process and the pool live on', async () => {
      const errorEvents: unknown[] = [];
      const outcome = transaction(t.pool, async (tx) => {
        const { rows } = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        tx.on('error', (e) => errorEvents.push(e));
        await terminate(t, rows[0].pid);
        // The server's FATAL arrives while no query of ours runs: the 'error' event alone reports it.
        await until(async () => errorEvents.length > 0, 5_000);
        await tx.query('SELECT 1');
      });
      const error = await outcome.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      expect(isConnectionLost(error)).toBe(true);
      expect(errorEvents.length).toBeGreaterThan(0);
      // The broken client was destroyed, not given to the next caller.
      expect(t.pool.totalCount).toBe(1);
      for (let i = 0; i < 5; i++) expect((await t.pool.query<{ n: number }>('SELECT 1 AS n')).rows[0].n).toBe(1);
    });

    it('a connection killed during a statement fails that statement only', async () => {
      const error = await withClient(t.pool, async (c) => {
        const { rows } = await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        const slow = c.query('SELECT pg_sleep(5)').then(
          () => null,
          (e: unknown) => e,
        );
        // Killed while the statement runs, not before it started.
        await until(
          async () =>
            (
              await t.pool.query<{ n: number }>(
                `SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = $1 AND state = 'active' AND query LIKE 'SELECT pg_sleep%'`,
                [rows[0].pid],
              )
            ).rows[0].n === 1,
          5_000,
        );
        await terminate(t, rows[0].pid);
        throw await slow;
      }).catch((e: unknown) => e);
      expect(isConnectionLost(error)).toBe(true);
      expect((await t.pool.query('SELECT 1')).rowCount).toBe(1);
    });

    it('statement errors are not connection losses, and leave the client in the pool', async () => {
      const error = await transaction(t.pool, (tx) => tx.query('SELECT * FROM no_such_table')).catch((e: unknown) => e);
      expect(isConnectionLost(error)).toBe(false);
      expect(t.pool.idleCount).toBe(1);
    });
  });
}

describe('isConnectionLost', () => {
  const connectError = async (connectionString: string): Promise<unknown> => {
    const c = new pg.Client({ connectionString });
    c.on('error', () => undefined);
    return c.connect().then(
      () => c.end().then(() => null),
      (e: unknown) => e,
    );
  };

  it('recognises a missing unix socket and a refused TCP port', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotgen-nosock-'));
    try {
      const missing = await connectError(`postgres://postgres@localhost/x?host=${encodeURIComponent(dir)}`);
      expect((missing as { code?: string }).code).toBe('ENOENT');
      expect(isConnectionLost(missing)).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    // A port that was free a moment ago: nothing listens there.
    const probe = net.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as net.AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const refused = await connectError(`postgres://postgres@127.0.0.1:${port}/x`);
    expect(isConnectionLost(refused)).toBe(true);
  });

  it('does not mistake other failures for an outage', () => {
    let fileError: unknown;
    try {
      fs.readFileSync('/no/such/file');
    } catch (e) {
      fileError = e;
    }
    expect(isConnectionLost(fileError)).toBe(false);
    expect(isConnectionLost(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isConnectionLost(Object.assign(new Error('the database system is starting up'), { code: '57P03' }))).toBe(true);
    expect(isConnectionLost(new Error('wrapped', { cause: new Error('Connection terminated unexpectedly') }))).toBe(true);
    expect(isConnectionLost('Connection terminated')).toBe(false);
  });
});
