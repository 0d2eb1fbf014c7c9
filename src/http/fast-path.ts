/**
 * The polling fast path. Clients poll GET /jobs/{id} and GET /account far more often than they do
 * anything else, and most polls are answered from memory: a known key, a finished job or a cached
 * account view. For exactly those, this answers straight from node:http, before Fastify's routing,
 * hooks and reply machinery, which cost more than the answer itself.
 *
 * It only ever answers what Fastify would answer with the same status, body and headers (a test
 * holds the two side by side), and reads the key with the auth hook's own parser. Anything else, whatever is unusual (a query string, two key
 * headers, HEAD, a cache miss, a revoked key, the server draining), falls through to Fastify,
 * which stays the one place for every other behaviour and every error.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AccountViews } from '../accounts/account-views.ts';
import type { Authenticator } from '../accounts/authenticator.ts';
import { accountJson } from '../api/get-account.ts';
import { isId, newId } from '../ids.ts';
import type { JobReader } from '../jobs/job-reader.ts';
import type { Logger } from 'pino';
import { presentedKey } from './auth.ts';

export interface FastPathDeps {
  basePath: string;
  authenticator: Authenticator;
  accountViews: AccountViews;
  jobs: JobReader;
  draining: () => boolean;
  log?: Logger;
}

/** The key exactly as the auth hook reads it; null where the hook would refuse (Fastify answers). */
function keyOf(req: IncomingMessage): string | null {
  try {
    return presentedKey(req.headers);
  } catch {
    return null;
  }
}

export function fastPath(deps: FastPathDeps) {
  const accountPath = `${deps.basePath}/public/v1/account`;
  const jobsPrefix = `${deps.basePath}/public/v1/jobs/`;

  /** True when it answered the request; on any doubt, or any error, Fastify answers instead. */
  return function answer(req: IncomingMessage, res: ServerResponse): boolean {
    try {
      return tryAnswer(req, res);
    } catch (error) {
      deps.log?.error({ err: error }, 'fast path failed; Fastify answers');
      return false;
    }
  };

  function tryAnswer(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'GET' || deps.draining()) return false;
    const url = req.url ?? '';
    const isAccount = url === accountPath;
    const jobId = url.startsWith(jobsPrefix) ? url.slice(jobsPrefix.length) : null;
    if (!isAccount && (jobId === null || !isId('job', jobId))) return false;
    const key = keyOf(req);
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
    const requestId = newId('req');
    res.writeHead(200, {
      'x-request-id': requestId,
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
    // One line where Fastify writes two (incoming, completed): what a request log needs.
    if (deps.log?.isLevelEnabled('info')) deps.log.info({ reqId: requestId, req: { method: 'GET', url }, res: { statusCode: 200 } }, 'request completed');
    return true;
  }
}
