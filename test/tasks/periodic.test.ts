/** Periodic tasks (retention): once per period across every process of a deployment, and retried after a killed worker's lease. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { scheduleRetention } from '../../src/sets/retention.ts';
import { startService, type Service } from '../../src/service.ts';
import type { ObjectStore } from '../../src/objects/index.ts';
import { RETENTION_TASK } from '../../src/tasks/retention.ts';
import { Tasks, type Attempt, type TaskSettings } from '../../src/tasks/runner.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { accountWithKey } from '../support/fixtures.ts';
import { until } from '../support/jobs.ts';
import { scaled } from '../support/timing.ts';

const CHILD = path.resolve(import.meta.dirname, 'periodic-child.ts');

const quick = (url: string): TaskSettings => ({
  connectionString: url,
  leaseSeconds: 2,
  retryLimit: 3,
  retryDelaySeconds: 0,
  pollingIntervalSeconds: 0.5,
  maintenanceIntervalSeconds: 1,
});

/** Every retention task pg-boss holds, finished ones included, with the period its key names. */
async function retentionTasks(t: TestDatabase) {
  const { rows } = await t.pool.query<{ period: Date; state: string; retry_count: number }>(
    `SELECT singleton_on AS period, state, retry_count FROM pgboss.job WHERE name = $1
     UNION ALL SELECT singleton_on, state, retry_count FROM pgboss.archive WHERE name = $1 ORDER BY 1`,
    [RETENTION_TASK],
  );
  return rows;
}

describe('periodic tasks', () => {
  let t: TestDatabase;
  const runners: Tasks[] = [];
  const children: ChildProcess[] = [];
  beforeEach(async () => {
    t = await createTestDatabase();
  });
  afterEach(async () => {
    for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await Promise.all(runners.splice(0).map((r) => r.stop(0)));
    await t.drop();
  });

  const start = async () => {
    const r = await Tasks.start(quick(t.url));
    runners.push(r);
    return r;
  };

  it('two processes asking every period run retention once per period, not once per process', { timeout: scaled(60_000) }, async () => {
    const runs: string[] = [];
    const [a, b] = [await start(), await start()];
    // A 2-second period asked for every half second by both: 8 asks a period, one run.
    await a.runEvery(RETENTION_TASK, 2, async () => void runs.push('a'));
    await b.runEvery(RETENTION_TASK, 2, async () => void runs.push('b'));
    await until(async () => runs.length >= 3, 20_000);
    await Promise.all([a.stop(5_000), b.stop(5_000)]);
    const tasks = await retentionTasks(t);
    expect(tasks.length).toBe(runs.length);
    expect(new Set(tasks.map((x) => x.period.getTime())).size).toBe(tasks.length);
    expect(tasks.every((x) => x.state === 'completed' && x.retry_count === 0)).toBe(true);
  });

  it('deletes what is past its retention through the task, once for two workers', { timeout: scaled(30_000) }, async () => {
    const { account } = await accountWithKey(t.pool);
    await t.pool.query(
      `INSERT INTO idempotency_keys (account_id, key, request_hash, created_at)
       VALUES ($1, 'old', '\\x00', now() - interval '25 hours'), ($1, 'new', '\\x00', now())`,
      [account.id],
    );
    // No job has files, so the pictures' pass touches no object.
    const objects = {} as ObjectStore;
    for (const r of [await start(), await start()])
      await scheduleRetention(r, t.pool, objects, 30, { now: () => new Date(), periodSeconds: 3600 });
    await until(async () => (await retentionTasks(t)).some((x) => x.state === 'completed'), 10_000);
    const { rows } = await t.pool.query<{ key: string }>('SELECT key FROM idempotency_keys');
    expect(rows.map((r) => r.key)).toEqual(['new']);
    expect(await retentionTasks(t)).toHaveLength(1);
  });

  it('a worker killed in the middle of retention has it retried by another after its lease', { timeout: scaled(60_000) }, async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
      env: { ...process.env, DB_URL: t.url, PERIOD: '8' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    await until(async () => out.includes('running retry=0') || child.exitCode !== null, 30_000);
    expect(out).toContain('running retry=0');
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));

    const runs: Attempt[] = [];
    const survivor = await start();
    // This period's run is already taken, so the survivor's own ask is absorbed (should the period
    // have ended meanwhile, its new run has retryCount 0), and it runs the killed worker's task
    // once pg-boss's maintenance finds its lease over. 8 s: the survivor looks every 2 s.
    await survivor.runEvery(RETENTION_TASK, 8, async (attempt) => void runs.push(attempt));
    await until(async () => runs.some((r) => r.retryCount > 0), 20_000);
    expect(runs.filter((r) => r.retryCount > 0)).toEqual([{ retryCount: 1, lastAttempt: false }]);
    await until(async () => (await retentionTasks(t)).some((x) => x.state === 'completed' && x.retry_count === 1), 5_000);
  });

  it('refuses a period its de-duplication key would not outlive', async () => {
    const r = await start();
    await expect(r.runEvery(RETENTION_TASK, 13 * 3600, async () => undefined)).rejects.toThrow(/1 to 43200/);
  });
});

describe('retention in a split deployment', () => {
  let t: TestDatabase;
  const services: Service[] = [];
  beforeEach(async () => {
    t = await createTestDatabase();
  });
  afterEach(async () => {
    await Promise.all(services.splice(0).map((s) => s.close()));
    await t.drop();
  });

  const start = async (role: 'api' | 'worker') => {
    const s = await startService(loadConfig({ LOG_LEVEL: 'silent', PORT: '0', HOST: '127.0.0.1', SHUTDOWN_TIMEOUT_MS: '1000' }), {
      role,
      listen: false,
      database: { pool: t.pool, url: t.url, embedded: null, close: async () => undefined },
    });
    services.push(s);
    return s;
  };

  it('the api role runs no retention; two workers run it once between them', { timeout: scaled(60_000) }, async () => {
    await start('api');
    expect(await retentionTasks(t)).toEqual([]);
    await start('worker');
    await start('worker');
    await until(async () => (await retentionTasks(t)).some((x) => x.state === 'completed'), 20_000);
    expect(await retentionTasks(t)).toHaveLength(1);
  });
});
