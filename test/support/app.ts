/**
 * A complete API server on a fresh test database, driven through app.inject(): the same
 * buildServer as production, with the clock and the store endpoints injectable.
 */
import { AccountViews } from '../../src/accounts/account-views.ts';
import { Authenticator } from '../../src/accounts/authenticator.ts';
import type { Clock } from '../../src/accounts/credits.ts';
import type { HttpLimits } from '../../src/http/limits.ts';
import { MemoryBuckets } from '../../src/http/rate-limit/buckets.ts';
import { RateLimits } from '../../src/http/rate-limit/index.ts';
import { Notifications } from '../../src/db/notifications.ts';
import { NotifyBatcher } from '../../src/db/notify-batcher.ts';
import { buildServer } from '../../src/http/server.ts';
import type { Api, DashboardPlugin, Services } from '../../src/http/services.ts';
import { JobReader } from '../../src/sets/reader.ts';
import { createStoreReaders } from '../../src/stores/index.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { JobWaiters } from '../../src/sets/waiters.ts';
import { ScreenReader, ScreenTextCache } from '../../src/screens/reader.ts';
import { FileObjectStore } from '../../src/objects/filesystem.ts';
import type { ObjectStore } from '../../src/objects/index.ts';
import { loadSigningSecret, UrlSigner } from '../../src/sets/signed-urls.ts';
import type { RenderPool } from '../../src/rendering/index.ts';
import { Previewer } from '../../src/sets/revisions/preview.ts';
import { createTestDatabase, primaryServer, type TestDatabase, type TestServer } from './db.ts';
import { accountWithKey } from './fixtures.ts';
import { solidPng } from './fake-images.ts';

export interface TestApp {
  app: Api;
  services: Services;
  t: TestDatabase;
  notifications: Notifications;
  authenticator: Authenticator;
  /** An account on the free plan and its key. */
  account: { id: string };
  key: string;
  keyId: string;
  auth: { authorization: string };
  close(): Promise<void>;
}

export interface TestAppOptions {
  server?: TestServer;
  clock?: Clock;
  basePath?: string;
  stores?: { appStoreLookupUrl: string; googlePlayUrl: string };
  storeTimeoutMs?: number;
  dashboard?: DashboardPlugin;
  limits?: HttpLimits;
  /** A caption model (test/support/fake-llm.ts): lets a set ask for locales in other languages. */
  llm?: { baseUrl: string; model: string; apiKey: string | null };
  /** Default: in memory and high enough that only the rate-limit tests meet it. */
  rateLimits?: RateLimits | null;
  trustProxy?: boolean;
  /** Renders POST /previews on this one-thread pool (default: none, and that operation answers 503). */
  previewRenderer?: Pick<RenderPool, 'preview' | 'close'>;
  /**
   * Reads uploaded screens' text (OCR); default: none, and screens are stored unread. `true`: with
   * its own cache, so that what another test read never stands in for the model here; a cache: the
   * one a file shares between tests that upload the same pictures and do not count the model's reads.
   */
  screenReader?: boolean | ScreenTextCache;
  /** Where pictures and screens go; default: a fresh directory removed on close. */
  objects?: ObjectStore;
  /** The dashboard's settings (PUBLIC_URL, SIGNUP_ENABLED) and WEBHOOK_ALLOW_HTTP/PRIVATE. */
  config?: {
    publicUrl?: string | null;
    signupEnabled?: boolean;
    webhooks?: { allowHttp: boolean; allowPrivate: boolean };
    revisions?: { perSetPerHour: number; perAccountPerHour: number; previewsPerMinute: number };
  };
}

export async function createTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const t = await createTestDatabase(opts.server ?? primaryServer());
  const objectsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotgen-objects-'));
  const clock = opts.clock ?? (() => new Date());
  const notifications = new Notifications(t.url);
  await notifications.start();
  const authenticator = new Authenticator(t.pool, notifications, { now: clock });
  const services: Services = {
    config: { basePath: opts.basePath ?? '/api/v1', llm: opts.llm ?? null, ...opts.config },
    db: t.pool,
    authenticator,
    accountViews: new AccountViews(t.pool, notifications, clock),
    stores: createStoreReaders({
      appStoreLookupUrl: opts.stores?.appStoreLookupUrl ?? 'http://127.0.0.1:9/lookup',
      googlePlayUrl: opts.stores?.googlePlayUrl ?? 'http://127.0.0.1:9',
      timeoutMs: opts.storeTimeoutMs ?? 2_000,
      cacheTtlMs: 60_000,
    }),
    jobs: new JobReader(t.pool),
    notifier: new NotifyBatcher(t.pool),
    clock,
    rateLimits:
      opts.rateLimits === undefined
        ? new RateLimits(new MemoryBuckets(), { perSecond: 100_000, authFailuresPerMinute: 100_000 })
        : opts.rateLimits,
    objects: opts.objects ?? new FileObjectStore(objectsDir),
    signer: new UrlSigner(await loadSigningSecret(t.pool, null)),
    waiters: new JobWaiters(notifications),
  };
  if (opts.screenReader)
    services.screenReader = new ScreenReader(t.pool, undefined, {
      cache: opts.screenReader instanceof ScreenTextCache ? opts.screenReader : new ScreenTextCache(),
    });
  if (opts.previewRenderer)
    services.previews = new Previewer({ db: t.pool, objects: services.objects, renderer: opts.previewRenderer, storeImageOrigins: [] });
  const app = await buildServer(services, { dashboard: opts.dashboard, limits: opts.limits, trustProxy: opts.trustProxy });
  await app.ready();
  const { account, key, keyId } = await accountWithKey(t.pool);
  return {
    app,
    services,
    t,
    notifications,
    authenticator,
    account,
    key,
    keyId,
    auth: { authorization: `Bearer ${key}` },
    async close() {
      await app.close();
      await services.screenReader?.close();
      await services.notifier.flush();
      await authenticator.close();
      await services.rateLimits?.close();
      services.waiters.close();
      await notifications.close();
      await services.objects.close();
      fs.rmSync(objectsDir, { recursive: true, force: true });
      await t.drop();
    },
  };
}

/** Assert the RFC 9457 shape every error response must have; returns the parsed body. */
export function expectProblem(res: { statusCode: number; headers: Record<string, unknown>; body: string }, status: number, code: string) {
  const body = JSON.parse(res.body);
  const ok =
    res.statusCode === status &&
    String(res.headers['content-type']).startsWith('application/problem+json') &&
    body.code === code &&
    body.status === status &&
    typeof body.title === 'string' &&
    typeof body.detail === 'string' &&
    typeof body.type === 'string' &&
    body.requestId === res.headers['x-request-id'];
  if (!ok) throw new Error(`expected problem ${status} ${code}, got ${res.statusCode} ${res.headers['content-type']} ${res.body}`);
  return body;
}

/** Uploads an iPhone-sized screen to the app through the API (a set needs something to frame); asserts 201. */
export async function uploadIphoneScreen(h: TestApp, appId: string): Promise<void> {
  const res = await h.app.inject({
    method: 'POST',
    url: `/api/v1/public/v1/apps/${appId}/screens`,
    headers: { ...h.auth, 'content-type': 'image/png' },
    payload: await solidPng(1290, 2796, 'red'),
  });
  if (res.statusCode !== 201) throw new Error(`screen upload answered ${res.statusCode}: ${res.body}`);
}
