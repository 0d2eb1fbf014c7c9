/**
 * The process's Prometheus metrics (prom-client), in one registry. Domain-neutral on purpose: the
 * HTTP layer, the worker, the planner and the renderer all observe into it without importing one
 * another. Scrape-time figures that need the database live in ./database.ts.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export const registry = new Registry();
// Process CPU, memory, event-loop delay and GC: what tells a slow service from a slow database.
collectDefaultMetrics({ register: registry, prefix: 'shotgen_' });

export const httpRequestDuration = new Histogram({
  name: 'shotgen_http_request_duration_seconds',
  help: 'HTTP requests by method, route (the route pattern, "unmatched" for unknown paths) and status.',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});

export const planDuration = new Histogram({
  name: 'shotgen_plan_duration_seconds',
  help: 'Time to plan one screenshot set (the planner, and the LLM when configured).',
  labelNames: ['outcome'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  registers: [registry],
});

export const renderDuration = new Histogram({
  name: 'shotgen_render_duration_seconds',
  help: 'Time to render one screenshot set to PNGs, by device.',
  labelNames: ['device'] as const,
  buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
  registers: [registry],
});

export const creditsCharged = new Counter({
  name: 'shotgen_credits_charged_total',
  help: 'Credits charged for screenshot sets (committed charges; idempotent replays charge nothing).',
  registers: [registry],
});

export const creditsRefunded = new Counter({
  name: 'shotgen_credits_refunded_total',
  help: 'Credits given back for failed jobs.',
  registers: [registry],
});

export const webhookDeliveries = new Counter({
  name: 'shotgen_webhook_attempts_total',
  help: 'Webhook delivery attempts by outcome: delivered (a 2xx), retrying (failed, tried again later), failed (the last attempt failed).',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export const jobAttempts = new Counter({
  name: 'shotgen_job_attempts_total',
  help: 'Job attempts this process ran, by outcome: succeeded, failed (for good), retrying (failed, queued again), abandoned (lease lost before completion, or given back at shutdown).',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export const jobsRunning = new Gauge({
  name: 'shotgen_worker_jobs_running',
  help: 'Jobs this process is running now.',
  registers: [registry],
});

/** One child per (method, route, status): prom-client would otherwise hash the labels per request. */
const requestChildren = new Map<string, ReturnType<typeof httpRequestDuration.labels>>();

export function observeRequest(method: string, route: string | undefined, status: number, elapsedMs: number): void {
  const name = route ?? 'unmatched';
  const key = `${method} ${name} ${status}`;
  let child = requestChildren.get(key);
  if (!child) {
    child = httpRequestDuration.labels(method, name, String(status));
    requestChildren.set(key, child);
  }
  child.observe(elapsedMs / 1000);
}

/** Time `fn` into `histogram` with an `outcome` label: ok or error. */
export async function timed<T>(histogram: Histogram<'outcome'>, fn: () => Promise<T>): Promise<T> {
  const end = histogram.startTimer();
  try {
    const value = await fn();
    end({ outcome: 'ok' });
    return value;
  } catch (error) {
    end({ outcome: 'error' });
    throw error;
  }
}
