/**
 * The polling fast path. Clients poll GET /jobs/{id} and GET /account far more often than they do
 * anything else, and most polls are answered from memory: a known key, a finished job or a cached
 * account view. For exactly those, this answers straight from node:http, before Fastify's routing,
 * hooks and reply machinery, which cost more than the answer itself.
 *
 * It only ever answers what Fastify would answer with the same status, body and headers (a test
 * holds the two side by side). Anything else, whatever is unusual (a query string, two key
 * headers, HEAD, a cache miss, a revoked key, the server draining), falls through to Fastify,
 * which stays the one place for every other behaviour and every error.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AccountViews } from '../accounts/account-views.ts';
import type { Authenticator } from '../accounts/authenticator.ts';
import { accountJson } from '../api/get-account.ts';
import { isId, newId } from '../ids.ts';
import type { JobReader } from '../jobs/job-reader.ts';

export interface FastPathDeps {
  basePath: string;
  authenticator: Authenticator;
  accountViews: AccountViews;
  jobs: JobReader;
  draining: () => boolean;
}

const BEARER_PREFIX = /^bearer[ \t]+/i;

/** The key, when exactly one simple credential is presented; otherwise Fastify decides. */
function simpleKey(req: IncomingMessage): string | null {
  const authorization = req.headers.authorization;
  const xApiKey = req.headers['x-api-key'];
  if (authorization !== undefined && xApiKey !== undefined) return null;
  if (typeof xApiKey === 'string') return xApiKey.trim() || null;
  if (authorization === undefined || !BEARER_PREFIX.test(authorization)) return null;
  return authorization.replace(BEARER_PREFIX, '').trim() || null;
}

export function fastPath(deps: FastPathDeps) {
  const accountPath = `${deps.basePath}/public/v1/account`;
  const jobsPrefix = `${deps.basePath}/public/v1/jobs/`;

  /** True when it answered the request. */
  return function answer(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'GET' || deps.draining()) return false;
    const url = req.url ?? '';
    const isAccount = url === accountPath;
    const jobId = url.startsWith(jobsPrefix) ? url.slice(jobsPrefix.length) : null;
    if (!isAccount && (jobId === null || !isId('job', jobId))) return false;
    const key = simpleKey(req);
    const principal = key === null ? null : deps.authenticator.cached(key);
    if (!principal) return false;
    let body: string | Buffer | undefined;
    if (isAccount) {
      const view = deps.accountViews.peek(principal.accountId);
      body = view && accountJson(view);
    } else {
      body = deps.jobs.peekFinished(principal.accountId, jobId!);
    }
    if (body === undefined) return false;
    res.writeHead(200, {
      'x-request-id': newId('req'),
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
    return true;
  };
}
