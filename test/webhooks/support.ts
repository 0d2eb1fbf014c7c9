/** A webhook receiver on 127.0.0.1 whose answers a test scripts, and jobs that end on demand. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Db } from '../../src/db/pool.ts';
import { claimJobs, completeJob, failJob } from '../../src/sets/job-queue.ts';
import type { ScreenshotSetResult } from '../../src/core/set.ts';
import { enqueueJobs } from '../support/jobs.ts';

export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

/** What the receiver does with the n-th request (1-based): answer with a status, or never answer. */
export type Behaviour = (n: number) => number | 'hang';

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  behave(b: Behaviour): void;
  close(): Promise<void>;
}

export async function startReceiver(behaviour: Behaviour = () => 204): Promise<Receiver> {
  let behave = behaviour;
  const received: Received[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        path: req.url ?? '',
        headers: req.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      });
      const what = behave(received.length);
      if (what === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(what, what >= 300 && what < 400 ? { location: 'http://127.0.0.1:9/elsewhere' } : {}).end('ignored by the sender');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    behave: (b) => (behave = b),
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

const fakeResult = {
  device: 'iphone-69',
  width: 1320,
  height: 2868,
  narrativeId: null,
  captionStyle: 'aso-expert',
  captionLength: 'short',
  slides: [],
  warnings: [],
} as unknown as ScreenshotSetResult;

/** Ends n new jobs the way a worker does (the jobs_ended trigger writes their events): succeeded, or failed. */
export async function endJobs(
  db: Db,
  accountId: string,
  appId: string,
  n: number,
  outcome: 'succeeded' | 'failed' = 'succeeded',
): Promise<string[]> {
  const ids = await enqueueJobs(db, accountId, appId, n);
  await claimJobs(db, 'test-worker', 100, 60_000);
  for (const id of ids) {
    if (outcome === 'succeeded') await completeJob(db, 'test-worker', id, { result: fakeResult });
    else await failJob(db, id, 'test-worker', { code: 'planning_failed', message: 'nothing to plan', retryable: false });
  }
  return ids;
}

export async function deliveryRows(db: Db) {
  const { rows } = await db.query<{
    id: string;
    message_id: string;
    endpoint_id: string;
    status: string;
    attempts: number;
    last_status: number | null;
    last_error: string | null;
  }>('SELECT id, message_id, endpoint_id, status, attempts, last_status, last_error FROM webhook_deliveries ORDER BY id');
  return rows;
}
