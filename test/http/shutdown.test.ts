import type { FastifyReply, FastifyRequest } from 'fastify';
import { rootRequestHook } from '../../src/http/root-hook.ts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { startService, type Service } from '../../src/service.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { startFakeStore, type FakeStore } from '../support/fake-store.ts';
import { until } from '../support/jobs.ts';
import { accountWithKey } from '../support/fixtures.ts';
import { lookupBody, lookupResult } from '../support/store-fixtures.ts';

describe('graceful shutdown', () => {
  let t: TestDatabase;
  let store: FakeStore;
  let service: Service;
  beforeEach(async () => {
    t = await createTestDatabase();
    store = await startFakeStore();
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      APP_STORE_LOOKUP_URL: store.appStoreLookupUrl,
      GOOGLE_PLAY_URL: store.googlePlayUrl,
      // Far past anything the test waits for: the cut at the timeout is not what is tested here,
      // and a busy machine must not reach it.
      SHUTDOWN_TIMEOUT_MS: '120000',
    });
    service = await startService(config, {
      role: 'api',
      database: { pool: t.pool, url: t.url, embedded: null, close: async () => undefined },
    });
  });
  afterEach(async () => {
    await service.close();
    await store.close();
    await t.drop();
  });

  it('finishes an in-flight request, then refuses new connections', async () => {
    const { key } = await accountWithKey(t.pool);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    store.set('app-store', '1234567890', { body: lookupBody([lookupResult()]), heldUntil: held });
    const inFlight = fetch(`${service.address}/api/v1/public/v1/apps`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ iosUrl: 'https://apps.apple.com/us/app/x/id1234567890' }),
    });
    // Close while the store is still answering the request above: it has reached the store.
    await until(async () => store.count('app-store') > 0, 5_000);
    const closed = service.close();
    // The listener closes after the drain has begun (preClose): only then may the store answer.
    await until(
      async () =>
        fetch(`${service.address}/healthz`).then(
          () => false,
          () => true,
        ),
      60_000,
    );
    release();
    const res = await inFlight;
    expect(res.status).toBe(200);
    // So the client does not send its next request down a socket that is about to close.
    expect(res.headers.get('connection')).toBe('close');
    expect((await res.json()).name).toBe('Pocket Planner');
    await closed;
    await expect(fetch(`${service.address}/healthz`)).rejects.toThrow();
  });

  it('answers a request that reaches the hooks while draining with a 503 problem', async () => {
    // Node ends keep-alive sockets once close() starts, so this needs an unlucky race to happen
    // for real; the hook's answer is checked directly.
    const hook = rootRequestHook(() => true);
    const headers: Record<string, string> = {};
    const reply = { header: (k: string, v: string) => (headers[k] = v) } as unknown as FastifyReply;
    const error = await new Promise<unknown>((resolve) =>
      hook({ id: 'req_x', routeOptions: { config: {} } } as unknown as FastifyRequest, reply, resolve),
    );
    expect(headers['x-request-id']).toBe('req_x');
    expect(error).toMatchObject({ status: 503, code: 'service_unavailable', headers: { 'Retry-After': '1', Connection: 'close' } });
  });
});
