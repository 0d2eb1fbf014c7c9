/**
 * The dashboard with publishing wired to both fake stores, as test/publishing/support.ts wires the
 * API: its steps are queued by hand and run by drain() (or at once, `runAtOnce`, for a browser that
 * should see them happen), so each page can be read between steps.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FileObjectStore } from '../../src/objects/filesystem.ts';
import { storeCredentialCheck } from '../../src/publishing/check.ts';
import { startFakeAppStoreConnect, type FakeAppStoreConnectServer } from '../../src/fake-stores/app-store-connect.ts';
import { startFakeGooglePlay, type FakeGooglePlayServer } from '../../src/fake-stores/google-play.ts';
import { generateAppStoreKey, type AppStoreTestKey, type generateServiceAccount } from '../../src/fake-stores/keys.ts';
import { testServiceAccount } from '../support/store-keys.ts';
import { advancePublication, type RunnerDeps } from '../../src/publishing/runner.ts';
import { Keyring } from '../../src/secrets/envelope.ts';
import type { TestApp, TestAppOptions } from '../support/app.ts';
import { createDashboardApp } from '../support/dashboard.ts';
import { ASC_APP, FAST_RETRY, PLAY_PACKAGE } from '../publishing/support.ts';
import { png, sha256 } from '../fake-stores/helpers.ts';
import { insertApp, sampleListing } from '../support/fixtures.ts';
import { newId } from '../../src/core/ids.ts';
import { planScreenshotSet } from '../../src/planning/plan.ts';

export { ASC_APP, PLAY_PACKAGE, succeededJob } from '../publishing/support.ts';

/**
 * A finished iPhone set as the set page shows it (its plan, with these captions) and as the
 * publisher reads it (one PNG per slide, `seeds` picking each one's bytes as succeededJob does).
 */
export async function finishedSet(h: TestApp, accountId: string, headlines: string[], seeds: number[]): Promise<string> {
  const listing = sampleListing({ storeId: ASC_APP });
  const appId = await insertApp(h.t.pool, accountId, listing);
  const request = { device: 'iphone-69' as const, slides: headlines.map((headline) => ({ headline })) };
  const result = planScreenshotSet({ listings: [listing], extraContext: null, request });
  const stored = { ...request, count: headlines.length, captionStyle: 'aso-expert', captionLength: 'short', narrativeId: null };
  const jobId = newId('job');
  await h.t.pool.query(
    `INSERT INTO jobs (id, account_id, app_id, status, request, result, cost, period_start)
     VALUES ($1, $2, $3, 'succeeded', $4, $5, 1, date_trunc('month', now())::date)`,
    [jobId, accountId, appId, JSON.stringify(stored), JSON.stringify(result)],
  );
  for (const [i, seed] of seeds.entries()) {
    const bytes = await png(seed);
    const name = `slides/${i + 1}.png`;
    await h.services.objects.put(`jobs/${jobId}/${name}`, bytes, 'image/png');
    await h.t.pool.query(
      `INSERT INTO job_files (job_id, name, object_key, content_type, bytes, sha256, width, height) VALUES ($1, $2, $3, 'image/png', $4, $5, 64, 128)`,
      [jobId, name, `jobs/${jobId}/${name}`, bytes.length, sha256(bytes)],
    );
  }
  return jobId;
}

export interface DashboardPublishing {
  h: TestApp;
  asc: FakeAppStoreConnectServer;
  play: FakeGooglePlayServer;
  ascKey: AppStoreTestKey;
  serviceAccount: ReturnType<typeof generateServiceAccount>['key'];
  queued: string[];
  /** Runs every queued step, as the task workers would. */
  drain(): Promise<void>;
  close(): Promise<void>;
}

export async function dashboardPublishing(opts: TestAppOptions & { runAtOnce?: boolean } = {}): Promise<DashboardPublishing> {
  const objectsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotgen-dash-publishing-'));
  const h = await createDashboardApp({ objects: new FileObjectStore(objectsDir), ...opts });
  const asc = await startFakeAppStoreConnect();
  const play = await startFakeGooglePlay();
  const ascKey = generateAppStoreKey();
  asc.addKey(ascKey.issuerId, ascKey.keyId, ascKey.publicKeyPem);
  asc.addApp({ appId: ASC_APP, locales: ['en-US', 'de-DE'] });
  const sa = testServiceAccount(play.tokenUri);
  play.addServiceAccount(sa.key.client_email, sa.publicKeyPem);
  play.addApp(PLAY_PACKAGE, { listings: ['en-US', 'de-DE'] });
  const keyring = new Keyring(randomBytes(32));
  const runner: RunnerDeps = {
    db: h.t.pool,
    objects: h.services.objects,
    keyring,
    appStoreConnectUrl: asc.url,
    googlePlayApiUrl: play.url,
    retry: FAST_RETRY,
    appStore: { pollIntervalMs: 10, pollTimeoutMs: 5_000 },
  };
  const queued: string[] = [];
  const running = new Set<Promise<void>>();
  const drain = async () => {
    while (queued.length) await advancePublication(runner, queued.shift()!, { lastAttempt: true });
  };
  h.services.publishing = {
    keyring,
    check: storeCredentialCheck({ appStoreConnectUrl: asc.url, retry: FAST_RETRY }),
    appStoreConnectUrl: asc.url,
    retry: FAST_RETRY,
    allowedTokenOrigins: [new URL(play.url).origin, new URL(play.tokenUri).origin],
    advance: async (id) => {
      queued.push(id);
      if (!opts.runAtOnce) return;
      // As a worker would: after the request that queued it has answered.
      const run = new Promise<void>((resolve) => setTimeout(resolve, 50)).then(drain);
      running.add(run);
      void run.finally(() => running.delete(run));
    },
  };
  return {
    h,
    asc,
    play,
    ascKey,
    serviceAccount: sa.key,
    queued,
    drain,
    async close() {
      await Promise.allSettled([...running]);
      await asc.close();
      await play.close();
      await h.close();
      fs.rmSync(objectsDir, { recursive: true, force: true });
    },
  };
}
