import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Notifications } from '../../src/db/notifications.ts';
import { JobReader } from '../../src/jobs/job-reader.ts';
import { registry } from '../../src/metrics/index.ts';
import { WebhookDispatcher, type DispatcherOptions } from '../../src/webhooks/dispatcher.ts';
import { createEndpoint, deleteEndpoint, type WebhookEvent } from '../../src/webhooks/endpoints.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { accountWithKey, insertApp } from '../support/fixtures.ts';
import { jobRows, until } from '../support/jobs.ts';
import { deliveryRows, endJobs, startReceiver, type Receiver } from './support.ts';

const OPEN = { allowHttp: true, allowPrivate: true };
const settle = (ms = 300) => new Promise((r) => setTimeout(r, ms));

describe('webhook deliveries', () => {
  let t: TestDatabase;
  let notifications: Notifications;
  let accountId: string;
  let appId: string;
  let receiver: Receiver;
  const dispatchers: WebhookDispatcher[] = [];
  beforeEach(async () => {
    t = await createTestDatabase();
    notifications = new Notifications(t.url);
    await notifications.start();
    accountId = (await accountWithKey(t.pool)).account.id;
    appId = await insertApp(t.pool, accountId);
    receiver = await startReceiver();
  });
  afterEach(async () => {
    await Promise.all(dispatchers.splice(0).map((d) => d.stop(0)));
    await receiver.close();
    await notifications.close();
    await t.drop();
  });

  const reader = () => new JobReader(t.pool);
  const start = (opts: Partial<DispatcherOptions> = {}) => {
    const jobs = reader();
    const d = new WebhookDispatcher(t.pool, notifications, {
      ...OPEN,
      readJob: (a, j) => jobs.get(a, j),
      pollIntervalMs: 60_000,
      retryDelaysMs: [50, 100, 150],
      ...opts,
    });
    dispatchers.push(d);
    d.start();
    return d;
  };
  const endpoint = async (url = receiver.url, events?: WebhookEvent[], account = accountId) =>
    createEndpoint(t.pool, account, { url, events }, OPEN);
  /** Ends one job and waits until its delivery has failed for good; the delivery row as it then stands. */
  const deliveryFails = async () => {
    await endJobs(t.pool, accountId, appId, 1);
    await until(async () => (await deliveryRows(t.pool))[0]?.status === 'failed', 5_000);
    return (await deliveryRows(t.pool))[0];
  };
  const verify = (secret: string, r: { headers: Record<string, string>; body: string }) =>
    new Webhook(secret).verify(r.body, r.headers) as Record<string, unknown>;

  it('signs each event per Standard Webhooks, with the job as GET shows it, once per event (woken by NOTIFY, not polling)', async () => {
    const both = await endpoint();
    const failedOnly = await endpoint(receiver.url.replace('/hooks', '/failed'), ['job.failed']);
    start();
    await settle(100);
    const succeeded = await endJobs(t.pool, accountId, appId, 3);
    const [failed] = await endJobs(t.pool, accountId, appId, 1, 'failed');
    await until(async () => receiver.received.length === 5, 5_000);
    await settle();
    expect(receiver.received).toHaveLength(5);

    const rows = await deliveryRows(t.pool);
    expect(rows.map((r) => [r.status, r.attempts, r.last_status])).toEqual(Array(5).fill(['delivered', 1, 204]));
    // Each delivery verifies with its own endpoint's secret only.
    let verified = 0;
    expect(receiver.received.filter((r) => r.path === '/failed')).toHaveLength(1);
    for (const r of receiver.received) {
      const ep = r.path === '/failed' ? failedOnly : both;
      expect(() => verify((ep === both ? failedOnly : both).secret, r)).toThrow();
      const payload = verify(ep.secret, r);
      verified++;
      expect(r.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(r.headers['content-type']).toBe('application/json');
      const data = payload.data as { id: string };
      expect(JSON.parse(JSON.stringify(await reader().get(accountId, data.id)))).toEqual(data);
      expect(payload.type).toBe(data.id === failed ? 'job.failed' : 'job.succeeded');
      expect(new Date(payload.timestamp as string).toISOString()).toBe(payload.timestamp);
    }
    expect(verified).toBe(5);
    // Each event once per endpoint subscribed to it; one message id per event, shared by its endpoints.
    const ids = receiver.received.map((r) => JSON.parse(r.body).data.id as string);
    expect(ids.filter((id) => id === failed)).toHaveLength(2);
    for (const id of succeeded) expect(ids.filter((x) => x === id)).toHaveLength(1);
    const failedIds = receiver.received.filter((r) => JSON.parse(r.body).data.id === failed).map((r) => r.headers['webhook-id']);
    expect(new Set(failedIds).size).toBe(1);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(4);
    const first = receiver.received.find((r) => r.path === '/hooks')!;
    expect(() => verify(both.secret, { ...first, body: first.body.replace('job', 'jab') })).toThrow();
  });

  it('a receiver that fails twice then succeeds gets the same webhook-id three times, after the backoff', async () => {
    const ep = await endpoint();
    receiver.behave((n) => (n <= 2 ? 500 : 200));
    const before = await registry.getSingleMetricAsString('shotgen_webhook_attempts_total');
    start({ retryDelaysMs: [150, 300] });
    await endJobs(t.pool, accountId, appId, 1);
    await until(async () => (await deliveryRows(t.pool))[0]?.status === 'delivered', 5_000);
    await settle();
    expect(receiver.received).toHaveLength(3);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(receiver.received[0].headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    for (const r of receiver.received) verify(ep.secret, r);
    // Jittered ±20 %: 150 ms → at least 120, 300 ms → at least 240.
    expect(receiver.received[1].at - receiver.received[0].at).toBeGreaterThanOrEqual(110);
    expect(receiver.received[2].at - receiver.received[1].at).toBeGreaterThanOrEqual(230);
    expect((await deliveryRows(t.pool))[0]).toMatchObject({ status: 'delivered', attempts: 3, last_status: 200, last_error: null });
    expect(before).not.toBe(await registry.getSingleMetricAsString('shotgen_webhook_attempts_total'));
    expect(await registry.getSingleMetricAsString('shotgen_webhook_attempts_total')).toMatch(/outcome="retrying"} \d+/);
  });

  it('a receiver that hangs times out, and the delivery is retried', async () => {
    await endpoint();
    receiver.behave((n) => (n === 1 ? 'hang' : 200));
    start({ timeoutMs: 300 });
    await endJobs(t.pool, accountId, appId, 1);
    await until(async () => (await deliveryRows(t.pool))[0]?.status === 'delivered', 5_000);
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1].at - receiver.received[0].at).toBeGreaterThanOrEqual(300);
    expect(receiver.received[0].headers['webhook-id']).toBe(receiver.received[1].headers['webhook-id']);
  });

  it('gives up after the last retry, and a redirect is a failure that is not followed', async () => {
    await endpoint();
    receiver.behave((n) => (n === 1 ? 302 : 500));
    start({ retryDelaysMs: [20, 20] });
    await deliveryFails();
    await settle();
    expect(receiver.received).toHaveLength(3);
    expect((await deliveryRows(t.pool))[0]).toMatchObject({ status: 'failed', attempts: 3, last_status: 500 });
  });

  it('never holds a job back: jobs end at once while the receiver hangs', async () => {
    await endpoint();
    receiver.behave(() => 'hang');
    start({ timeoutMs: 5_000 });
    const began = Date.now();
    await endJobs(t.pool, accountId, appId, 3);
    expect(Date.now() - began).toBeLessThan(2_000);
    expect((await jobRows(t.pool)).map((j) => j.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    await until(async () => receiver.received.length === 3, 5_000);
  });

  it('sends only what an endpoint subscribed to at the time, only to its own account, and nothing once deleted', async () => {
    const other = await accountWithKey(t.pool);
    const otherApp = await insertApp(t.pool, other.account.id);
    await endpoint(receiver.url, ['job.failed']);
    const deleted = await endpoint(receiver.url.replace('/hooks', '/gone'));
    await endJobs(t.pool, accountId, appId, 1); // succeeded: not subscribed
    await endJobs(t.pool, other.account.id, otherApp, 1, 'failed'); // another account's
    await endJobs(t.pool, accountId, appId, 1, 'failed');
    expect(await deleteEndpoint(t.pool, accountId, deleted.id)).toBe(true);
    await endpoint(receiver.url.replace('/hooks', '/late')); // after the events: gets none of them
    start();
    await until(async () => receiver.received.length >= 1, 5_000);
    await settle();
    expect(receiver.received).toHaveLength(1);
    expect(JSON.parse(receiver.received[0].body).type).toBe('job.failed');
    expect((await deliveryRows(t.pool)).map((r) => r.status)).toEqual(['delivered']);
  });

  describe('connect-time address checks (DNS pointing at loopback)', () => {
    const name = () => receiver.url.replace('127.0.0.1', 'hooks.example.test');

    it('refuses a name that resolves to 127.0.0.1 exactly like the literal, and to any private address among several', async () => {
      await endpoint(name());
      const answers = [
        [{ address: '127.0.0.1', family: 4 }],
        [{ address: '::ffff:127.0.0.1', family: 6 }],
        [
          { address: '93.184.216.34', family: 4 },
          { address: '127.0.0.1', family: 4 },
        ],
      ];
      let call = 0;
      const asked: string[] = [];
      start({
        allowHttp: true,
        allowPrivate: false,
        retryDelaysMs: [20, 20],
        resolve: async (host) => (asked.push(host), answers[call++ % answers.length]),
      });
      const failed = await deliveryFails();
      expect(receiver.received).toHaveLength(0);
      expect(asked).toEqual(['hooks.example.test', 'hooks.example.test', 'hooks.example.test']);
      expect(failed.last_error).toMatch(/hooks\.example\.test resolves to a loopback address \(127\.0\.0\.1\); refused/);
    });

    it('refuses a literal private URL at connect time too (an endpoint saved under laxer settings)', async () => {
      await endpoint();
      start({ allowHttp: true, allowPrivate: false, retryDelaysMs: [] });
      const failed = await deliveryFails();
      expect(receiver.received).toHaveLength(0);
      expect(failed.last_error).toMatch(/loopback/);
    });

    it('connects to the checked address: with WEBHOOK_ALLOW_PRIVATE the name reaches the receiver', async () => {
      const ep = await endpoint(name());
      start({ allowHttp: true, allowPrivate: true, resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
      await endJobs(t.pool, accountId, appId, 1);
      await until(async () => receiver.received.length === 1, 5_000);
      expect(receiver.received[0].headers.host).toBe(`hooks.example.test:${receiver.port}`);
      verify(ep.secret, receiver.received[0]);
    });

    it('https only without WEBHOOK_ALLOW_HTTP, checked at send time as well', async () => {
      await endpoint();
      start({ allowHttp: false, allowPrivate: true, retryDelaysMs: [] });
      const failed = await deliveryFails();
      expect(receiver.received).toHaveLength(0);
      expect(failed.last_error).toMatch(/https/);
    });
  });

  describe('surviving restarts', () => {
    it('a delivery that failed on one worker is completed by a new one on the same database', async () => {
      const ep = await endpoint();
      receiver.behave((n) => (n === 1 ? 503 : 200));
      const first = start({ retryDelaysMs: [400] });
      await endJobs(t.pool, accountId, appId, 1);
      await until(async () => (await deliveryRows(t.pool))[0]?.attempts === 1 && receiver.received.length === 1, 5_000);
      await until(async () => (await deliveryRows(t.pool))[0]?.last_status === 503, 5_000);
      await first.stop(1_000);
      dispatchers.splice(dispatchers.indexOf(first), 1);
      await settle(500);
      expect(receiver.received).toHaveLength(1);
      start({ pollIntervalMs: 100 });
      await until(async () => (await deliveryRows(t.pool))[0]?.status === 'delivered', 5_000);
      expect(receiver.received).toHaveLength(2);
      expect(receiver.received[1].headers['webhook-id']).toBe(receiver.received[0].headers['webhook-id']);
      for (const r of receiver.received) verify(ep.secret, r);
    });

    it('an attempt cut short by a stopping worker is given back and sent again by the next', async () => {
      await endpoint();
      receiver.behave((n) => (n === 1 ? 'hang' : 200));
      const first = start({ timeoutMs: 10_000 });
      await endJobs(t.pool, accountId, appId, 1);
      await until(async () => receiver.received.length === 1, 5_000);
      await first.stop(50);
      dispatchers.splice(dispatchers.indexOf(first), 1);
      expect((await deliveryRows(t.pool))[0]).toMatchObject({ status: 'pending', attempts: 0 });
      start({ pollIntervalMs: 100 });
      await until(async () => (await deliveryRows(t.pool))[0]?.status === 'delivered', 5_000);
      expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([
        receiver.received[0].headers['webhook-id'],
        receiver.received[0].headers['webhook-id'],
      ]);
    });

    it('the claim of a worker that died mid-call (no stop) comes due again once its lease is over', async () => {
      await endpoint();
      await endJobs(t.pool, accountId, appId, 1);
      // As if a worker had claimed it and died: attempts counted, due again only after the lease.
      await t.pool.query(
        `UPDATE webhook_deliveries SET attempts = 1, locked_by = 'dead', next_attempt_at = now() + interval '300 milliseconds'`,
      );
      start({ pollIntervalMs: 100 });
      await settle(150);
      expect(receiver.received).toHaveLength(0);
      await until(async () => (await deliveryRows(t.pool))[0]?.status === 'delivered', 5_000);
      expect((await deliveryRows(t.pool))[0].attempts).toBe(2);
    });
  });
});
