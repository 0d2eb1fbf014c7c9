/**
 * Throttled sign-ins, per email and per client address, counted in PostgreSQL so that every API
 * process shares the counts. An attempt is counted BEFORE the password is checked, in one atomic
 * upsert, and a success takes its count back: so concurrent guesses cannot all slip past a check
 * that has not yet seen the others' failures. Fixed windows; an email is limited more tightly than
 * an address, since one address may be a whole office behind NAT.
 */
import type { Queryable } from '../db/pool.ts';

export interface ThrottleLimits {
  perEmail: number;
  perAddress: number;
  windowMs: number;
}

export const DEFAULT_LIMITS: ThrottleLimits = { perEmail: 5, perAddress: 20, windowMs: 15 * 60_000 };

export const emailSubject = (email: string): string => `email:${email.trim().toLowerCase()}`;
export const addressSubject = (address: string): string => `addr:${address}`;

/**
 * Count one attempt for each subject. Returns 0 when the attempt may go ahead, else the seconds
 * until the earliest window that refuses it ends.
 */
export async function countAttempt(
  db: Queryable,
  subjects: { subject: string; limit: number }[],
  now: Date,
  windowMs: number,
): Promise<number> {
  const { rows } = await db.query<{ failures: number; window_start: Date; lim: number }>(
    `INSERT INTO sign_in_failures AS f (subject, window_start, failures)
     SELECT s, $3::timestamptz, 1 FROM unnest($1::text[]) AS s
     ON CONFLICT (subject) DO UPDATE SET
       failures = CASE WHEN f.window_start <= $3::timestamptz - $4 * interval '1 millisecond' THEN 1 ELSE f.failures + 1 END,
       window_start = CASE WHEN f.window_start <= $3::timestamptz - $4 * interval '1 millisecond' THEN $3::timestamptz ELSE f.window_start END
     RETURNING failures, window_start, (SELECT l FROM unnest($1::text[], $2::int[]) AS x(s, l) WHERE x.s = f.subject) AS lim`,
    [subjects.map((s) => s.subject), subjects.map((s) => s.limit), now, windowMs],
  );
  let wait = 0;
  for (const r of rows) {
    if (r.failures > r.lim) wait = Math.max(wait, Math.ceil((r.window_start.getTime() + windowMs - now.getTime()) / 1000));
  }
  return wait;
}

/** A successful sign-in: the email starts afresh, the address gets this attempt back. */
export async function forgiveAttempt(db: Queryable, email: string, address: string): Promise<void> {
  await db.query(
    `WITH e AS (DELETE FROM sign_in_failures WHERE subject = $1)
     UPDATE sign_in_failures SET failures = greatest(failures - 1, 0) WHERE subject = $2`,
    [emailSubject(email), addressSubject(address)],
  );
}

export interface LiftedLock {
  /** The subjects whose count was cleared (none when nothing was counted against them). */
  cleared: string[];
}

/**
 * The operator lifts a lock: an owner whose email someone else was guessing need not wait out the
 * window. Optionally also an address (a whole office behind NAT). Further guesses count afresh.
 */
export async function liftLock(db: Queryable, target: { email: string; address?: string }): Promise<LiftedLock> {
  const subjects = [emailSubject(target.email), ...(target.address ? [addressSubject(target.address)] : [])];
  const { rows } = await db.query<{ subject: string }>('DELETE FROM sign_in_failures WHERE subject = ANY($1) RETURNING subject', [
    subjects,
  ]);
  return { cleared: rows.map((r) => r.subject) };
}
