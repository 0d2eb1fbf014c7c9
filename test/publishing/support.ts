/**
 * Publishing tests: an API on a fresh database with publishing wired to both fake stores, a
 * succeeded job whose pictures are in the object store, and a queue that the test drains by hand
 * (the pg-boss tasks are tested on their own), so each step's effect can be looked at.
 */
import type { Response as LightMyRequestResponse } from 'light-my-request';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FileObjectStore } from '../../src/objects/filesystem.ts';
import { Keyring } from '../../src/secrets/envelope.ts';
import { storeCredentialCheck } from '../../src/publishing/check.ts';
import { advancePublication, type RunnerDeps } from '../../src/publishing/runner.ts';
import { startFakeAppStoreConnect, type FakeAppStoreConnectServer } from '../../src/fake-stores/app-store-connect.ts';
import { startFakeGooglePlay, type FakeGooglePlayServer } from '../../src/fake-stores/google-play.ts';
import { generateAppStoreKey, type AppStoreTestKey, type generateServiceAccount } from '../../src/fake-stores/keys.ts';
import { testServiceAccount } from '../support/store-keys.ts';
import { newId } from '../../src/core/ids.ts';

import type { Device } from '../../src/core/devices.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { insertApp, sampleListing } from '../support/fixtures.ts';
import { png, sha256 } from '../fake-stores/helpers.ts';

export const ASC_APP = '1234567890';
export const PLAY_PACKAGE = 'com.example.pantry';
export const FAST_RETRY = { attempts: 4, baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 3_000 };

export interface PublishingHarness {
  h: TestApp;
  asc: FakeAppStoreConnectServer;
  play: FakeGooglePlayServer;
  ascKey: AppStoreTestKey;
  serviceAccount: ReturnType<typeof generateServiceAccount>['key'];
  keyring: Keyring;
  /** Where the job pictures are (a worker in another process reads them there). */
  objectsDir: string;
  runner: RunnerDeps;
  queued: string[];
  /** Runs every queued step, as the task workers would. */
  drain(opts?: { lastAttempt?: boolean }): Promise<void>;
  post(url: string, body?: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  get(url: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export const API = '/api/v1/public/v1';

/** Connects the harness's App Store Connect test key; its id (any answer but 201 fails the test). */
export async function connectAppStore(p: PublishingHarness): Promise<string> {
  const res = await p.post('/store-connections', {
    store: 'app-store',
    issuerId: p.ascKey.issuerId,
    keyId: p.ascKey.keyId,
    privateKey: p.ascKey.privateKeyPem,
  });
  if (res.statusCode !== 201) throw new Error(`connecting the test key answered ${res.statusCode}: ${res.body}`);
  return res.json().id as string;
}

/** Creates a publication with a target and runs its planning; the publication awaiting approval. */
export async function planVariant(p: PublishingHarness, jobId: string, connectionId: string, target: unknown) {
  const created = await p.post('/publications', { jobId, connectionId, target });
  if (created.statusCode !== 201) throw new Error(`creating the publication answered ${created.statusCode}: ${created.body}`);
  await p.drain();
  const planned = (await p.get(`/publications/${created.json().id}`)).json();
  if (planned.status !== 'awaiting_approval') throw new Error(`planning ended ${planned.status}: ${JSON.stringify(planned.error)}`);
  return planned;
}

/** Approves a publication and runs it to its end; the publication as GET shows it then. */
export async function approveAndRun(p: PublishingHarness, id: string) {
  const res = await p.post(`/publications/${id}/approve`);
  if (res.statusCode !== 202) throw new Error(`approving answered ${res.statusCode}: ${res.body}`);
  await p.drain();
  return (await p.get(`/publications/${id}`)).json();
}

/** `ascPlatforms`: the App Store app's platforms (default iOS only; a Mac set needs MAC_OS). */
export async function publishingHarness(opts: { ascPlatforms?: ('IOS' | 'MAC_OS')[] } = {}): Promise<PublishingHarness> {
  const objectsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotgen-publishing-'));
  const h = await createTestApp({ objects: new FileObjectStore(objectsDir) });
  const asc = await startFakeAppStoreConnect();
  const play = await startFakeGooglePlay();
  const ascKey = generateAppStoreKey();
  asc.addKey(ascKey.issuerId, ascKey.keyId, ascKey.publicKeyPem);
  asc.addApp({ appId: ASC_APP, locales: ['en-US', 'de-DE', 'fr-FR'], platforms: opts.ascPlatforms });
  const sa = testServiceAccount(play.tokenUri);
  play.addServiceAccount(sa.key.client_email, sa.publicKeyPem);
  play.addApp(PLAY_PACKAGE, { listings: ['en-US', 'de-DE', 'fr-FR'] });
  const keyring = new Keyring(randomBytes(32));
  const queued: string[] = [];
  h.services.publishing = {
    keyring,
    check: storeCredentialCheck({ appStoreConnectUrl: asc.url, retry: FAST_RETRY }),
    appStoreConnectUrl: asc.url,
    retry: FAST_RETRY,
    allowedTokenOrigins: [new URL(play.url).origin, new URL(play.tokenUri).origin],
    advance: async (id) => {
      queued.push(id);
    },
  };
  const runner: RunnerDeps = {
    db: h.t.pool,
    objects: h.services.objects,
    keyring,
    appStoreConnectUrl: asc.url,
    googlePlayApiUrl: play.url,
    retry: FAST_RETRY,
    appStore: { pollIntervalMs: 10, pollTimeoutMs: 5_000 },
  };
  const json = { ...h.auth, 'content-type': 'application/json' };
  return {
    h,
    asc,
    play,
    ascKey,
    serviceAccount: sa.key,
    keyring,
    objectsDir,
    runner,
    queued,
    async drain(opts = {}) {
      while (queued.length) await advancePublication(runner, queued.shift()!, { lastAttempt: opts.lastAttempt ?? true });
    },
    post: (url, body, headers) =>
      h.app.inject({
        method: 'POST',
        url: `${API}${url}`,
        headers: headers ?? (body === undefined ? h.auth : json),
        ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      }),
    get: (url, headers = h.auth) => h.app.inject({ method: 'GET', url: `${API}${url}`, headers }),
    async close() {
      await asc.close();
      await play.close();
      await h.close();
      fs.rmSync(objectsDir, { recursive: true, force: true });
    },
  };
}

/**
 * A succeeded job as the renderer leaves it: its pictures in the object store and job_files.
 * `seeds` picks each slide's picture per locale (same seed, same bytes), so a test can make an
 * "edited" set by changing one seed.
 */
export async function succeededJob(
  p: Pick<PublishingHarness, 'h'>,
  opts: {
    device: Device;
    locales?: string[];
    seeds: number[] | Record<string, number[]>;
    accountId?: string;
    /**
     * Play feature graphics from these seeds, as the renderer keeps them: the first locale's
     * feature-graphic.png, the others' locales/{locale}/feature-graphic.png. A number is the first locale's only.
     */
    featureGraphic?: number | Record<string, number>;
    /** The slides' pixel size (a size the App Asset Library's reference data takes, for that path). */
    size?: [number, number];
  },
): Promise<string> {
  const accountId = opts.accountId ?? p.h.account.id;
  const listing = opts.device.startsWith('android')
    ? sampleListing({ store: 'google-play', storeId: PLAY_PACKAGE, url: `https://play.google.com/store/apps/details?id=${PLAY_PACKAGE}` })
    : sampleListing({ storeId: ASC_APP });
  const appId = await insertApp(p.h.t.pool, accountId, listing);
  const db = p.h.t.pool;
  const jobId = newId('job');
  const locales = opts.locales ?? [listing.language];
  await db.query(
    `INSERT INTO jobs (id, account_id, app_id, status, request, result, cost, period_start)
     VALUES ($1, $2, $3, 'succeeded', $4, '{}'::jsonb, 1, date_trunc('month', now())::date)`,
    [jobId, accountId, appId, JSON.stringify({ device: opts.device, ...(opts.locales ? { locales: opts.locales } : {}) })],
  );
  for (const [li, locale] of locales.entries()) {
    const seeds = Array.isArray(opts.seeds) ? opts.seeds : opts.seeds[locale];
    for (const [i, seed] of seeds.entries()) {
      const [w, h] = opts.size ?? [64, 128];
      const bytes = await png(seed + li * 1000, w, h);
      const name = li === 0 ? `slides/${i + 1}.png` : `locales/${locale}/slides/${i + 1}.png`;
      const key = `jobs/${jobId}/${name}`;
      await p.h.services.objects.put(key, bytes, 'image/png');
      await db.query(
        `INSERT INTO job_files (job_id, name, object_key, content_type, bytes, sha256, width, height) VALUES ($1, $2, $3, 'image/png', $4, $5, $6, $7)`,
        [jobId, name, key, bytes.length, sha256(bytes), w, h],
      );
    }
  }
  const graphics = typeof opts.featureGraphic === 'number' ? { [locales[0]]: opts.featureGraphic } : (opts.featureGraphic ?? {});
  for (const [locale, seed] of Object.entries(graphics)) {
    const bytes = await png(seed, 128, 64);
    const name = locale === locales[0] ? 'feature-graphic.png' : `locales/${locale}/feature-graphic.png`;
    const key = `jobs/${jobId}/${name}`;
    await p.h.services.objects.put(key, bytes, 'image/png');
    await db.query(
      `INSERT INTO job_files (job_id, name, object_key, content_type, bytes, sha256, width, height) VALUES ($1, $2, $3, 'image/png', $4, $5, 128, 64)`,
      [jobId, name, key, bytes.length, sha256(bytes)],
    );
  }
  return jobId;
}
