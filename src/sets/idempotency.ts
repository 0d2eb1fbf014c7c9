/**
 * Idempotency-Key records, scoped to the account and kept 24 hours. The record is claimed first
 * in the creating transaction, so a concurrent duplicate blocks on the primary key until the
 * first commits, then replays its response; it never charges twice. If the first takes longer
 * than the lock timeout, the duplicate gets 409 idempotency_key_in_use.
 */
import { createHash } from 'node:crypto';
import type { Queryable } from '../db/pool.ts';
import { Problem } from '../core/problem.ts';

const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
export const IDEMPOTENCY_KEY_MAX = 255;
/** How long a duplicate waits for the first request before answering 409. */
const IDEMPOTENCY_WAIT_MS = 5_000;

/** Canonical JSON (sorted keys) so that field order does not make a body "different". */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

export const requestHash = (body: unknown): Buffer => createHash('sha256').update(canonical(body)).digest();

/**
 * The stored response for a live record with the same body; 422 for a different body; null when
 * there is no live record (an expired one is deleted so the key can be used afresh).
 */
export async function findIdempotencyRecord<T>(q: Queryable, accountId: string, key: string, hash: Buffer, now: Date): Promise<T | null> {
  const { rows } = await q.query<{ request_hash: Buffer; response: T | null; created_at: Date }>(
    'SELECT request_hash, response, created_at FROM idempotency_keys WHERE account_id = $1 AND key = $2',
    [accountId, key],
  );
  const row = rows[0];
  if (!row) return null;
  if (now.getTime() - row.created_at.getTime() >= IDEMPOTENCY_TTL_MS) {
    await q.query('DELETE FROM idempotency_keys WHERE account_id = $1 AND key = $2 AND created_at = $3', [accountId, key, row.created_at]);
    return null;
  }
  if (!row.request_hash.equals(hash)) {
    throw new Problem(
      'idempotency_key_reused',
      'This Idempotency-Key was used with a different request body in the last 24 hours. Use a new key for a new request.',
    );
  }
  return row.response;
}

export async function claimIdempotencyKey(
  q: Queryable,
  accountId: string,
  key: string,
  hash: Buffer,
  now: Date,
  waitMs = IDEMPOTENCY_WAIT_MS,
): Promise<void> {
  try {
    await q.query(`SET LOCAL lock_timeout = '${Math.max(1, Math.floor(waitMs))}ms'`);
    await q.query('INSERT INTO idempotency_keys (account_id, key, request_hash, created_at) VALUES ($1, $2, $3, $4)', [
      accountId,
      key,
      hash,
      now,
    ]);
    // The timeout is for waiting on a duplicate only, not on the credit row that comes next.
    await q.query('SET LOCAL lock_timeout = 0');
  } catch (error) {
    if ((error as { code?: string }).code === '55P03') {
      throw new Problem(
        'idempotency_key_in_use',
        'A request with this Idempotency-Key is still being processed. Retry shortly.',
        {},
        { 'Retry-After': '1' },
      );
    }
    throw error;
  }
}

export async function completeIdempotencyKey(
  q: Queryable,
  accountId: string,
  key: string,
  jobId: string,
  response: unknown,
): Promise<void> {
  await q.query('UPDATE idempotency_keys SET job_id = $3, response = $4 WHERE account_id = $1 AND key = $2', [
    accountId,
    key,
    jobId,
    response,
  ]);
}

/** Retention (src/sets/retention.ts): a lookup already ignores an expired record; this keeps the table small. */
export async function deleteExpiredIdempotencyKeys(q: Queryable, now: Date): Promise<number> {
  const res = await q.query('DELETE FROM idempotency_keys WHERE created_at < $1', [new Date(now.getTime() - IDEMPOTENCY_TTL_MS)]);
  return res.rowCount ?? 0;
}
