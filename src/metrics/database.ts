/**
 * Figures read from the database when Prometheus scrapes, not kept up to date on every change:
 * jobs by state, the queue's depth and the age of its oldest job, and the pool's connections.
 * Per server (each has its own pool), in a registry of its own that /metrics appends.
 */
import { Gauge, Registry } from 'prom-client';
import type { Db } from '../db/pool.ts';
import { JOB_STATUSES } from '../core/job-schemas.ts';

export function databaseMetrics(db: Db): Registry {
  const registry = new Registry();
  // One read for the three job gauges: prom-client collects them concurrently, so they share it.
  let pending: Promise<void> | null = null;
  const readJobs = () =>
    (pending ??= (async () => {
      try {
        const [byState, queue] = await Promise.all([
          db.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM jobs GROUP BY status'),
          db.query<{ n: number; age: number | null }>(
            `SELECT count(*)::int AS n, EXTRACT(EPOCH FROM now() - min(created_at))::float8 AS age FROM jobs WHERE status = 'queued' AND run_at <= now()`,
          ),
        ]);
        jobs.reset();
        for (const state of JOB_STATUSES) jobs.set({ state }, 0);
        for (const r of byState.rows) jobs.set({ state: r.status }, r.n);
        depth.set(queue.rows[0].n);
        age.set(queue.rows[0].age ?? 0);
      } finally {
        pending = null;
      }
    })());
  const jobs = new Gauge({
    name: 'shotgen_jobs',
    help: 'Jobs by state.',
    labelNames: ['state'] as const,
    registers: [registry],
    collect: readJobs,
  });
  const depth = new Gauge({
    name: 'shotgen_queue_depth',
    help: 'Queued jobs that are due to run.',
    registers: [registry],
    collect: readJobs,
  });
  const age = new Gauge({
    name: 'shotgen_queue_oldest_age_seconds',
    help: 'Age of the oldest job that is due and still queued (0 when none).',
    registers: [registry],
    collect: readJobs,
  });
  new Gauge({
    name: 'shotgen_db_pool_connections',
    help: 'This process’s database connections: total, idle, and requests waiting for one.',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      this.set({ state: 'total' }, db.totalCount);
      this.set({ state: 'idle' }, db.idleCount);
      this.set({ state: 'waiting' }, db.waitingCount);
    },
  });
  return registry;
}
