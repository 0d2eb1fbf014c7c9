/**
 * The deliveries table as the public record of each webhook delivery (status, attempts,
 * last_status, last_error), written by the task that makes its attempts (src/webhooks/dispatcher.ts,
 * on pg-boss). An attempt is counted when it starts, so one cut short by a dead worker counts; a
 * stopping worker gives its attempt back uncounted. Each write is guarded by the attempt number,
 * so nothing a lost run writes late can overwrite a newer attempt's record.
 */
import { scheduled, type RetryPolicy } from '../core/retry.ts';
import type { Queryable } from '../db/pool.ts';
import type { WebhookEvent } from './endpoints.ts';

/** ±20 %, so that the deliveries of one outage do not all come back at once. */
export const WEBHOOK_JITTER = [0.8, 1.2] as const;

/** CONTRACT: about 5 s, 30 s, 2 min, 10 min, 1 h, 6 h; then the delivery is failed (7 attempts). */
export const WEBHOOK_RETRY: RetryPolicy = scheduled([5_000, 30_000, 120_000, 600_000, 3_600_000, 21_600_000], WEBHOOK_JITTER);

export interface StartedAttempt {
  id: string;
  messageId: string;
  accountId: string;
  endpointId: string;
  attempt: number;
  url: string;
  secret: string;
  jobId: string;
  /** Set for publication.* events: the delivery carries this publication, not the job. */
  publicationId: string | null;
  type: WebhookEvent;
  eventAt: Date;
}

/**
 * Counts the next attempt of a pending delivery and returns what it needs; null when the delivery
 * is no longer pending (delivered, failed, or gone with its endpoint). next_attempt_at moves one
 * lease ahead: the time after which a dead worker's attempt is made again.
 */
export async function startAttempt(db: Queryable, deliveryId: string, leaseMs: number): Promise<StartedAttempt | null> {
  const { rows } = await db.query<{
    id: string;
    message_id: string;
    account_id: string;
    endpoint_id: string;
    attempts: number;
    url: string;
    secret: string;
    job_id: string;
    publication_id: string | null;
    type: WebhookEvent;
    event_at: Date;
  }>(
    `WITH started AS (
       UPDATE webhook_deliveries SET attempts = attempts + 1,
         next_attempt_at = now() + make_interval(secs => $2::float8 / 1000), updated_at = now()
       WHERE id = $1 AND status = 'pending'
       RETURNING id, message_id, account_id, endpoint_id, event_id, attempts)
     SELECT s.id, s.message_id, s.account_id, s.endpoint_id, s.attempts, e.url, e.secret, ev.job_id, ev.publication_id, ev.type, ev.created_at AS event_at
     FROM started s
     JOIN webhook_endpoints e ON e.id = s.endpoint_id AND e.account_id = s.account_id
     JOIN job_events ev ON ev.id = s.event_id AND ev.account_id = s.account_id`,
    [deliveryId, leaseMs],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    id: String(r.id),
    messageId: r.message_id,
    accountId: r.account_id,
    endpointId: r.endpoint_id,
    attempt: r.attempts,
    url: r.url,
    secret: r.secret,
    jobId: r.job_id,
    publicationId: r.publication_id,
    type: r.type,
    eventAt: r.event_at,
  };
}

export type AttemptResult = { ok: true; status: number } | { ok: false; status: number | null; error: string };

/**
 * Records an attempt: delivered, due again after `retryInMs`, or failed for good when that is
 * null. False when the record has moved on since the attempt started (it is not this run's to write).
 */
export async function finishAttempt(
  db: Queryable,
  d: Pick<StartedAttempt, 'id' | 'accountId' | 'attempt'>,
  result: AttemptResult,
  retryInMs: number | null,
): Promise<boolean> {
  const status = result.ok ? 'delivered' : retryInMs === null ? 'failed' : 'pending';
  const res = await db.query(
    `UPDATE webhook_deliveries SET status = $4, last_status = $5, last_error = $6, updated_at = now(),
       next_attempt_at = CASE WHEN $4 = 'pending' THEN now() + make_interval(secs => $7::float8 / 1000) ELSE next_attempt_at END
     WHERE id = $1 AND account_id = $2 AND attempts = $3 AND status = 'pending'`,
    [d.id, d.accountId, d.attempt, status, result.status, result.ok ? null : result.error.slice(0, 500), retryInMs ?? 0],
  );
  return res.rowCount === 1;
}

/** A worker shutting down gives its unfinished attempt back at once; it does not count. */
export async function giveBack(db: Queryable, d: Pick<StartedAttempt, 'id' | 'accountId' | 'attempt'>): Promise<void> {
  await db.query(
    `UPDATE webhook_deliveries SET attempts = attempts - 1, next_attempt_at = now(), updated_at = now()
     WHERE id = $1 AND account_id = $2 AND attempts = $3 AND status = 'pending'`,
    [d.id, d.accountId, d.attempt],
  );
}
