import { Type } from '@sinclair/typebox';
import { principalOf } from '../http/auth.ts';
import type { Api, Services } from '../http/services.ts';
import { VariantsSchema } from '../publishing/schemas.ts';
import { listVariants as list } from '../publishing/variants.ts';
import { publishingOf } from './create-store-connection.ts';
import { commonProblems, problemExample, problemRef, success } from './schemas.ts';

export function listVariants(api: Api, services: Services) {
  api.get(
    '/public/v1/apps/:appId/variants',
    {
      config: { auth: true },
      schema: {
        operationId: 'listVariants',
        summary: 'The app’s custom product pages and tests, as the App Store holds them',
        description:
          'Read from App Store Connect on each call: every custom product page (name, `url` with `ppid`, visibility, its versions and their states) and every product page optimization test (state, whether it runs, traffic, its treatments), each with the shotgen set (`jobId`) its newest publication came from. Read with `connectionId`, else the connection of the app’s newest App Store publication, else the account’s newest App Store connection.',
        tags: ['publishing'],
        params: Type.Object({ appId: Type.String({ description: 'app_…' }) }),
        querystring: Type.Object({
          connectionId: Type.Optional(Type.String({ description: 'The App Store connection (sc_…) to read with.' })),
        }),
        response: {
          200: success(VariantsSchema, 'The app’s variants.'),
          ...commonProblems,
          404: problemRef(
            'No such app (`app_not_found`), or no App Store connection to read with (`store_connection_not_found`).',
            problemExample('app_not_found', 'No app app_01JD2ZK5T8Q3W4E5R6T7Y8U9WH on this account.'),
          ),
          409: problemRef('The store refused to answer (`store_refused`, with its `storeError`).'),
          422: problemRef(
            'The app has no App Store listing: Google Play has no API for its custom store listings and experiments (`store_api_unsupported`); or the store refused the key (`store_credentials_rejected`).',
          ),
          502: problemRef('The store could not be reached (`store_unavailable`).'),
        },
      },
    },
    async (request) => {
      const { appId } = request.params as { appId: string };
      const { connectionId } = request.query as { connectionId?: string };
      return list(services.db, () => publishingOf(services), principalOf(request).accountId, appId, connectionId);
    },
  );
}
