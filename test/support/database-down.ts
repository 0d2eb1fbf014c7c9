/**
 * A server on a pool whose database cannot be reached: nothing listens on its port, so every
 * connection is refused, as when PostgreSQL is down. For the 503 tests of the API and the dashboard.
 */
import { AccountViews } from '../../src/accounts/account-views.ts';
import { Authenticator } from '../../src/accounts/authenticator.ts';
import { NotifyBatcher } from '../../src/db/notify-batcher.ts';
import { createPool } from '../../src/db/pool.ts';
import { buildServer, type BuildOptions } from '../../src/http/server.ts';
import type { Api } from '../../src/http/services.ts';
import { JobReader } from '../../src/sets/reader.ts';
import { createStoreReaders } from '../../src/stores/index.ts';
import { freePort } from '../cli/helpers.ts';
import os from 'node:os';
import path from 'node:path';
import { JobWaiters } from '../../src/sets/waiters.ts';
import { FileObjectStore } from '../../src/objects/filesystem.ts';
import { UrlSigner } from '../../src/sets/signed-urls.ts';

export async function serverWithDatabaseDown(opts: BuildOptions = {}): Promise<{ app: Api; close(): Promise<void> }> {
  const pool = createPool(`postgres://postgres@127.0.0.1:${await freePort()}/shotgen`, 2);
  const clock = () => new Date();
  const app = await buildServer(
    {
      config: { basePath: '/api/v1' },
      db: pool,
      authenticator: new Authenticator(pool, null),
      accountViews: new AccountViews(pool, null, clock),
      stores: createStoreReaders({
        appStoreLookupUrl: 'http://127.0.0.1:9/lookup',
        googlePlayUrl: 'http://127.0.0.1:9',
        timeoutMs: 500,
        cacheTtlMs: 1_000,
      }),
      jobs: new JobReader(pool),
      notifier: new NotifyBatcher(pool),
      clock,
      objects: new FileObjectStore(path.join(os.tmpdir(), 'shotgen-objects-unused')),
      signer: new UrlSigner('a test secret of more than thirty-two characters'),
      waiters: new JobWaiters({ subscribe: () => () => undefined }),
    },
    opts,
  );
  await app.ready();
  return {
    app,
    async close() {
      await app.close();
      await pool.end();
    },
  };
}
