/**
 * Claiming jobs fairly. A plain FIFO claim (oldest job first) lets one account's hundred queued
 * sets hold every other account's for as long as they take. Instead, each claim serves the
 * accounts with the fewest running jobs first (oldest waiting job breaks ties), takes their
 * jobs round-robin, and never lets an account run more than `perAccount` jobs at once across all
 * workers.
 *
 * The cap holds under concurrent claimers because an account is claimed for only under a
 * transaction-scoped advisory lock on it: the statement that counts the account's running jobs and
 * claims starts after the lock is held, so its snapshot includes every claim committed for that
 * account before. The locks are taken in one order (by key), so two claimers cannot deadlock; a
 * claimer waits for another's claim on the same account (milliseconds) rather than skipping it,
 * so an empty claim still means there is nothing to claim.
 */
import { transaction, type Db } from '../db/pool.ts';

/** A claimed job; `request` is its payload, whatever its owner stored (the claim does not look inside). */
export interface ClaimedJob<P> {
  id: string;
  accountId: string;
  appId: string;
  request: P;
  attempts: number;
  maxAttempts: number;
}

export interface ClaimOptions {
  /** Jobs one account may have running at once, across all workers; null: no cap. */
  perAccount?: number | null;
}

/** The advisory-lock namespace of job claims (the first key of the two-key form). */
const CLAIM_LOCK_CLASS = 0x5367_4a01;

export async function claimJobs<P>(
  db: Db,
  workerId: string,
  limit: number,
  leaseMs: number,
  opts: ClaimOptions = {},
): Promise<ClaimedJob<P>[]> {
  if (limit <= 0) return [];
  const perAccount = opts.perAccount ?? null;
  return transaction(db, async (tx) => {
    // Accounts with due work and room under the cap, least served first; at most one account per
    // free slot, since each will get at least one job.
    const { rows: accounts } = await tx.query<{ account_id: string }>(
      `SELECT q.account_id
       FROM (SELECT account_id, min(created_at) AS oldest FROM jobs WHERE status = 'queued' AND run_at <= now() GROUP BY account_id) q
       CROSS JOIN LATERAL (SELECT count(*)::int AS running FROM jobs WHERE account_id = q.account_id AND status = 'running') r
       WHERE $2::int IS NULL OR r.running < $2::int
       ORDER BY r.running, q.oldest, q.account_id
       LIMIT $1`,
      [limit, perAccount],
    );
    if (accounts.length === 0) return [];
    const ids = accounts.map((a) => a.account_id);
    // The aggregate takes the keys in the subquery's order: the locks are taken in key order.
    await tx.query(
      `SELECT count(pg_advisory_xact_lock($1, k)) FROM (SELECT DISTINCT hashtext(a) AS k FROM unnest($2::text[]) a ORDER BY k) keys`,
      [CLAIM_LOCK_CLASS, ids],
    );
    // A new statement, so a new snapshot: it sees every claim committed before our locks were taken.
    const { rows } = await tx.query<{
      id: string;
      account_id: string;
      app_id: string;
      request: P;
      attempts: number;
      max_attempts: number;
    }>(
      `WITH locked AS (
         SELECT a.account_id, a.turn,
                CASE WHEN $4::int IS NULL THEN $3::int
                     ELSE greatest(0, $4::int - (SELECT count(*)::int FROM jobs WHERE account_id = a.account_id AND status = 'running')) END AS room
         FROM unnest($2::text[]) WITH ORDINALITY AS a (account_id, turn)
       ), picked AS (
         SELECT j.id, j.rn, l.turn
         FROM locked l
         CROSS JOIN LATERAL (
           SELECT id, row_number() OVER (ORDER BY created_at, id) AS rn
           FROM jobs WHERE account_id = l.account_id AND status = 'queued' AND run_at <= now()
           ORDER BY created_at, id LIMIT l.room
         ) j
         ORDER BY j.rn, l.turn
         LIMIT $3
       )
       UPDATE jobs SET status = 'running', attempts = attempts + 1, locked_by = $1,
         lease_expires_at = now() + make_interval(secs => $5::float8 / 1000), started_at = clock_timestamp(), updated_at = now()
       WHERE id IN (SELECT id FROM picked) AND status = 'queued'
       RETURNING id, account_id, app_id, request, attempts, max_attempts`,
      [workerId, ids, limit, perAccount, leaseMs],
    );
    return rows.map((r) => ({
      id: r.id,
      accountId: r.account_id,
      appId: r.app_id,
      request: r.request,
      attempts: r.attempts,
      maxAttempts: r.max_attempts,
    }));
  });
}
