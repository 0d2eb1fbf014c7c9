/**
 * Once per test run: start a throwaway embedded PostgreSQL, and build a migrated template database
 * on it (and on the external server when TEST_DATABASE_URL is set). Each test then clones the
 * template, which takes a few milliseconds, so every test has its own database.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { embeddedDatabaseUrl, openEmbeddedServer } from '../../src/db/embedded.ts';
import { migrate } from '../../src/db/migrate.ts';
import { createPool } from '../../src/db/pool.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    testServers: { name: 'embedded' | 'external'; adminUrl: string; template: string; prefix: string }[];
  }
}

async function buildTemplate(adminUrl: string, template: string, urlFor: (db: string) => string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${template}`);
    await admin.query(`CREATE DATABASE ${template}`);
  } finally {
    await admin.end();
  }
  const pool = createPool(urlFor(template), 1);
  try {
    await migrate(pool);
  } finally {
    await pool.end();
  }
}

async function dropDatabases(adminUrl: string, prefix: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${prefix}%`]);
    for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

export default async function setup(project: TestProject) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotgen-test-'));
  const server = await openEmbeddedServer({ dataDir, settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' } });
  const servers: { name: 'embedded' | 'external'; adminUrl: string; template: string; prefix: string }[] = [];
  const prefix = `shotgen_t${process.pid}_`;

  await buildTemplate(server.url, `${prefix}template`, (db) => embeddedDatabaseUrl(server, db));
  servers.push({ name: 'embedded', adminUrl: server.url, template: `${prefix}template`, prefix });

  const external = process.env.TEST_DATABASE_URL;
  if (external) {
    const withDb = (db: string) => {
      const u = new URL(external);
      u.pathname = `/${db}`;
      return u.toString();
    };
    await buildTemplate(external, `${prefix}template`, withDb);
    servers.push({ name: 'external', adminUrl: external, template: `${prefix}template`, prefix });
  }
  project.provide('testServers', servers);

  return async () => {
    if (external) await dropDatabases(external, prefix).catch((e) => console.error('could not drop test databases:', e));
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
