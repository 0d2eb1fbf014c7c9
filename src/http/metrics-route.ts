/** GET /metrics: Prometheus text, outside BASE_PATH, behind METRICS_TOKEN when one is set. */
import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import { registry } from '../metrics/index.ts';
import { Problem } from '../core/problem.ts';
import { sameSecret } from './auth.ts';

export function metricsRoute(app: FastifyInstance, perServer: Registry, token: string | null): void {
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (token !== null) {
      const presented = /^bearer[ \t]+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
      if (!sameSecret(presented, token))
        throw new Problem(
          'invalid_api_key',
          'GET /metrics needs "Authorization: Bearer <METRICS_TOKEN>".',
          {},
          { 'WWW-Authenticate': 'Bearer' },
        );
    }
    // The database figures are read now; a database that is down must not hide the rest.
    const fromDb = await perServer.metrics().catch(() => '');
    reply.header('cache-control', 'no-store').type(registry.contentType);
    return `${await registry.metrics()}\n${fromDb}`;
  });
}
