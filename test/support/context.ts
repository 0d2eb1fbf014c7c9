/**
 * The vitest fixtures (test.extend) for the set-up most test files had written out themselves:
 * a fake store server for the file, programmed per test with the usual two listings; a complete
 * API on a fresh database per test; a bare fresh database per test. A test names what it uses:
 *
 *   it('creates an app', async ({ api, store }) => { ... });
 *
 * and gets it built before and torn down after, whether the test passes or not.
 */
import { test as base } from 'vitest';
import { createTestApp, type TestApp } from './app.ts';
import { createTestDatabase, type TestDatabase } from './db.ts';
import { startFakeStore, type FakeStore } from './fake-store.ts';
import { lookupBody, lookupResult, playDetails, playDetailsPage } from './store-fixtures.ts';

/** The store ids the default listings answer for: Pocket Planner (App Store) and Trail Mapper (Google Play). */
export const LISTED = { appStore: '1234567890', googlePlay: 'com.example.trails' } as const;

export interface Fixtures {
  /** The fake store server, answering for LISTED; requests and extra answers are per test. */
  store: FakeStore;
  /** The API through app.inject(), on a fresh database, reading the fake store. */
  api: TestApp;
  /** A fresh database of its own. */
  db: TestDatabase;
}

interface FileFixtures {
  storeServer: FakeStore;
}

export const test = base.extend<Fixtures & FileFixtures>({
  // One server per file (starting one per test costs more than the tests); `store` resets it.
  storeServer: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startFakeStore();
      await use(server);
      await server.close();
    },
    { scope: 'file' },
  ],
  store: async ({ storeServer }, use) => {
    storeServer.reset();
    storeServer.set('app-store', LISTED.appStore, { body: lookupBody([lookupResult()], { raw: true }) });
    storeServer.set('google-play', LISTED.googlePlay, { body: playDetailsPage({ details: playDetails() }) });
    await use(storeServer);
  },
  api: async ({ store }, use) => {
    const h = await createTestApp({ stores: store, storeTimeoutMs: 1_500 });
    try {
      await use(h);
    } finally {
      await h.close();
    }
  },
  // eslint-disable-next-line no-empty-pattern
  db: async ({}, use) => {
    const t = await createTestDatabase();
    try {
      await use(t);
    } finally {
      await t.drop();
    }
  },
});

export const it = test;
