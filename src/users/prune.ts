/**
 * Expired sessions and stale throttle counters are deleted a batch at a time by sign-ins, so the
 * tables stay small without a scheduler; a batch is bounded so that no sign-in waits long.
 */
import type { Queryable } from '../db/pool.ts';

const BATCH = 200;
/** Throttle rows older than this have no window left that could refuse anything. */
const STALE_MS = 24 * 3600 * 1000;

export async function pruneSignInState(db: Queryable, now: Date): Promise<void> {
  await db.query(
    `WITH s AS (DELETE FROM sessions WHERE token_hash IN (SELECT token_hash FROM sessions WHERE expires_at <= $1 LIMIT $3))
     DELETE FROM sign_in_failures WHERE subject IN (SELECT subject FROM sign_in_failures WHERE window_start < $2 LIMIT $3)`,
    [now, new Date(now.getTime() - STALE_MS), BATCH],
  );
}
