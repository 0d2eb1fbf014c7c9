/**
 * buildServer(services): the whole HTTP surface. Routes are mounted under BASE_PATH; every error,
 * Fastify's own included, leaves as problem+json; every response carries x-request-id.
 */
import swagger from '@fastify/swagger';
import http from 'node:http';
import type { Logger } from 'pino';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RawServerDefault } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Authenticator } from '../accounts/authenticator.ts';
import type { AccountViews } from '../accounts/account-views.ts';
import type { Clock } from '../accounts/credits.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/pool.ts';
import { newId } from '../ids.ts';
import { Problem } from '../problem.ts';
import { ProblemSchema } from '../api/schemas.ts';
import { registerOperations } from '../api/index.ts';
import { requestHook } from './auth.ts';
import { fastPath } from './fast-path.ts';
import { openapiOptions } from './openapi.ts';
import { errorHandler, sendProblem } from './problems.ts';
import type { StoreReaders } from '../stores/index.ts';
import type { JobReader } from '../jobs/job-reader.ts';
import type { NotifyBatcher } from '../db/notify-batcher.ts';

export interface Services {
  config: Pick<Config, 'basePath'>;
  db: Db;
  authenticator: Authenticator;
  accountViews: AccountViews;
  stores: StoreReaders;
  jobs: JobReader;
  /** After-commit notifications of creates, batched. */
  notifier: NotifyBatcher;
  clock: Clock;
}

export type Api = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

export const BODY_LIMIT = 64 * 1024;
/** Fastify's default; longer than the usual 60 s idle timeout of load balancers in front. */
export const KEEP_ALIVE_TIMEOUT_MS = 72_000;

export interface BuildOptions {
  /** The process's logger; none (silent) when omitted. */
  logger?: FastifyBaseLogger;
}

export async function buildServer(services: Services, opts: BuildOptions = {}): Promise<Api> {
  // Set by preClose: from then on requests get Connection: close, or a 503 if they are new.
  let draining = false;
  const logger = opts.logger as Logger | undefined;
  const logsRequests = logger?.isLevelEnabled?.('info') === true;
  const answerFromMemory = fastPath({
    basePath: services.config.basePath,
    authenticator: services.authenticator,
    accountViews: services.accountViews,
    jobs: services.jobs,
    draining: () => draining,
    log: logger,
  });
  const app = Fastify({
    ...(opts.logger ? { loggerInstance: opts.logger } : { logger: false }),
    serverFactory: (handler: http.RequestListener) => {
      const server = http.createServer((req, res) => answerFromMemory(req, res) || handler(req, res));
      // Fastify applies its own timeouts only to servers it creates: apply its defaults here.
      server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
      server.requestTimeout = 0;
      server.setTimeout(0);
      return server;
    },
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    bodyLimit: BODY_LIMIT,
    genReqId: () => newId('req'),
    // A per-request child logger costs on every request; below info level nothing would use its
    // bindings (errors name the request id themselves), so share the parent logger then.
    ...(opts.logger && !logsRequests ? { childLoggerFactory: (logger: FastifyBaseLogger) => logger } : {}),
    requestIdHeader: false,
    // Our own hook answers requests that arrive while closing, as problem+json.
    return503OnClosing: false,
    ajv: { customOptions: { allErrors: true, removeAdditional: false, coerceTypes: false, useDefaults: true } },
    frameworkErrors: (error, request, reply) => {
      sendProblem(reply, new Problem(400, 'validation_failed', error.message));
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorateRequest('principal', null);
  // JSON is the only body we take: anything else, text/plain included, is a 415.
  app.removeContentTypeParser('text/plain');
  app.addSchema(ProblemSchema);
  await app.register(swagger, openapiOptions(services.config.basePath));

  // While closing, answer in-flight requests with Connection: close so that keep-alive sockets
  // end with their last response instead of holding close() open until they time out.
  app.addHook('preClose', async () => {
    draining = true;
  });
  app.addHook('onRequest', requestHook(services.authenticator, () => draining));
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (draining) reply.header('connection', 'close');
    done(null, payload);
  });
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler((request, reply) => sendProblem(reply, new Problem(404, 'not_found', `No route ${request.method} ${request.url.split('?')[0]}.`)));

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await services.db.query('SELECT 1');
      return { status: 'ok' };
    } catch {
      return sendProblem(reply, new Problem(503, 'service_unavailable', 'The database is not reachable.'));
    }
  });

  await app.register(
    async (scoped) => {
      const api = scoped as unknown as Api;
      api.get('/public/openapi.json', { schema: { hide: true } }, async () => app.swagger());
      await registerOperations(api, services);
    },
    { prefix: services.config.basePath },
  );
  return app;
}
