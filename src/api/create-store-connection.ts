import { principalOf } from '../http/auth.ts';
import type { Api, Services } from '../http/services.ts';
import { Problem } from '../core/problem.ts';
import { createConnection } from '../publishing/connections.ts';
import { CreateStoreConnectionBody, StoreConnectionSchema } from '../publishing/schemas.ts';
import type { PublishingServices } from '../publishing/services.ts';
import { bodyProblems, commonProblems, problemExample, problemRef, success } from './schemas.ts';

export function publishingOf(services: Services): PublishingServices {
  if (!services.publishing)
    throw new Problem('service_unavailable', 'Publishing is not running in this process.', {}, { 'Retry-After': '60' });
  return services.publishing;
}

export function createStoreConnection(api: Api, services: Services) {
  api.post(
    '/public/v1/store-connections',
    {
      config: { auth: true },
      schema: {
        operationId: 'createStoreConnection',
        summary: 'Connect an App Store Connect API key or a Google Play service account',
        description:
          'The credentials are tried with one authenticated call to the store before they are kept (App Store: an ES256 token for a one-app list; Google: the JWT-bearer exchange at the key file’s token_uri). They are stored encrypted (AES-256-GCM under SECRETS_KEY) and never shown again.',
        tags: ['publishing'],
        body: CreateStoreConnectionBody,
        response: {
          201: success(StoreConnectionSchema, 'The connection, without its secret.'),
          ...bodyProblems,
          ...commonProblems,
          422: problemRef(
            'The store refused the credentials (`store_credentials_rejected`).',
            problemExample('store_credentials_rejected', 'App Store Connect refused these credentials: NOT_AUTHORIZED.'),
          ),
          502: problemRef('The store could not be reached to check them (`store_unavailable`).'),
          503: problemRef(
            'The server has no SECRETS_KEY to keep secrets with (`secrets_key_missing`), or publishing is not running (`service_unavailable`).',
          ),
        },
      },
    },
    async (request, reply) => {
      const p = publishingOf(services);
      const created = await createConnection(services.db, p.keyring, principalOf(request).accountId, request.body, {
        check: p.check,
        allowedTokenOrigins: p.allowedTokenOrigins,
      });
      return reply.code(201).send(created);
    },
  );
}
