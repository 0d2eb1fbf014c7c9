/** GET /healthz (the process answers) and GET /readyz (and reaches its database): every role serves both. */
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../db/pool.ts';
import { Problem } from '../core/problem.ts';
import { sendProblem } from './problems.ts';

export function healthRoutes(app: FastifyInstance, db: Queryable): void {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await db.query('SELECT 1');
      return { status: 'ok' };
    } catch {
      return sendProblem(reply, new Problem('service_unavailable', 'The database is not reachable.', {}, { 'Retry-After': '1' }));
    }
  });
}
