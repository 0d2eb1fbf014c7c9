import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JobReader } from '../../src/sets/reader.ts';
import { registry } from '../../src/metrics/index.ts';
import { DEFAULT_TASK_SETTINGS, Tasks } from '../../src/tasks/runner.ts';
import { queueDeliveryTasks } from '../../src/tasks/webhook-delivery.ts';
import { WebhookDispatcher, type DispatcherOptions } from '../../src/webhooks/dispatcher.ts';
import { createEndpoint, deleteEndpoint, type WebhookEvent } from '../../src/webhooks/endpoints.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { accountWithKey, insertApp } from '../support/fixtures.ts';
import { enqueueJobs, jobRows, until } from '../support/jobs.ts';
import { scaled } from '../support/timing.ts';
import { deliveryRows, endJobs, startReceiver, type Receiver } from './support.ts';

const OPEN = { allowHttp: true, allowPrivate: true };

/** A worker process's webhook sending: its own task runner and dispatcher on the test's database. */
interface Sender {
  d: WebhookDispatcher;
  tasks: Tasks;
}

describe('webhook deliveries', () => {
  let t: TestDatabase;
  let accountId: string;
  let appId: string;
  let receiver: Receiver;
  const senders: Sender[] = [];
  beforeEach(async () => {
    t = await createTestDatabase();
    accountId = (await accountWithKey(t.pool)).account.id;
    appId = await insertApp(t.pool, accountId);
    receiver = await startReceiver();
  });
  afterEach(async () => {
    await Promise.all(senders.splice(0).map((s) => s.tasks.stop(0)));
    await receiver.close();
    await t.drop();
  });

  const reader = () => new JobReader(t.pool);
  const runner = () =>
    Tasks.start({ ...DEFAULT_TASK_SETTINGS, connectionString: t.url, pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 1 });
  const start = async (opts: Partial<DispatcherOptions> = {}): Promise<Sender> => {
    const jobs = reader();
    const tasks = await runner();
    const d = new WebhookDispatcher(t.pool, tasks, {
      ...OPEN,
      readJob: (a, j) => jobs.get(a, j),
      pollIntervalMs: 500,
      retryDelaysMs: [50, 100, 150],
      ...opts,
    });
    await d.start();
    const s = { d, tasks };
    senders.push(s);
    return s;
  };
  /** Stops a sender as its process's shutdown does, giving `ms` to attempts in flight. */
  const stop = async (s: Sender, ms: number) => {
    senders.splice(senders.indexOf(s), 1);
    await s.tasks.stop(ms);
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

  it('signs each event per Standard Webhooks, with the job as GET shows it, once per event', async () => {
    const both = await endpoint();
    const failedOnly = await endpoint(receiver.url.replace('/hooks', '/failed'), ['job.failed']);
    const { d } = await start();
    await d.runOnce();
    const succeeded = await endJobs(t.pool, accountId, appId, 3);
    const [failed] = await endJobs(t.pool, accountId, appId, 1, 'failed');
    await until(async () => receiver.received.length === 5, 5_000);
    // Whatever else were due would be sent by now: nothing is.
    await d.runOnce();
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
    const { d } = await start({ retryDelaysMs: [150, 300] });
    await endJobs(t.pool, accountId, appId, 1);
    await until(async () => (await deliveryRows(t.pool))[0]?.status === 'delivered', 5_000);
    await d.runOnce();
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
    await start({ timeoutMs: 300 });
    await endJobs(t.pool, accountId, appId, 1);
    await until(async () => (await deliveryRows(t.pool))[0]?.status === 'delivered', 5_000);
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1].at - receiver.received[0].at).toBeGreaterThanOrEqual(300);
    expect(receiver.received[0].headers['webhook-id']).toBe(receiver.received[1].headers['webhook-id']);
  });

  it('gives up after the last retry, and a redirect is a failure that is not followed', async () => {
    await endpoint();
    receiver.behave((n) => (n === 1 ? 302 : 500));
    const { d } = await start({ retryDelaysMs: [20, 20] });
    await deliveryFails();
    await d.runOnce();
    expect(receiver.received).toHaveLength(3);
    expect((await deliveryRows(t.pool))[0]).toMatchObject({ status: 'failed', attempts: 3, last_status: 500 });
  });

  it('never holds a job back: jobs end at once while the receiver hangs', async () => {
    await endpoint();
    receiver.behave(() => 'hang');
    // A hanging receiver would hold each job its 30 s timeout; the jobs must end long before that
    // however loaded the machine (a fixed 2 s bound failed beside the type check at load 11).
    await start({ timeoutMs: 30_000 });
    const began = Date.now();
    await endJobs(t.pool, accountId, appId, 3);
    expect(Date.now() - began).toBeLessThan(Math.min(scaled(2_000), 15_000));
    expect((await jobRows(t.pool)).map((j) => j.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    await until(async () => receiver.received.length === 3, 5_000);
  });

  it('a burst is sent at the full concurrency, not one delivery per poll', async () => {
    await endpoint();
    receiver.behave(() => 'hang');
    // Only one of the four workers polls often; the others must be woken by the first's find.
    await start({ concurrency: 4, timeoutMs: 10_000, pollIntervalMs: 500 });
    await endJobs(t.pool, accountId, appId, 6);
    await until(async () => receiver.received.length === 4, 5_000);
    expect(receiver.received).toHaveLength(4);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(4);
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
    // The sender's own worker may take the delivery before a runOnce here would, so wait for it.
    await start();
    await until(async () => (await deliveryRows(t.pool))[0]?.status === 'delivered', 5_000);
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
      await start({
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
      await start({ allowHttp: true, allowPrivate: false, retryDelaysMs: [] });
      const failed = await deliveryFails();
      expect(receiver.received).toHaveLength(0);
      expect(failed.last_error).toMatch(/loopback/);
    });

    it('connects to the checked address: with WEBHOOK_ALLOW_PRIVATE the name reaches the receiver', async () => {
      const ep = await endpoint(name());
      await start({ allowHttp: true, allowPrivate: true, resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
      await endJobs(t.pool, accountId, appId, 1);
      await until(async () => receiver.received.length === 1, 5_000);
      expect(receiver.received[0].headers.host).toBe(`hooks.example.test:${receiver.port}`);
      verify(ep.secret, receiver.received[0]);
    });

    it('https only without WEBHOOK_ALLOW_HTTP, checked at send time as well', async () => {
      await endpoint();
      await start({ allowHttp: false, allowPrivate: true, retryDelaysMs: [] });
      const failed = await deliveryFails();
      expect(receiver.received).toHaveLength(0);
      expect(failed.last_error).toMatch(/https/);
    });
  });

  describe('surviving restarts', () => {
    it('a delivery that failed on one worker is completed by a new one on the same database', async () => {
      const ep = await endpoint();
      receiver.behave((n) => (n === 1 ? 503 : 200));
      // A delay the stop below cannot outlast on a loaded machine (at 400 ms the first worker could
      // begin the retry before it stopped), without its jitter (× 0.8-1.2) so the check is exact.
      const first = await start({ retryDelaysMs: [3_000], random: () => 0.5 });
      await endJobs(t.pool, accountId, appId, 1);
      await until(async () => (await deliveryRows(t.pool))[0]?.last_status === 503, 5_000);
      // The retry waits as a task of its own, under the delivery's key, not before its delay
      // (counted from the failed attempt, which set updated_at); the attempt's own task may still be
      // finishing.
      const { rows } = await t.pool.query<{ state: string; key: string; later: boolean }>(
        `SELECT j.state, j.singleton_key AS key, j.start_after = d.updated_at + interval '3 seconds' AS later
         FROM pgboss.job j JOIN webhook_deliveries d ON d.id::text = j.singleton_key
         WHERE j.name = 'webhook-delivery' AND j.state NOT IN ('completed', 'active')`,
      );
      expect(rows).toEqual([{ state: 'created', key: String((await deliveryRows(t.pool))[0].id), later: true }]);
      await stop(first, 1_000);
      expect(receiver.received).toHaveLength(1);
      // The delay is over for the next worker: the retry is due now rather than 3 s on (the
      // delay's own length is checked above; waiting it out would check nothing more).
      await t.pool.query(`UPDATE pgboss.job SET start_after = now() WHERE name = 'webhook-delivery' AND state = 'created'`);
      await start();
      await until(async () => (await deliveryRows(t.pool))[0]?.status === 'delivered', 5_000);
      expect(receiver.received).toHaveLength(2);
      expect(receiver.received[1].headers['webhook-id']).toBe(receiver.received[0].headers['webhook-id']);
      for (const r of receiver.received) verify(ep.secret, r);
    });

    it('an attempt cut short by a stopping worker is given back and sent again by the next', async () => {
      await endpoint();
      receiver.behave((n) => (n === 1 ? 'hang' : 200));
      const first = await start({ timeoutMs: 10_000 });
      await endJobs(t.pool, accountId, appId, 1);
      await until(async () => receiver.received.length === 1, 5_000);
      await stop(first, 50);
      expect((await deliveryRows(t.pool))[0]).toMatchObject({ status: 'pending', attempts: 0 });
      await start();
      // Failed once in a whole run at six workers (load ~12), not in 27 runs of this file alone
      // under load: the delivery and its tasks are printed if it happens again.
      const tasks = async () => ({
        deliveries: await deliveryRows(t.pool),
        tasks: (await t.pool.query(`SELECT state, retry_count, start_after, singleton_key FROM pgboss.job WHERE name = 'webhook-delivery'`))
          .rows,
        received: receiver.received.length,
      });
      await until(async () => (await deliveryRows(t.pool))[0]?.status === 'delivered', 5_000, 20, tasks);
      expect((await deliveryRows(t.pool))[0].attempts).toBe(1);
      expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([
        receiver.received[0].headers['webhook-id'],
        receiver.received[0].headers['webhook-id'],
      ]);
    });

    it('the attempt of a worker that died mid-call (no stop) is made again once its lease is over', async () => {
      await endpoint();
      await endJobs(t.pool, accountId, appId, 1);
      // As if a worker had taken the task, counted the attempt and died: running, lease not over.
      const dead = await runner();
      await t.pool.query(`UPDATE webhook_deliveries SET attempts = 1`);
      const taken = await t.pool.query(
        `UPDATE pgboss.job SET state = 'active', started_on = now(), expire_in = interval '1 hour' WHERE name = 'webhook-delivery'`,
      );
      expect(taken.rowCount).toBe(1);
      await dead.stop(0);
      const { d } = await start();
      await d.runOnce();
      expect(receiver.received).toHaveLength(0);
      // The lease is over: pg-boss's maintenance puts the task back, and it runs again.
      await t.pool.query(`UPDATE pgboss.job SET started_on = now() - interval '2 hours' WHERE name = 'webhook-delivery'`);
      await until(async () => (await deliveryRows(t.pool))[0].status === 'delivered', 10_000);
      expect((await deliveryRows(t.pool))[0].attempts).toBe(2);
      expect(receiver.received).toHaveLength(1);
    });

    it('a job end that rolls back leaves neither a delivery nor a task', async () => {
      await endpoint();
      const { d } = await start();
      const [jobId] = await enqueueJobs(t.pool, accountId, appId, 1);
      const client = await t.pool.connect();
      try {
        // The event a job's end writes, in that transaction (jobs_ended): its fan-out writes the
        // delivery, and the end then queues the delivery's task in the same transaction.
        await client.query('BEGIN');
        await client.query(`INSERT INTO job_events (job_id, account_id, type) VALUES ($1, $2, 'job.succeeded')`, [jobId, accountId]);
        await queueDeliveryTasks(client, { accountId, jobId });
        expect((await client.query(`SELECT 1 FROM pgboss.job WHERE name = 'webhook-delivery'`)).rowCount).toBe(1);
        await client.query('ROLLBACK');
      } finally {
        client.release();
      }
      await d.runOnce();
      expect(await deliveryRows(t.pool)).toEqual([]);
      expect((await t.pool.query(`SELECT 1 FROM pgboss.job WHERE name = 'webhook-delivery'`)).rowCount).toBe(0);
      expect(receiver.received).toHaveLength(0);
    });

    it('one task per delivery: a delivery written before any task runner existed gets one at its start, once', async () => {
      await endpoint();
      await endpoint(receiver.url.replace('/hooks', '/second'));
      await endJobs(t.pool, accountId, appId, 1);
      // Two processes start together, each catching up on deliveries that have no task.
      const [a, b] = await Promise.all([runner(), runner()]);
      await Promise.all([a.stop(0), b.stop(0)]);
      const { rows } = await t.pool.query<{ key: string; n: number }>(
        `SELECT singleton_key AS key, count(*)::int AS n FROM pgboss.job WHERE name = 'webhook-delivery' GROUP BY 1 ORDER BY 1`,
      );
      expect(rows.map((r) => r.n)).toEqual([1, 1]);
      expect(rows.map((r) => r.key).sort()).toEqual((await deliveryRows(t.pool)).map((r) => String(r.id)).sort());
      // A job ending now has its tasks written with its deliveries, in the same transaction.
      await endJobs(t.pool, accountId, appId, 1);
      const after = await t.pool.query(`SELECT 1 FROM pgboss.job WHERE name = 'webhook-delivery'`);
      expect(after.rowCount).toBe(4);
      // The sender's own worker may take some before a runOnce here would, so wait for all four.
      await start();
      await until(async () => (await deliveryRows(t.pool)).filter((r) => r.status === 'delivered').length === 4, 5_000);
      expect(receiver.received).toHaveLength(4);
      expect((await deliveryRows(t.pool)).map((r) => [r.status, r.attempts])).toEqual(Array(4).fill(['delivered', 1]));
    });
  });
});
