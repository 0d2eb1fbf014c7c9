/**
 * The public API as one encapsulated Fastify plugin, mounted under BASE_PATH: key auth, JSON
 * bodies only, and problem+json for every error and unknown route. None of it leaks to the
 * dashboard or the health checks, and nothing they add (forms, sessions, HTML errors) leaks here.
 */
import type { FastifyPluginAsync } from 'fastify';
import { apiRequestHook } from '../http/api-hook.ts';
import { errorHandler, sendProblem } from '../http/problems.ts';
import type { Api, Services } from '../http/services.ts';
import { Problem } from '../core/problem.ts';
import { registerOperations } from './index.ts';

export interface ApiPluginOptions {
  services: Services;
  /** The served OpenAPI document (built by the root, which sees every route). */
  openapi: () => unknown;
}

export const apiPlugin: FastifyPluginAsync<ApiPluginOptions> = async (scoped, { services, openapi }) => {
  const api = scoped as unknown as Api;
  // JSON is the only body the API takes: anything else, text/plain included, is a 415.
  api.removeContentTypeParser('text/plain');
  api.addHook('onRequest', apiRequestHook(services.authenticator, services.rateLimits ?? null));
  api.setErrorHandler(errorHandler);
  api.setNotFoundHandler((request, reply) =>
    sendProblem(reply, new Problem('not_found', `No route ${request.method} ${request.url.split('?')[0]}.`)),
  );
  api.get('/public/openapi.json', { schema: { hide: true } }, async () => openapi());
  await registerOperations(api, services);
};
