/**
 * A whole shotgen, as `shotgen serve` assembles it (API, worker, renderer, object store), listening
 * on 127.0.0.1 over a test database, with the stores faked on 127.0.0.1: what the client, the
 * client commands and the MCP server talk to over real HTTP.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { startService, type Service, type ServiceRole } from '../../src/service.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { startFakeStore, type FakeStore } from '../support/fake-store.ts';
import { accountWithKey } from '../support/fixtures.ts';
import { sharedThreads } from '../support/threads.ts';
import { lookupBody, lookupResult } from '../support/store-fixtures.ts';

export const IOS_URL = 'https://apps.apple.com/us/app/pocket-planner/id1234567890';

export interface ShotgenServer {
  /** SHOTGEN_URL: origin and BASE_PATH. */
  url: string;
  key: string;
  accountId: string;
  service: Service;
  t: TestDatabase;
  store: FakeStore;
  /** A scratch directory for a test's downloads, removed with the server. */
  tempDir(): string;
  close(): Promise<void>;
}

export async function startShotgenServer(opts: { role?: ServiceRole } = {}): Promise<ShotgenServer> {
  const t = await createTestDatabase();
  const store = await startFakeStore();
  // A listing without screenshots: slides frame uploaded screens, or none (a text-only layout).
  // The store reader makes listing image URLs https, which no test host on 127.0.0.1 serves.
  store.set('app-store', '1234567890', { body: lookupBody([lookupResult({ screenshotUrls: [], ipadScreenshotUrls: [] })]) });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotgen-client-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    APP_STORE_LOOKUP_URL: store.appStoreLookupUrl,
    GOOGLE_PLAY_URL: store.googlePlayUrl,
    // Nothing to fetch from, and nothing ever fetched from the internet.
    STORE_IMAGE_ORIGINS: 'http://127.0.0.1:9',
    WORKER_CONCURRENCY: '2',
  });
  const service = await startService(config, {
    role: opts.role ?? 'all',
    database: { pool: t.pool, url: t.url, embedded: null, close: async () => undefined },
    // The process's render and planning threads (../support/threads.ts), not a new set per server.
    threads: sharedThreads(),
  });
  const { account, key } = await accountWithKey(t.pool);
  const scratch: string[] = [dataDir];
  return {
    url: `${service.address}/api/v1`,
    key,
    accountId: account.id,
    service,
    t,
    store,
    tempDir() {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotgen-client-test-'));
      scratch.push(dir);
      return dir;
    },
    async close() {
      await service.close();
      await store.close();
      await t.drop();
      for (const dir of scratch) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
