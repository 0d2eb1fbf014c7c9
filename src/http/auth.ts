/**
 * Authentication runs in onRequest, before the body is read or anything is validated, so an
 * unauthenticated caller learns nothing about its body, the ids it sent or the account.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Authenticator, Principal } from '../accounts/authenticator.ts';
import { Problem, unauthorized } from '../problem.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    /** Routes under /public/v1 require a key; the OpenAPI document and health checks do not. */
    auth?: boolean;
  }
}

const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i;

/** The key a request presents, or a 401 saying why there is none usable. */
export function presentedKey(headers: FastifyRequest['headers']): string {
  const authorization = headers.authorization?.trim() || undefined;
  const xApiKey = headers['x-api-key'];
  if (Array.isArray(xApiKey)) throw unauthorized('ambiguous_credentials', 'Send one x-api-key header, not several.');
  // An empty header is no header.
  const fromHeader = xApiKey?.trim() || undefined;
  let fromBearer: string | undefined;
  if (authorization !== undefined) {
    const m = BEARER.exec(authorization);
    // Another scheme (e.g. Basic from a proxy) is not ours to judge when x-api-key carries the key.
    if (!m && fromHeader === undefined) throw unauthorized('invalid_api_key', 'The Authorization header must be "Bearer <API key>".');
    fromBearer = m?.[1];
  }
  if (fromBearer !== undefined && fromHeader !== undefined && fromBearer !== fromHeader) {
    throw unauthorized('ambiguous_credentials', 'The Authorization and x-api-key headers carry different keys; send one key.');
  }
  const key = fromBearer ?? fromHeader;
  if (!key) throw unauthorized('missing_api_key', 'Send your API key in the "Authorization: Bearer <API key>" header or the "x-api-key: <API key>" header.');
  return key;
}

/**
 * The first hook of every request: the request id header, a 503 once the server is draining,
 * then authentication for routes that need it. Callback style, and synchronous on a cache hit, because it runs on every request.
 */
export function requestHook(authenticator: Authenticator, draining: () => boolean) {
  return function onRequest(request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void {
    reply.header('x-request-id', request.id);
    if (draining()) return done(new Problem(503, 'service_unavailable', 'The server is restarting. Retry in a moment.', {}, { 'Retry-After': '1', Connection: 'close' }));
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
  if (!request.principal) throw unauthorized('missing_api_key', 'Authentication required.');
  return request.principal;
}
