/**
 * Requests that never reach Fastify: node's HTTP parser refuses them (a bad or lower-case method,
 * two Content-Length headers, headers over the limit), or a header/request timeout fires, or the
 * method is CONNECT (which node hands to a separate event). They are answered like every other
 * error, problem+json with an x-request-id, and the connection is closed. Nothing of the raw
 * bytes is logged: they hold whatever the client sent, API keys included.
 */
import http from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { newId } from '../core/ids.ts';
import { Problem } from '../core/problem.ts';
import { problemBody } from './problems.ts';

function problemFor(code: string | undefined): Problem {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new Problem('request_timeout', 'The request was not received in time.');
    case 'HPE_HEADER_OVERFLOW':
      return new Problem('headers_too_large', 'The request headers are larger than the server accepts.');
    default:
      return new Problem('bad_request', 'The request is not valid HTTP/1.1.');
  }
}

/** A complete HTTP/1.1 response as bytes, closing the connection. */
export function rawProblemResponse(problem: Problem, extraHeaders: Record<string, string> = {}): { requestId: string; bytes: string } {
  const requestId = newId('req');
  const body = JSON.stringify(problemBody(problem, requestId));
  const headers = {
    'Content-Type': 'application/problem+json',
    'Content-Length': String(Buffer.byteLength(body)),
    'x-request-id': requestId,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
    Connection: 'close',
    ...extraHeaders,
  };
  const head = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  return { requestId, bytes: `HTTP/1.1 ${problem.status} ${http.STATUS_CODES[problem.status]}\r\n${head}\r\n${body}` };
}

/** Only what identifies the failure; never err.rawPacket, the request's bytes. */
const describe = (err: NodeJS.ErrnoException & { reason?: string }) => ({ code: err.code, message: err.message, reason: err.reason });

function answer(
  socket: Duplex,
  problem: Problem,
  log: FastifyBaseLogger | undefined,
  err: NodeJS.ErrnoException | null,
  extraHeaders?: Record<string, string>,
): void {
  const { requestId, bytes } = rawProblemResponse(problem, extraHeaders);
  log?.debug({ requestId, clientError: err ? describe(err) : undefined, status: problem.status }, 'request refused before routing');
  socket.end(bytes, () => socket.destroy());
  // A client that keeps sending must not hold the socket open after the answer.
  setTimeout(() => socket.destroy(), 1_000).unref();
}

/** What a socket had read when its last response ended (./server.ts marks it in onResponse). */
const READ_AT_LAST_RESPONSE = Symbol('readAtLastResponse');
type MarkedSocket = Duplex & { bytesRead?: number; [READ_AT_LAST_RESPONSE]?: number };

/** Called when a response ends: from here until the next byte arrives the connection is idle. */
export function markResponseEnd(socket: Duplex | null | undefined): void {
  if (socket) (socket as MarkedSocket)[READ_AT_LAST_RESPONSE] = (socket as MarkedSocket).bytesRead ?? 0;
}

/**
 * Whether the client has sent anything since the connection opened or its last response ended.
 * node's header timeout also fires on a connection that carries no request at all (it counts from
 * the connection's start, and a pool may open one it uses only later): a 408 written there sits in
 * the client's buffer and is read as the answer to whatever it sends next on that socket, so such
 * a connection is closed without a word, as an idle keep-alive one is.
 */
function requestBegun(socket: Duplex): boolean {
  const s = socket as MarkedSocket;
  return (s.bytesRead ?? 1) > (s[READ_AT_LAST_RESPONSE] ?? 0);
}

/** For Fastify's clientErrorHandler option (bound to the instance; the log comes from it). */
export function clientErrorHandler(this: { log?: FastifyBaseLogger }, err: NodeJS.ErrnoException, socket: Duplex): void {
  // Reset by the peer: there is no one left to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT' && !requestBegun(socket)) {
    socket.destroy();
    return;
  }
  // A response already on its way cannot be replaced by another one on the same socket.
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (!socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  answer(socket, problemFor(err.code), this.log, err);
}

/** CONNECT asks the server to be a proxy, which it is not. */
export function connectHandler(log?: FastifyBaseLogger) {
  return (_req: http.IncomingMessage, socket: Duplex): void => {
    answer(socket, new Problem('method_not_allowed', 'CONNECT is not supported: this server is not a proxy.'), log, null, {
      Allow: 'GET, POST, HEAD',
    });
  };
}
