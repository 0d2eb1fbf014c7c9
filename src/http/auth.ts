/**
 * Authentication runs in onRequest, before the body is read or anything is validated, so an
 * unauthenticated caller learns nothing about its body, the ids it sent or the account.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Authenticator, Principal } from '../accounts/authenticator.ts';
import { Problem } from '../problem.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    /** Routes under /public/v1 require a key; the OpenAPI document and health checks do not. */
    auth?: boolean;
  }
}

const CHALLENGE = { 'WWW-Authenticate': 'Bearer' };
const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i;

/** The key a request presents, or a 401 saying why there is none usable. */
export function presentedKey(headers: FastifyRequest['headers']): string {
  const authorization = headers.authorization;
  const xApiKey = headers['x-api-key'];
  let fromBearer: string | undefined;
  if (authorization !== undefined) {
    const m = BEARER.exec(authorization);
    if (!m) throw new Problem(401, 'invalid_api_key', 'The Authorization header must be "Bearer <API key>".', {}, CHALLENGE);
    fromBearer = m[1];
  }
  if (Array.isArray(xApiKey)) throw new Problem(401, 'ambiguous_credentials', 'Send one x-api-key header, not several.', {}, CHALLENGE);
  const fromHeader = xApiKey?.trim();
  if (fromBearer !== undefined && fromHeader !== undefined && fromBearer !== fromHeader) {
    throw new Problem(401, 'ambiguous_credentials', 'The Authorization and x-api-key headers carry different keys; send one key.', {}, CHALLENGE);
  }
  const key = fromBearer ?? fromHeader;
  if (!key) {
    throw new Problem(401, 'missing_api_key', 'Send your API key in the "Authorization: Bearer <API key>" header or the "x-api-key: <API key>" header.', {}, CHALLENGE);
  }
  return key;
}

/**
 * The first hook of every request: the request id header, then authentication for routes that
 * need it. Callback style, and synchronous on a cache hit, because it runs on every request.
 */
export function requestHook(authenticator: Authenticator) {
  return function onRequest(request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void {
    reply.header('x-request-id', request.id);
    if (request.routeOptions.config.auth !== true) return done();
    let key: string;
    try {
      key = presentedKey(request.headers);
    } catch (error) {
      return done(error as Error);
    }
    const principal = authenticator.cached(key);
    if (principal) {
      request.principal = principal;
      return done();
    }
    authenticator.authenticate(key).then((p) => {
      request.principal = p;
      done();
    }, done);
  };
}

/** The authenticated principal of a route that requires one. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Problem(401, 'missing_api_key', 'Authentication required.', {}, CHALLENGE);
  return request.principal;
}
