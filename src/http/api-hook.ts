/**
 * The API's first hook, in its own context (the dashboard and the health checks never see it):
 * the API's headers, the key check, then the rate limits. Callback style, and synchronous on the
 * common path (a cached key, in-memory buckets), because it runs on every request.
 *
 * Only a request whose key is not a known good one pays for the address check: a client with a
 * valid key is never refused for what others behind the same address did.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Authenticator, Principal } from '../accounts/authenticator.ts';
import { isProblem } from '../core/problem.ts';
import { presentedKey } from './auth.ts';
import { rateLimited, rateLimitHeader, type RateLimits } from './rate-limit/index.ts';
import type { Decision } from './rate-limit/buckets.ts';

type Done = (err?: Error) => void;

const signed = (request: FastifyRequest): boolean => {
  const q = request.query as Record<string, unknown> | undefined;
  return q?.sig !== undefined || q?.expires !== undefined;
};

export function apiRequestHook(authenticator: Authenticator, limits: RateLimits | null) {
  const limitKey = (principal: Principal, reply: FastifyReply, done: Done): void => {
    if (!limits) return done();
    const apply = (d: Decision) => {
      reply.header('ratelimit', rateLimitHeader(limits.keyRule, d));
      if (d.allowed) return done();
      done(
        rateLimited(
          limits.keyRule,
          d,
          `This key may make ${limits.keyRule.perSecond} requests a second (bursts of ${limits.keyRule.capacity}). Retry after ${d.retryAfterS} s.`,
        ),
      );
    };
    const d = limits.forKey(principal.keyId);
    if (d instanceof Promise) d.then(apply, done);
    else apply(d);
  };

  /** A key not in the cache, or none usable: check the address, authenticate, count a failure. */
  const slowPath = async (request: FastifyRequest, reply: FastifyReply, key: string | null, keyError: unknown): Promise<Principal> => {
    if (limits) {
      const d = await limits.addressAllowed(request.ip);
      if (!d.allowed)
        throw rateLimited(limits.addressRule, d, `Too many failed authentications from this address. Retry after ${d.retryAfterS} s.`);
    }
    try {
      if (key === null) throw keyError;
      return await authenticator.authenticate(key);
    } catch (error) {
      if (limits && isProblem(error) && error.status === 401)
        reply.header('ratelimit', rateLimitHeader(limits.addressRule, await limits.authFailed(request.ip)));
      throw error;
    }
  };

  return function onRequest(request: FastifyRequest, reply: FastifyReply, done: Done): void {
    // Account and job answers are per key and change: no cache (a browser's, a proxy's) may keep
    // them. Routes with cacheable answers (pictures) set their own Cache-Control.
    reply.header('cache-control', 'no-store');
    if (limits) reply.header('ratelimit-policy', limits.policy);
    const auth = request.routeOptions.config.auth;
    if (auth !== true && !(auth === 'key-or-signature' && !signed(request))) return done();
    let key: string | null = null;
    let keyError: unknown = null;
    try {
      key = presentedKey(request.headers, request.raw.rawHeaders);
    } catch (error) {
      keyError = error;
    }
    const cached = key === null ? null : authenticator.cached(key);
    if (cached) {
      request.principal = cached;
      return limitKey(cached, reply, done);
    }
    slowPath(request, reply, key, keyError).then((principal) => {
      request.principal = principal;
      limitKey(principal, reply, done);
    }, done);
  };
}
