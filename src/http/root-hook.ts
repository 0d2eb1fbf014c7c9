/**
 * The first hook of every request, API, dashboard and health checks alike: the request id and the
 * headers every response carries, then a 503 once the server is draining.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Problem } from '../core/problem.ts';

export function rootRequestHook(draining: () => boolean) {
  return function onRequest(request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void {
    // Set here rather than in onSend so that errors thrown by any later hook carry them too.
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
    if (draining())
      return done(
        new Problem('service_unavailable', 'The server is restarting. Retry in a moment.', {}, { 'Retry-After': '1', Connection: 'close' }),
      );
    done();
  };
}
