/**
 * buildServer(services): the HTTP server and what every request shares (request ids, security
 * headers, draining, health checks, the OpenAPI document). The parts are encapsulated plugins: the
 * API under BASE_PATH (src/api/plugin.ts) and, when given, the owner's dashboard at `/`.
 */
import swagger from '@fastify/swagger';
import http from 'node:http';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { newId } from '../core/ids.ts';
import { Problem } from '../core/problem.ts';
import { ProblemSchema } from '../api/schemas.ts';
import { apiPlugin } from '../api/plugin.ts';
import { DEFAULT_HTTP_LIMITS, type HttpLimits } from './limits.ts';
import { clientErrorHandler, connectHandler, markResponseEnd } from './client-errors.ts';
import { capConnections, type ConnectionCap } from './connection-cap.ts';
import { openapiOptions } from './openapi.ts';
import { errorHandler, sendProblem } from './problems.ts';
import { databaseMetrics } from '../metrics/database.ts';
import { observeRequest } from '../metrics/index.ts';
import { metricsRoute } from './metrics-route.ts';
import { healthRoutes } from './health-routes.ts';
import { rootRequestHook } from './root-hook.ts';
import { wellFormedTextPlugin } from './text-fields.ts';
import { compilersFactory } from './compilers.ts';
import type { Api, DashboardPlugin, Services } from './services.ts';

export const BODY_LIMIT = 64 * 1024;
/** Fastify's default; longer than the usual 60 s idle timeout of load balancers in front. */
export const KEEP_ALIVE_TIMEOUT_MS = 72_000;

export interface BuildOptions {
  /** The process's logger; none (silent) when omitted. */
  logger?: FastifyBaseLogger;
  /** The owner's dashboard, mounted at `/` (needs a non-empty BASE_PATH). */
  dashboard?: DashboardPlugin;
  /** Timeouts and the connection cap; DEFAULT_HTTP_LIMITS when omitted. */
  limits?: HttpLimits;
  /** TRUST_PROXY: whether X-Forwarded-For names the client (request.ip, the failed-auth limit). */
  trustProxy?: boolean | number | string[];
  /** /metrics requires `Authorization: Bearer <token>` when set. */
  metricsToken?: string | null;
}

/** How often node looks for connections past their header or request timeout. */
const TIMEOUT_CHECK_INTERVAL_MS = 500;

export async function buildServer(services: Services, opts: BuildOptions = {}): Promise<Api> {
  const basePath = services.config.basePath;
  const limits = opts.limits ?? DEFAULT_HTTP_LIMITS;
  if (opts.dashboard && basePath === '') throw new Error('The dashboard is mounted at "/": set BASE_PATH to mount the API elsewhere.');
  // Set by preClose: from then on requests get Connection: close, or a 503 if they are new.
  let draining = false;
  let connections: ConnectionCap | null = null;
  const logsRequests = (opts.logger as { isLevelEnabled?: (l: string) => boolean } | undefined)?.isLevelEnabled?.('info') === true;
  const app = Fastify({
    ...(opts.logger ? { loggerInstance: opts.logger } : { logger: false }),
    serverFactory: (handler: http.RequestListener) => {
      // A slow or idle client holds a socket and a descriptor: every way of holding one is
      // bounded in time, and the number of sockets is capped (Fastify applies none of this to
      // a server it did not create).
      const server = http.createServer(
        {
          headersTimeout: limits.headersTimeoutMs,
          requestTimeout: limits.requestTimeoutMs,
          connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
        },
        handler,
      );
      server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
      server.setTimeout(limits.idleTimeoutMs);
      connections = capConnections(server, limits.maxConnections);
      server.on('connect', connectHandler(opts.logger));
      return server;
    },
    clientErrorHandler,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    // A hop count is valid (proxy-addr); Fastify's types only omit it.
    trustProxy: (opts.trustProxy ?? false) as boolean | string[],
    bodyLimit: BODY_LIMIT,
    genReqId: () => newId('req'),
    // A per-request child logger costs on every request; below info level nothing would use its
    // bindings (errors name the request id themselves), so share the parent logger then.
    ...(opts.logger && !logsRequests ? { childLoggerFactory: (logger: FastifyBaseLogger) => logger } : {}),
    requestIdHeader: false,
    // Our own hook answers requests that arrive while closing, as problem+json.
    return503OnClosing: false,
    ajv: {
      customOptions: { allErrors: true, removeAdditional: false, coerceTypes: false, useDefaults: true },
      // No NUL or lone surrogate in any text of any request (./text-fields.ts).
      plugins: [wellFormedTextPlugin],
    },
    schemaController: { compilersFactory },
    frameworkErrors: (error, _request, reply) => {
      sendProblem(reply, new Problem('validation_failed', error.message));
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorateRequest('principal', null);
  app.addSchema(ProblemSchema);
  // At the root so that it sees every route; it documents only those under BASE_PATH.
  await app.register(swagger, openapiOptions(basePath));

  // While closing, answer in-flight requests with Connection: close so that keep-alive sockets
  // end with their last response instead of holding close() open until they time out; requests
  // that arrive later get a 503 that says the same (rootRequestHook).
  app.addHook('preClose', async () => {
    draining = true;
    connections?.closeAfterResponses();
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
  // The root's own routes (health checks) and anything outside the parts answer problem+json.
  app.setErrorHandler(errorHandler);
  // With BASE_PATH empty the API's own 404 handler is the root's.
  if (!opts.dashboard && basePath !== '') {
    app.setNotFoundHandler((request, reply) =>
      sendProblem(reply, new Problem('not_found', `No route ${request.method} ${request.url.split('?')[0]}.`)),
    );
  }

  healthRoutes(app, services.db);

  metricsRoute(app, databaseMetrics(services.db), opts.metricsToken ?? null);

  await app.register(apiPlugin, { prefix: basePath, services, openapi: () => app.swagger() });
  if (opts.dashboard) await app.register(opts.dashboard, { services });
  return app;
}
