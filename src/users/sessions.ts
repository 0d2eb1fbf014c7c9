/**
 * Sessions: a random 256-bit token in the browser's cookie, only its SHA-256 digest in the
 * database (as with API keys). Each session carries its own CSRF synchronizer token. A session
 * is only ever created by a successful sign-in or sign-up, never from a token the browser brings,
 * so a planted cookie can never become a signed-in session (session fixation).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../db/pool.ts';
import { toUser, type User } from './users.ts';

export const SESSION_TTL_MS = 14 * 24 * 3600 * 1000;

export interface Session {
  user: User;
  csrfToken: string;
  expiresAt: Date;
}

const digest = (token: string): Buffer => createHash('sha256').update(token).digest();
const randomToken = (): string => randomBytes(32).toString('base64url');
/** A token we issued is 43 base64url characters; anything else is not looked up. */
const looksLikeToken = (token: string): boolean => /^[A-Za-z0-9_-]{43}$/.test(token);

/**
 * Start a session for the user. `replaces` is the token the browser presented, if any: that
 * session ends here, so signing in always leaves exactly one fresh session behind it.
 */
export async function createSession(
  db: Queryable,
  userId: string,
  now: Date,
  replaces?: string,
): Promise<{ token: string; session: Omit<Session, 'user'> }> {
  const token = randomToken();
  const csrfToken = randomToken();
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  // One statement: end the replaced session and this user's expired ones, then insert.
  await db.query(
    `WITH gone AS (DELETE FROM sessions WHERE token_hash = $4 OR (user_id = $2 AND expires_at <= $5))
     INSERT INTO sessions (token_hash, user_id, csrf_token, expires_at) VALUES ($1, $2, $3, $6)`,
    [digest(token), userId, csrfToken, replaces && looksLikeToken(replaces) ? digest(replaces) : Buffer.alloc(0), now, expiresAt],
  );
  return { token, session: { csrfToken, expiresAt } };
}

/** The live session for a presented token, or null (unknown, malformed or expired). */
export async function findSession(db: Queryable, token: string, now: Date): Promise<Session | null> {
  if (!looksLikeToken(token)) return null;
  const { rows } = await db.query<{
    id: string;
    account_id: string;
    email: string;
    created_at: Date;
    csrf_token: string;
    expires_at: Date;
  }>(
    `SELECT u.id, u.account_id, u.email, u.created_at, s.csrf_token, s.expires_at
     FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = $1 AND s.expires_at > $2`,
    [digest(token), now],
  );
  const r = rows[0];
  return r ? { user: toUser(r), csrfToken: r.csrf_token, expiresAt: r.expires_at } : null;
}

export async function deleteSession(db: Queryable, token: string): Promise<void> {
  if (!looksLikeToken(token)) return;
  await db.query('DELETE FROM sessions WHERE token_hash = $1', [digest(token)]);
}
