/** Webhooks as a deployed worker process sends them: started and stopped through startService. */
import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { startService, type Service } from '../../src/service.ts';
import { createEndpoint } from '../../src/webhooks/endpoints.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { accountWithKey, insertApp } from '../support/fixtures.ts';
import { until } from '../support/jobs.ts';
import { deliveryRows, endJobs, startReceiver, type Receiver } from './support.ts';

describe('webhooks in a worker service', () => {
  let t: TestDatabase;
  let receiver: Receiver;
  const services: Service[] = [];
  beforeEach(async () => {
    t = await createTestDatabase();
    receiver = await startReceiver();
  });
  afterEach(async () => {
    await Promise.all(services.splice(0).map((s) => s.close()));
    await receiver.close();
    await t.drop();
  });

  const start = async (env: Record<string, string>) => {
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      PORT: '0',
      HOST: '127.0.0.1',
      WORKER_CONCURRENCY: '1',
      SHUTDOWN_TIMEOUT_MS: '1000',
      ...env,
    });
    const s = await startService(config, {
      role: 'worker',
      database: { pool: t.pool, url: t.url, embedded: null, close: async () => undefined },
      webhooks: { retryDelaysMs: [300], pollIntervalMs: 100 },
    });
    services.push(s);
    return s;
  };

  it('a delivery that failed before a restart is completed by the restarted service, with the same webhook-id', async () => {
    const { account } = await accountWithKey(t.pool);
    const appId = await insertApp(t.pool, account.id);
    const ep = await createEndpoint(t.pool, account.id, { url: receiver.url }, { allowHttp: true, allowPrivate: true });
    receiver.behave((n) => (n === 1 ? 500 : 200));
    // Ended before any worker runs (the service's own job worker would take a queued job): the
    // delivery waits in the table for one.
    await endJobs(t.pool, account.id, appId, 1);
    const first = await start({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' });
    expect(first.webhooks).not.toBeNull();
    await until(async () => (await deliveryRows(t.pool))[0]?.last_status === 500, 5_000);
    await first.close();
    services.splice(services.indexOf(first), 1);

    await start({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' });
    await until(async () => (await deliveryRows(t.pool))[0]?.status === 'delivered', 5_000);
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[0].headers['webhook-id']).toBe(receiver.received[1].headers['webhook-id']);
    for (const r of receiver.received) new Webhook(ep.secret).verify(r.body, r.headers);
  });

  it('WEBHOOK_ALLOW_PRIVATE unset: the service refuses to call a loopback receiver', async () => {
    const { account } = await accountWithKey(t.pool);
    const appId = await insertApp(t.pool, account.id);
    await createEndpoint(t.pool, account.id, { url: receiver.url }, { allowHttp: true, allowPrivate: true });
    await endJobs(t.pool, account.id, appId, 1);
    await start({ WEBHOOK_ALLOW_HTTP: 'true' });
    await until(async () => (await deliveryRows(t.pool))[0]?.last_error, 5_000);
    expect((await deliveryRows(t.pool))[0].last_error).toMatch(/loopback/);
    expect(receiver.received).toHaveLength(0);
  });

  it('an API-only process sends no webhooks', async () => {
    const s = await startService(loadConfig({ LOG_LEVEL: 'silent' }), {
      role: 'api',
      listen: false,
      database: { pool: t.pool, url: t.url, embedded: null, close: async () => undefined },
    });
    services.push(s);
    expect(s.webhooks).toBeNull();
  });
});
