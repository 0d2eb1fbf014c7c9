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

export async function createTestDatabase(server: TestServer = primaryServer(), poolSize = 10): Promise<TestDatabase> {
  const name = `${server.prefix}${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server.adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${server.template}`);
  } finally {
    await admin.end();
  }
  const url = urlFor(server, name);
  const pool = createPool(url, poolSize);
  return {
    url,
    pool,
    name,
    async drop() {
      await pool.end();
      const c = new pg.Client({ connectionString: server.adminUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
