/** A fresh database per test, cloned from the run's migrated template. */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { createPool, type Db } from '../../src/db/pool.ts';

export type TestServer = ReturnType<typeof inject<'testServers'>>[number];

/** Embedded always; the external server too when TEST_DATABASE_URL is set. */
export const testServers = (): TestServer[] => inject('testServers');

/** The server most tests run on: external when configured (as in CI), else embedded. */
export const primaryServer = (): TestServer => testServers().at(-1)!;

export function urlFor(server: TestServer, database: string): string {
  const u = new URL(server.adminUrl);
  u.pathname = `/${database}`;
  return u.toString();
}

export interface TestDatabase {
  url: string;
  pool: Db;
  name: string;
  drop(): Promise<void>;
}

async function makeDatabase(server: TestServer): Promise<string> {
  const name = `${server.prefix}${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server.adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${server.template}`);
  } finally {
    await admin.end();
  }
  return name;
}

/**
 * One database per server made ahead, while the test that asked for the last one runs: a clone
 * costs the server 100-250 ms of mostly disk work (fsync on, as in CI), which then overlaps a
 * test's CPU instead of adding to it. A worker keeps this across files (isolate: false); what is
 * left over when it exits goes with the run's prefix in the global teardown.
 */
const ahead = new Map<string, Promise<string | null>>();

async function takeDatabase(server: TestServer): Promise<string> {
  const key = `${server.adminUrl} ${server.template}`;
  // Taken and replaced before any await: two tests asking at once (a test that builds two
  // deployments) must never be handed the same clone.
  const pending = ahead.get(key);
  ahead.set(
    key,
    makeDatabase(server).catch(() => null),
  );
  // A clone made ahead that failed (a server restarted by an outage test) is made again now.
  return (await pending) ?? makeDatabase(server);
}

export async function createTestDatabase(server: TestServer = primaryServer(), poolSize = 10): Promise<TestDatabase> {
  const name = await takeDatabase(server);
  const url = urlFor(server, name);
  const pool = createPool(url, poolSize);
  return {
    url,
    pool,
    name,
    async drop() {
      await pool.end();
      // Not awaited: nothing reads this database again, and the global teardown drops whatever a
      // worker that exits first leaves behind. Waiting cost each test another 90-150 ms.
      void dropDatabase(server, name);
    },
  };
}

async function dropDatabase(server: TestServer, name: string): Promise<void> {
  const c = new pg.Client({ connectionString: server.adminUrl });
  try {
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } catch {
    // the global teardown drops it by the run's prefix
  } finally {
    await c.end().catch(() => undefined);
  }
}
