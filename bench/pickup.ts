/**
 * Job pickup latency: how long a created job waits before a worker claims it, on one-slide sets
 * against a service that also runs the worker (role all). Used by bench/run.ts and bench/parts.ts.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Queryable } from '../src/db/pool.ts';
import { percentile } from './load.ts';
import type { BenchAccount } from './setup.ts';

// Every job renders its slides, so a job offered on a fixed schedule measures a backlog as soon as
// one takes longer than the interval: at 200 ms, a VM three times slower than the one that chose
// it reported a pickup p50 of 1.7-9.5 s, all of it waiting behind earlier jobs' rendering. Closed
// loop instead: the next job is created only once the last one has ended (and IDLE_GAP_MS more),
// so each one finds the worker idle and started_at - created_at is the queue's own latency on any
// machine: commit, NOTIFY, wake and claim.
const PICKUP_JOBS = 100;
const WARMUP_JOBS = 20;
// The end notification arrives while the worker is still finishing the job it ends (its lease,
// its wake, a claim that finds nothing): a job created in that moment would measure that overlap.
const IDLE_GAP_MS = 50;
// A job that has not ended after this long is a hang, not a slow machine (beside a test suite at
// load 9, one job every ~0.5 s, its gap included): the stage fails rather than waiting forever.
const STALL_MS = 60_000;
const WAIT_S = 10;

export async function createOne(base: string, account: BenchAccount, count = 10): Promise<string> {
  const res = await fetch(`${base}/screenshots`, {
    method: 'POST',
    headers: { authorization: `Bearer ${account.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ appId: account.appId, device: 'iphone-69', count }),
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`POST /screenshots answered ${res.status}: ${text}`);
  return (JSON.parse(text) as { jobId: string }).jobId;
}

export interface PickupResult {
  jobs: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  retried: number;
  succeeded: number;
  offeredPerSec: number;
  succeededJobId: string | null;
}

interface JobState {
  status: string;
  error?: unknown;
}

/** Waits for the job's end by long polling (`Prefer: wait`): no polling load while it renders. */
async function ended(base: string, account: BenchAccount, id: string): Promise<JobState> {
  const started = Date.now();
  for (;;) {
    const res = await fetch(`${base}/jobs/${id}`, { headers: { authorization: `Bearer ${account.key}`, prefer: `wait=${WAIT_S}` } });
    const job = (await res.json()) as JobState;
    if (res.status !== 200) throw new Error(`GET /jobs/${id} answered ${res.status}: ${JSON.stringify(job)}`);
    if (job.status === 'succeeded' || job.status === 'failed') return job;
    if (Date.now() - started > STALL_MS) throw new Error(`pickup job ${id} still ${job.status} after ${STALL_MS / 1000} s: a stall`);
  }
}

/**
 * One-slide jobs created one at a time, each once the one before has ended (closed loop), against
 * a service that also runs the worker; the worker stamps started_at (clock_timestamp()) when it
 * claims a job, created_at is the creating transaction's start, so started_at - created_at is the
 * whole wait, commit and NOTIFY included.
 */
export async function pickupLatency(
  base: string,
  db: Queryable,
  main: BenchAccount,
  warm: BenchAccount,
  progress: (m: string) => void,
): Promise<PickupResult> {
  progress(`job pickup: ${WARMUP_JOBS} warm-up jobs, then ${PICKUP_JOBS} jobs, each created ${IDLE_GAP_MS} ms after the last one ended`);
  const oneAtATime = async (account: BenchAccount, n: number) => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const id = await createOne(base, account, 1);
      ids.push(id);
      await ended(base, account, id);
      await sleep(IDLE_GAP_MS);
    }
    return ids;
  };
  await oneAtATime(warm, WARMUP_JOBS);
  const t0 = performance.now();
  const ids = await oneAtATime(main, PICKUP_JOBS);
  // Jobs per second as the loop offered them: what this machine's rendering allowed.
  const offeredPerSec = PICKUP_JOBS / ((performance.now() - t0) / 1000);
  const { rows } = await db.query<{ id: string; ms: number; attempts: number; status: string }>(
    `SELECT id, (extract(epoch FROM started_at - created_at) * 1000)::float8 AS ms, attempts, status FROM jobs WHERE id = ANY($1)`,
    [ids],
  );
  const ms = rows.map((r) => r.ms).sort((a, b) => a - b);
  const succeeded = rows.filter((r) => r.status === 'succeeded');
  return {
    jobs: rows.length,
    p50: percentile(ms, 50),
    p95: percentile(ms, 95),
    p99: percentile(ms, 99),
    max: ms[ms.length - 1],
    retried: rows.filter((r) => r.attempts !== 1).length,
    succeeded: succeeded.length,
    offeredPerSec,
    succeededJobId: succeeded[0]?.id ?? null,
  };
}
