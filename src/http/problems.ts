/** The one place errors become responses: RFC 9457 problem details with our `code` and `requestId`. */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isConnectionLost } from '../db/pool.ts';
import { ObjectStoreUnavailable } from '../objects/store.ts';
import type { IncomingMessage } from 'node:http';
import { Problem, problemType, validationFailed, type FieldError } from '../core/problem.ts';

/**
 * While the database restarts or is unreachable, answer 503 with a short Retry-After, never 500:
 * nothing is wrong with the request, and the embedded server is back within seconds.
 */
export const DATABASE_RETRY_AFTER_S = 2;
export const databaseUnavailable = (): Problem =>
  new Problem(
    'service_unavailable',
    'The database is not reachable right now. Retry in a moment.',
    {},
    { 'Retry-After': String(DATABASE_RETRY_AFTER_S) },
  );

export function problemBody(problem: Problem, requestId: string): Record<string, unknown> {
  return {
    type: problemType(problem.code),
    title: problem.title,
    status: problem.status,
    detail: problem.detail,
    code: problem.code,
    requestId,
    ...problem.extensions,
  };
}

/** A body the client is still sending (announced, not yet all received). */
function bodyPending(req: IncomingMessage): boolean {
  if (req.complete) return false;
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * A refusal answered before the body arrived (a 401, 413, 415, 409...) still lets the client finish
 * sending it, up to DRAIN_MAX_BYTES: closing on a client that is still writing resets the connection,
 * and Node's fetch (undici) then throws EPIPE instead of handing over the answer it was sent.
 * Bigger or chunked bodies are not read: the answer says Connection: close and the socket closes.
 */
export const DRAIN_MAX_BYTES = 16 * 1024 * 1024;
/** The drain's deadline: what a 1 MiB/s uplink needs for the rest, and at least half a second. */
const DRAIN_FLOOR_MS = 500;
const DRAIN_BYTES_PER_MS = (1024 * 1024) / 1000;

function drainOrClose(reply: FastifyReply): void {
  const req = reply.request.raw;
  if (!bodyPending(req)) return;
  const declared = req.headers['transfer-encoding'] === undefined ? Number(req.headers['content-length']) : NaN;
  if (!(declared <= DRAIN_MAX_BYTES)) {
    reply.header('connection', 'close');
    return;
  }
  // Read and discarded (nothing listens for it any more), never past its Content-Length, and the
  // connection kept alive (Fastify asks to close it after a body parser's error). A client that
  // trickles it is cut off at the deadline: by then this request is either complete (and the socket
  // may be serving the next one) or it is closed.
  reply.removeHeader('connection');
  req.resume();
  const deadline = setTimeout(
    () => {
      if (!req.complete) req.destroy();
    },
    DRAIN_FLOOR_MS + declared / DRAIN_BYTES_PER_MS,
  );
  deadline.unref();
  req.once('end', () => clearTimeout(deadline));
}

export function sendProblem(reply: FastifyReply, problem: Problem): FastifyReply {
  drainOrClose(reply);
  reply.code(problem.status).headers(problem.headers).header('x-request-id', reply.request.id).type('application/problem+json');
  return reply.send(JSON.stringify(problemBody(problem, reply.request.id)));
}

interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/** Name each problem by the field it concerns, the way a client would write it. */
export function fieldErrors(errors: AjvError[], context: string | undefined): FieldError[] {
  return errors.map((e) => {
    let field = e.instancePath.replace(/^\//, '').replaceAll('/', '.');
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'required') {
      field = [field, String(e.params.missingProperty)].filter(Boolean).join('.');
      message = 'is required';
    } else if (e.keyword === 'additionalProperties') {
      field = [field, String(e.params.additionalProperty)].filter(Boolean).join('.');
      message = 'is not a known field';
    } else if (e.keyword === 'enum') {
      message = `must be one of ${(e.params.allowedValues as unknown[]).join(', ')}`;
    }
    return { field: field || (context ?? 'body'), message };
  });
}

/** What a route says about the bodies it takes, for the 413 and 415 answers. */
interface BodyRules {
  bodyLimit?: number;
  /** e.g. 'a PNG or JPEG image with Content-Type: image/png or image/jpeg'; JSON by default. */
  accepts?: string;
}

const sizeText = (bytes: number) => (bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${Math.round(bytes / 1024)} KiB`);

function toProblem(error: FastifyError & { validation?: AjvError[]; validationContext?: string }, rules: BodyRules = {}): Problem | null {
  if (error instanceof Problem) return error;
  if (error.validation) return validationFailed(fieldErrors(error.validation, error.validationContext));
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new Problem('invalid_json', 'The request body is not valid JSON.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new Problem('payload_too_large', `The request body is larger than ${sizeText(rules.bodyLimit ?? 64 * 1024)}.`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new Problem(
        'unsupported_media_type',
        `Send the request body as ${rules.accepts ?? 'JSON with Content-Type: application/json'}.`,
      );
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new Problem('invalid_json', 'The Content-Length header does not match the body.');
  }
  if (isConnectionLost(error)) return databaseUnavailable();
  if (error instanceof ObjectStoreUnavailable)
    return new Problem(
      'service_unavailable',
      'The picture storage is not reachable right now. Retry in a moment.',
      {},
      { 'Retry-After': '5' },
    );
  if (error instanceof SyntaxError && error.statusCode === 400) return new Problem('invalid_json', 'The request body is not valid JSON.');
  return null;
}

export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const problem = toProblem(error, { bodyLimit: request.routeOptions?.bodyLimit, accepts: request.routeOptions?.config?.accepts });
  if (problem) {
    // An outage is logged once by whoever notices it (the supervisor, the LISTEN connection), not per request.
    if (problem.status >= 500 && problem.code !== 'service_unavailable')
      request.log.error({ err: error, requestId: request.id }, 'request failed');
    else if (problem.status >= 500)
      request.log.debug({ requestId: request.id, reason: error.message }, 'request refused: service unavailable');
    return sendProblem(reply, problem);
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    request.log.info({ err: error, requestId: request.id }, 'client error without a problem code');
    return sendProblem(reply, new Problem('validation_failed', 'The request could not be processed.'));
  }
  request.log.error({ err: error, requestId: request.id }, 'unexpected error');
  return sendProblem(reply, new Problem('internal_error', `Something went wrong on our side. Quote ${request.id} if you contact support.`));
}
