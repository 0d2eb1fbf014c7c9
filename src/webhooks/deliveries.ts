/**
 * The deliveries table as a queue, in plain SQL like the jobs queue (src/jobs/queue.ts): claim due
 * rows with FOR UPDATE SKIP LOCKED, and finish an attempt only while the claim is still ours. A
 * claim moves next_attempt_at one lease ahead, so the row of a worker that died mid-call is due
 * again once the lease is over, with no sweep.
 */
import type { Queryable } from '../db/pool.ts';
import type { WebhookEvent } from './endpoints.ts';

/** CONTRACT: about 5 s, 30 s, 2 min, 10 min, 1 h, 6 h; then the delivery is failed. */
export const RETRY_DELAYS_MS = [5_000, 30_000, 120_000, 600_000, 3_600_000, 21_600_000];

/** ±20 %, so that the deliveries of one outage do not all come back at once. */
export function retryDelay(
  attempt: number,
  delays: readonly number[] = RETRY_DELAYS_MS,
  random: () => number = Math.random,
): number | null {
  const exact = delays[attempt - 1];
  return exact === undefined ? null : Math.round(exact * (0.8 + 0.4 * random()));
}

export interface ClaimedDelivery {
  id: string;
  messageId: string;
  accountId: string;
  endpointId: string;
  attempt: number;
  url: string;
  secret: string;
  jobId: string;
  type: WebhookEvent;
  eventAt: Date;
}

export async function claimDeliveries(db: Queryable, workerId: string, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
  if (limit <= 0) return [];
  const { rows } = await db.query<{
    id: string;
    message_id: string;
    account_id: string;
    endpoint_id: string;
    attempts: number;
    url: string;
    secret: string;
    job_id: string;
    type: WebhookEvent;
    event_at: Date;
  }>(
    `WITH claimed AS (
       UPDATE webhook_deliveries SET attempts = attempts + 1, locked_by = $1,
         next_attempt_at = now() + make_interval(secs => $2::float8 / 1000), updated_at = now()
       WHERE id IN (SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= now()
                    ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING id, message_id, account_id, endpoint_id, event_id, attempts)
     SELECT c.id, c.message_id, c.account_id, c.endpoint_id, c.attempts, e.url, e.secret, ev.job_id, ev.type, ev.created_at AS event_at
     FROM claimed c
     JOIN webhook_endpoints e ON e.id = c.endpoint_id AND e.account_id = c.account_id
     JOIN job_events ev ON ev.id = c.event_id AND ev.account_id = c.account_id
     ORDER BY c.id`,
    [workerId, leaseMs, limit],
  );
  return rows.map((r) => ({
    id: String(r.id),
    messageId: r.message_id,
    accountId: r.account_id,
    endpointId: r.endpoint_id,
    attempt: r.attempts,
    url: r.url,
    secret: r.secret,
    jobId: r.job_id,
    type: r.type,
    eventAt: r.event_at,
  }));
}

export type AttemptResult = { ok: true; status: number } | { ok: false; status: number | null; error: string };

/**
 * Records an attempt: delivered, due again after `retryInMs`, or failed for good when that is
 * null. False when the claim was lost (another worker has the row now).
 */
export async function finishAttempt(
  db: Queryable,
  workerId: string,
  d: Pick<ClaimedDelivery, 'id' | 'accountId' | 'attempt'>,
  result: AttemptResult,
  retryInMs: number | null,
): Promise<boolean> {
  const status = result.ok ? 'delivered' : retryInMs === null ? 'failed' : 'pending';
  const res = await db.query(
    `UPDATE webhook_deliveries SET status = $5, last_status = $6, last_error = $7, locked_by = NULL, updated_at = now(),
       next_attempt_at = CASE WHEN $5 = 'pending' THEN now() + make_interval(secs => $8::float8 / 1000) ELSE next_attempt_at END
     WHERE id = $1 AND account_id = $2 AND locked_by = $3 AND attempts = $4 AND status = 'pending'`,
    [d.id, d.accountId, workerId, d.attempt, status, result.status, result.ok ? null : result.error.slice(0, 500), retryInMs ?? 0],
  );
  return res.rowCount === 1;
}

/** A worker shutting down gives its unfinished claims back at once; the attempt does not count. */
export async function releaseDelivery(
  db: Queryable,
  workerId: string,
  d: Pick<ClaimedDelivery, 'id' | 'accountId' | 'attempt'>,
): Promise<void> {
  await db.query(
    `UPDATE webhook_deliveries SET attempts = attempts - 1, locked_by = NULL, next_attempt_at = now(), updated_at = now()
     WHERE id = $1 AND account_id = $2 AND locked_by = $3 AND attempts = $4 AND status = 'pending'`,
    [d.id, d.accountId, workerId, d.attempt],
  );
}
