/**
 * Authentication runs in onRequest, before the body is read or anything is validated, so an
 * unauthenticated caller learns nothing about its body, the ids it sent or the account.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '../accounts/authenticator.ts';
import { unauthorized } from '../core/problem.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    /**
     * Routes under /public/v1 require a key; the OpenAPI document and health checks do not. A
     * picture takes a key or a signed URL: with `sig`/`expires` in the query the route checks the
     * signature itself.
     */
    auth?: boolean | 'key-or-signature';
    /** The body a route takes, in words, for its 415 answer (JSON by default). */
    accepts?: string;
  }
}

/** How often a header occurs in node's rawHeaders ([name, value, name, value, ...]). */
function countHeader(rawHeaders: string[], lowerName: string): number {
  let n = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i];
    if (name.length === lowerName.length && name.toLowerCase() === lowerName) n++;
  }
  return n;
}

const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i;

/** The key a request presents, or a 401 saying why there is none usable. */
export function presentedKey(headers: FastifyRequest['headers'], rawHeaders?: string[]): string {
  // node keeps only the first of several Authorization headers; which one a proxy or a client
  // meant is unknowable, so refuse them as two different keys are refused.
  if (headers.authorization !== undefined && rawHeaders && countHeader(rawHeaders, 'authorization') > 1) {
    throw unauthorized('ambiguous_credentials', 'Send one Authorization header, not several.');
  }
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
  if (!key)
    throw unauthorized(
      'missing_api_key',
      'Send your API key in the "Authorization: Bearer <API key>" header or the "x-api-key: <API key>" header.',
    );
  return key;
}

/**
 * Constant-time comparison of two secrets. Lengths are compared in bytes: a string of the same
 * length in characters can differ in bytes, and timingSafeEqual throws on unequal buffers.
 */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The authenticated principal of a route that requires one. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthorized('missing_api_key', 'Authentication required.');
  return request.principal;
}
