/**
 * Signing in: throttle, verify, then a new session. The answer for a wrong password and for an
 * unknown email is the same, takes as long, and counts the same against the throttle.
 */
import type { Queryable } from '../db/pool.ts';
import { verifyNothing, verifyPassword, PASSWORD_MAX } from './passwords.ts';
import { pruneSignInState } from './prune.ts';
import { createSession } from './sessions.ts';
import { addressSubject, countAttempt, DEFAULT_LIMITS, emailSubject, forgiveAttempt, type ThrottleLimits } from './throttle.ts';
import { findUserByEmail, type User } from './users.ts';

export type SignInOutcome =
  | { ok: true; user: User; token: string; csrfToken: string; expiresAt: Date }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'throttled'; retryAfterSeconds: number };

export interface SignInInput {
  email: string;
  password: string;
  /** The client's address, as the HTTP layer determined it. */
  address: string;
  /** The session token the browser presented, if any: it is ended, never adopted. */
  previousToken?: string;
}

export async function signIn(
  db: Queryable,
  input: SignInInput,
  now: Date,
  limits: ThrottleLimits = DEFAULT_LIMITS,
): Promise<SignInOutcome> {
  const wait = await countAttempt(
    db,
    [
      { subject: emailSubject(input.email), limit: limits.perEmail },
      { subject: addressSubject(input.address), limit: limits.perAddress },
    ],
    now,
    limits.windowMs,
  );
  if (wait > 0) return { ok: false, reason: 'throttled', retryAfterSeconds: wait };
  const user = await findUserByEmail(db, input.email);
  // An over-long password cannot match (sign-up refuses them) and is not worth hashing.
  const tooLong = [...input.password].length > PASSWORD_MAX;
  const matches =
    user && !tooLong ? await verifyPassword(user.passwordHash, input.password) : await verifyNothing(tooLong ? '' : input.password);
  if (!user || !matches) return { ok: false, reason: 'invalid' };
  await forgiveAttempt(db, input.email, input.address);
  await pruneSignInState(db, now);
  const { token, session } = await createSession(db, user.id, now, input.previousToken);
  const { passwordHash: _omit, ...publicUser } = user;
  return { ok: true, user: publicUser, token, csrfToken: session.csrfToken, expiresAt: session.expiresAt };
}
