/**
 * The dashboard's cookies and CSRF defence.
 *
 * - The session cookie holds the random token; HttpOnly, SameSite=Lax, Path=/, and Secure with
 *   the `__Host-` name prefix when PUBLIC_URL is https (then no subdomain can plant or read it).
 * - Forms of a signed-in user carry the session's own synchronizer token (stored with the session,
 *   replaced with it at every sign-in). The two forms shown before a session exists (sign in,
 *   sign up) carry a double-submit token: a random value in its own cookie, repeated in the form.
 * - Either way a request whose Sec-Fetch-Site says another site sent it is refused outright.
 */
import { randomBytes } from 'node:crypto';
import { sameSecret } from '../http/auth.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { findSession, type Session } from '../users/sessions.ts';
import type { Db } from '../db/pool.ts';

declare module 'fastify' {
  interface FastifyRequest {
    dashboardSession: Session | null;
  }
}

export interface CookieNames {
  session: string;
  csrf: string;
  secure: boolean;
}

export function cookieNames(publicUrl: string | null): CookieNames {
  const secure = publicUrl?.startsWith('https://') === true;
  return secure
    ? { session: '__Host-shotgen_session', csrf: '__Host-shotgen_csrf', secure }
    : { session: 'shotgen_session', csrf: 'shotgen_csrf', secure };
}

const baseCookie = (names: CookieNames) => ({ path: '/', httpOnly: true, sameSite: 'lax' as const, secure: names.secure });

export function setSessionCookie(reply: FastifyReply, names: CookieNames, token: string, expiresAt: Date): void {
  reply.setCookie(names.session, token, { ...baseCookie(names), expires: expiresAt });
}

export function clearSessionCookie(reply: FastifyReply, names: CookieNames): void {
  reply.clearCookie(names.session, baseCookie(names));
}

export async function loadSession(request: FastifyRequest, db: Db, names: CookieNames, now: Date): Promise<Session | null> {
  const token = request.cookies[names.session];
  return token ? findSession(db, token, now) : null;
}

/** The token a form must carry: the session's, or (signed out) the double-submit cookie's. */
export function csrfTokenFor(request: FastifyRequest, reply: FastifyReply, names: CookieNames): string {
  if (request.dashboardSession) return request.dashboardSession.csrfToken;
  let token = request.cookies[names.csrf];
  if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) {
    token = randomBytes(32).toString('base64url');
    reply.setCookie(names.csrf, token, baseCookie(names));
  }
  return token;
}

/** Whether a state-changing request carries the right token and did not come from another site. */
export function csrfOk(request: FastifyRequest, names: CookieNames, submitted: unknown): boolean {
  if (request.headers['sec-fetch-site'] === 'cross-site') return false;
  if (typeof submitted !== 'string' || submitted === '') return false;
  const expected = request.dashboardSession ? request.dashboardSession.csrfToken : request.cookies[names.csrf];
  return typeof expected === 'string' && expected !== '' && sameSecret(submitted, expected);
}
