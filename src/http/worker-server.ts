/**
 * What a worker process (`shotgen serve --role worker`) serves on PORT: /healthz, /readyz and
 * /metrics, nothing else. Its /metrics is where the render, plan, webhook and worker figures of
 * that process are, so a split deployment is scraped per process and its figures add up.
 */
import http from 'node:http';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { HttpLimits } from './limits.ts';
import type { Db } from '../db/pool.ts';
import { newId } from '../core/ids.ts';
import { databaseMetrics } from '../metrics/database.ts';
import { observeRequest } from '../metrics/index.ts';
import { Problem } from '../core/problem.ts';
import { healthRoutes } from './health-routes.ts';
import { metricsRoute } from './metrics-route.ts';
import { errorHandler, sendProblem } from './problems.ts';
import { rootRequestHook } from './root-hook.ts';
import { clientErrorHandler, markResponseEnd } from './client-errors.ts';

export interface WorkerServerOptions {
  db: Db;
  logger?: FastifyBaseLogger;
  limits: HttpLimits;
  metricsToken: string | null;
}

export async function buildWorkerServer(opts: WorkerServerOptions): Promise<FastifyInstance> {
  let draining = false;
  const app = Fastify({
    ...(opts.logger ? { loggerInstance: opts.logger } : { logger: false }),
    // The same bounds on slow and idle clients as the API's server, on a much smaller surface.
    serverFactory: (handler: http.RequestListener) => {
      const server = http.createServer(
        { headersTimeout: opts.limits.headersTimeoutMs, requestTimeout: opts.limits.requestTimeoutMs },
        handler,
      );
      server.setTimeout(opts.limits.idleTimeoutMs);
      server.maxConnections = opts.limits.maxConnections;
      return server;
    },
    // Answered as the API's server answers them (and no stray 408 to a scraper's idle connection).
    clientErrorHandler,
    genReqId: () => newId('req'),
    requestIdHeader: false,
    return503OnClosing: false,
    // Only GETs without bodies are served: anything else is refused before it is read.
    bodyLimit: 1024,
  });
  app.addHook('preClose', async () => {
    draining = true;
  });
  app.addHook(
    'onRequest',
    rootRequestHook(() => draining),
  );
  app.addHook('onResponse', (request, reply, done) => {
    observeRequest(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime);
    markResponseEnd(request.raw.socket);
    done();
  });
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler((request, reply) =>
    sendProblem(
      reply,
      new Problem('not_found', `No route ${request.method} ${request.url.split('?')[0]}: a worker serves /healthz, /readyz and /metrics.`),
    ),
  );
  healthRoutes(app, opts.db);
  metricsRoute(app, databaseMetrics(opts.db), opts.metricsToken);
  await app.ready();
  return app;
}
