/**
 * Every way a job or a publication ends queues its webhook deliveries' tasks through pg-boss's API
 * in the transaction that ends it (src/tasks/webhook-delivery.ts), and no SQL of ours writes into
 * pg-boss's tables (migration 044).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ScreenshotSetResult } from '../../src/core/set.ts';
import { newId } from '../../src/core/ids.ts';
import { setStatus } from '../../src/publishing/publications.ts';
import { claimJobs, completeJob, setJobs, sweepExpiredLeases, type SetJobRunner } from '../../src/sets/job-queue.ts';
import { FatalJobError } from '../../src/queue/runner.ts';
import { Worker } from '../../src/queue/worker.ts';
import { JobReader } from '../../src/sets/reader.ts';
import { DEFAULT_TASK_SETTINGS, Tasks } from '../../src/tasks/runner.ts';
import { WebhookDispatcher } from '../../src/webhooks/dispatcher.ts';
import { createEndpoint, type WebhookEvent } from '../../src/webhooks/endpoints.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { accountWithKey, insertApp } from '../support/fixtures.ts';
import { enqueueJobs, jobRows } from '../support/jobs.ts';
import { deliveryRows, startReceiver, type Receiver } from './support.ts';

const OPEN = { allowHttp: true, allowPrivate: true };
const RESULT = { device: 'iphone-69', width: 1320, height: 2868, slides: [], warnings: [] } as unknown as ScreenshotSetResult;

describe('webhook delivery tasks from the code that ends a job or a publication', () => {
  let t: TestDatabase;
  let accountId: string;
  let appId: string;
  let receiver: Receiver;
  let tasks: Tasks;
  beforeEach(async () => {
    t = await createTestDatabase();
    accountId = (await accountWithKey(t.pool)).account.id;
    appId = await insertApp(t.pool, accountId);
    receiver = await startReceiver();
    // pg-boss's schema and queues, as any process's start sets them up; nothing runs tasks yet.
    tasks = await Tasks.start({ ...DEFAULT_TASK_SETTINGS, connectionString: t.url, pollingIntervalSeconds: 0.5 });
  });
  afterEach(async () => {
    await tasks.stop(0);
    await receiver.close();
    await t.drop();
  });

  const endpoints = async (events?: WebhookEvent[]) => {
    for (const path of ['/a', '/b']) await createEndpoint(t.pool, accountId, { url: receiver.url.replace('/hooks', path), events }, OPEN);
  };
  /** The delivery tasks waiting, by delivery id, as the committed ends left them. */
  const waiting = async () => {
    const { rows } = await t.pool.query<{ key: string; state: string; data: { deliveryId: string } }>(
      `SELECT singleton_key AS key, state, data FROM pgboss.job WHERE name = 'webhook-delivery' ORDER BY 1`,
    );
    return rows;
  };
  const expectOneTaskPerDelivery = async (deliveries: number) => {
    const ids = (await deliveryRows(t.pool)).map((d) => String(d.id)).sort();
    expect(ids).toHaveLength(deliveries);
    expect(await waiting()).toEqual(ids.map((id) => ({ key: id, state: 'created', data: { deliveryId: id } })));
  };
  /** Sends what is due on a dispatcher of its own, as a worker process would. */
  const send = async () => {
    const jobs = new JobReader(t.pool);
    const d = new WebhookDispatcher(t.pool, tasks, {
      ...OPEN,
      readJob: (a, j) => jobs.get(a, j),
      pollIntervalMs: 500,
      retryDelaysMs: [50],
    });
    await d.start();
    await d.runOnce();
  };
  const sentTo = (path: string) => receiver.received.filter((r) => r.path === path).map((r) => JSON.parse(r.body).data.id as string);

  it('a worker’s completion, a fatal failure and a last failed attempt: one task per delivery on commit, one webhook per endpoint', async () => {
    await endpoints();
    const [ok, fatal, flaky] = await enqueueJobs(t.pool, accountId, appId, 3);
    const run: SetJobRunner = async (job) => {
      if (job.id === fatal) throw new FatalJobError({ code: 'planning_failed', message: 'nothing to plan', retryable: false });
      if (job.id === flaky) throw new Error('a bug, every time');
      return { result: RESULT };
    };
    await new Worker(t.pool, null, run, { queue: setJobs, concurrency: 3, leaseMs: 60_000, retryDelayMs: () => 0 }).runOnce();
    expect((await jobRows(t.pool)).map((j) => [j.id, j.status])).toEqual([
      [ok, 'succeeded'],
      [fatal, 'failed'],
      [flaky, 'failed'],
    ]);
    // Committed with the jobs' ends: nothing after the commit (nor a runner's catch-up) wrote them.
    await expectOneTaskPerDelivery(6);
    await send();
    for (const path of ['/a', '/b']) expect(sentTo(path).sort()).toEqual([ok, fatal, flaky].sort());
    expect((await deliveryRows(t.pool)).map((d) => d.status)).toEqual(Array(6).fill('delivered'));
  });

  it('the lease sweep failing a job after its last attempt queues its deliveries’ tasks', async () => {
    await endpoints(['job.failed']);
    const [id] = await enqueueJobs(t.pool, accountId, appId, 1);
    await t.pool.query('UPDATE jobs SET max_attempts = 1 WHERE id = $1', [id]);
    await claimJobs(t.pool, 'dead-worker', 1, 60_000);
    // The worker died: its lease is over (made so, rather than waited for).
    await t.pool.query(`UPDATE jobs SET lease_expires_at = now() - interval '1 second' WHERE id = $1`, [id]);
    expect(await sweepExpiredLeases(t.pool)).toEqual({ requeued: [], failed: [id] });
    await expectOneTaskPerDelivery(2);
    await send();
    expect([sentTo('/a'), sentTo('/b')]).toEqual([[id], [id]]);
  });

  it('a publication’s end queues its deliveries’ tasks once, however often its status is set after', async () => {
    await endpoints(['publication.published', 'publication.failed']);
    const [jobId] = await enqueueJobs(t.pool, accountId, appId, 1);
    const pub = newId('pub');
    await t.pool.query(
      `INSERT INTO publications (id, account_id, job_id, store, store_app_id, locales, status)
       VALUES ($1, $2, $3, 'app-store', '42', '{}', 'verifying')`,
      [pub, accountId, jobId],
    );
    await setStatus(t.pool, pub, 'published');
    await expectOneTaskPerDelivery(2);
    // As if a worker had taken them: a second task could wait beside each now (policy stately).
    await t.pool.query(`UPDATE pgboss.job SET state = 'active', started_on = now() WHERE name = 'webhook-delivery'`);
    const first = await waiting();
    await setStatus(t.pool, pub, 'published');
    await setStatus(t.pool, pub, 'failed', { error: { code: 'store_refused', message: 'too late' } });
    expect(await waiting()).toEqual(first);
  });

  it('an end whose tasks cannot be queued does not commit: no event, no delivery, the job still running', async () => {
    await endpoints();
    const [id] = await enqueueJobs(t.pool, accountId, appId, 1);
    await claimJobs(t.pool, 'w1', 1, 60_000);
    // pg-boss refuses the task (a stand-in for any failure of its insert).
    await t.pool.query(
      `CREATE FUNCTION refuse_task() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'no tasks today'; END $$`,
    );
    await t.pool.query(`CREATE TRIGGER refuse_task BEFORE INSERT ON pgboss.job FOR EACH ROW EXECUTE FUNCTION refuse_task()`);
    await expect(completeJob(t.pool, 'w1', id, { result: RESULT })).rejects.toThrow(/no tasks today/);
    expect((await jobRows(t.pool))[0].status).toBe('running');
    expect((await t.pool.query('SELECT 1 FROM job_events')).rowCount).toBe(0);
    expect(await deliveryRows(t.pool)).toEqual([]);

    await t.pool.query('DROP TRIGGER refuse_task ON pgboss.job');
    expect(await completeJob(t.pool, 'w1', id, { result: RESULT })).toBe(true);
    await expectOneTaskPerDelivery(2);
  });

  it('no trigger or function of ours refers to pg-boss’s schema once migrated', async () => {
    const { rows: functions } = await t.pool.query<{ name: string }>(
      `SELECT p.proname AS name FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
       WHERE n.nspname NOT IN ('pgboss', 'pg_catalog', 'information_schema') AND p.prosrc ILIKE '%pgboss%'`,
    );
    expect(functions).toEqual([]);
    const { rows: triggers } = await t.pool.query<{ name: string }>(
      `SELECT t.tgname AS name FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid JOIN pg_class c ON c.oid = t.tgrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE NOT t.tgisinternal AND (n.nspname = 'pgboss' OR p.prosrc ILIKE '%pgboss%')`,
    );
    expect(triggers).toEqual([]);
    // The fan-out into our own tables stays: job_events and webhook_deliveries are written by triggers.
    const { rows: ours } = await t.pool.query<{ name: string }>(
      `SELECT tgname AS name FROM pg_trigger WHERE NOT tgisinternal AND tgname IN ('jobs_ended', 'publications_ended', 'job_events_fan_out') ORDER BY 1`,
    );
    expect(ours.map((r) => r.name)).toEqual(['job_events_fan_out', 'jobs_ended', 'publications_ended']);
  });
});
