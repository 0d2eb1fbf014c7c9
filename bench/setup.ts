/**
 * The bench's database and rows. By default a fresh embedded PostgreSQL in a temp DATA_DIR; with
 * BENCH_DATABASE_URL, a throwaway database created on that server (or, when the role may not
 * create databases, that database itself: every check below filters by the bench's own accounts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { createAccount } from '../src/accounts/accounts.ts';
import { createApiKey } from '../src/accounts/api-keys.ts';
import { grant } from '../src/accounts/credits.ts';
import { openDatabase, type Database } from '../src/db/database.ts';
import { isAlive } from '../src/db/embedded.ts';
import type { Queryable } from '../src/db/pool.ts';
import { newId } from '../src/core/ids.ts';
import { emptyScreenshots, type Listing } from '../src/core/listing.ts';

export interface BenchDatabase {
  database: Database;
  /** Environment for a service child using the same database. */
  childEnv: NodeJS.ProcessEnv;
  describe: string;
  /** Close the pool, stop the embedded server, drop the throwaway database, remove the temp dir. */
  cleanup(): Promise<void>;
}

export async function openBenchDatabase(): Promise<BenchDatabase> {
  const external = process.env.BENCH_DATABASE_URL;
  if (external) return openExternal(external);

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotgen-bench-'));
  let database: Database;
  try {
    // role 'command': the first `serve` child adopts the server and hands it back when it stops,
    // so this process, which stays registered as a client throughout, is the one that stops it.
    database = await openDatabase({ databaseUrl: null, dataDir, databasePoolSize: 4 }, { role: 'command', migrate: true });
  } catch (error) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const postmasterPid = database.embedded!.pid;
  return {
    database,
    childEnv: { DATA_DIR: dataDir },
    describe: `embedded PostgreSQL (fresh DATA_DIR ${dataDir})`,
    async cleanup() {
      await database.close().catch((e) => console.error('closing the database failed:', e));
      // A child that was killed instead of stopped may still be recorded as the server's owner,
      // and then close() leaves the postmaster running: stop it ourselves (fast shutdown).
      if (isAlive(postmasterPid)) {
        process.kill(postmasterPid, 'SIGINT');
        for (let i = 0; i < 750 && isAlive(postmasterPid); i++) await sleep(20);
        if (isAlive(postmasterPid)) process.kill(postmasterPid, 'SIGKILL');
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function openExternal(baseUrl: string): Promise<BenchDatabase> {
  const name = `shotgen_bench_${process.pid}_${Date.now()}`;
  let url = baseUrl;
  let created = false;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
    const u = new URL(baseUrl);
    u.pathname = `/${name}`;
    url = u.toString();
    created = true;
  } catch (error) {
    console.error(
      `could not create a throwaway database (${(error as Error).message}); using ${new URL(baseUrl).pathname.slice(1)} itself`,
    );
  } finally {
    await admin.end();
  }
  const database = await openDatabase({ databaseUrl: url, dataDir: os.tmpdir(), databasePoolSize: 4 }, { role: 'command', migrate: true });
  return {
    database,
    childEnv: { DATABASE_URL: url },
    describe: created ? `external PostgreSQL, throwaway database ${name}` : 'external PostgreSQL (BENCH_DATABASE_URL as is)',
    async cleanup() {
      await database.close().catch((e) => console.error('closing the database failed:', e));
      if (!created) return;
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** A realistic listing: planning reads it from the app row, as it would after POST /apps. */
export function benchListing(): Listing {
  return {
    store: 'app-store',
    storeId: '1234567890',
    country: 'us',
    language: 'en',
    url: 'https://apps.apple.com/us/app/id1234567890',
    name: 'Habitly: Habit Tracker & Goals',
    category: 'Health & Fitness',
    categoryId: '6013',
    artworkUrl: 'https://is1-ssl.mzstatic.com/image/thumb/icon/512x512bb.jpg',
    subtitle: 'Build better habits daily',
    developer: 'Habitly Labs',
    rating: 4.8,
    ratingCount: 12840,
    price: 0,
    currency: 'USD',
    description: [
      'Habitly helps you build good habits and break bad ones, one day at a time.',
      'FEATURES:',
      '• Track unlimited habits with a single tap',
      '• Smart reminders that adapt to your schedule',
      '• Beautiful charts and streak insights',
      '• Home screen widgets for quick check-ins',
      '• Sync across all your devices with iCloud',
      // Enough distinct ideas for ten slides: the sets scenario measures 10-slide sets, and with
      // fewer the planner gives fewer slides rather than repeat itself.
      '• Private by design: your data stays on your devices',
      '• Dark mode and custom themes for every habit',
      'Stay motivated: earn streaks, celebrate milestones and share your progress with friends.',
    ].join('\n'),
    // No listing screenshots: the workers would fetch them from the stores' hosts, which the bench
    // cannot reach. The sets scenario uploads the app's own screen instead.
    screenshots: emptyScreenshots(),
  };
}

export interface BenchAccount {
  accountId: string;
  key: string;
  appId: string;
}

/** An account on the scale plan with `extraCredits` granted, an API key and one app. */
export async function benchAccount(db: Queryable, name: string, extraCredits: number): Promise<BenchAccount> {
  const account = await createAccount(db, { name, plan: 'scale' });
  const key = await createApiKey(db, account.id, 'bench');
  if (extraCredits > 0) await grant(db, account.id, extraCredits, new Date(), 'bench');
  const listing = benchListing();
  const appId = newId('app');
  // Inserted directly: POST /apps would read a real store.
  await db.query(`INSERT INTO apps (id, account_id, name, category, artwork_url, ios_listing) VALUES ($1, $2, $3, $4, $5, $6)`, [
    appId,
    account.id,
    listing.name,
    listing.category,
    listing.artworkUrl,
    listing,
  ]);
  return { accountId: account.id, key: key.key, appId };
}
