import { Type } from '@sinclair/typebox';
import { principalOf } from '../http/auth.ts';
import type { Api, Services } from '../http/services.ts';
import { listConnections } from '../publishing/connections.ts';
import { StoreConnectionSchema } from '../publishing/schemas.ts';
import { commonProblems, success } from './schemas.ts';

const StoreConnectionList = Type.Object(
  { storeConnections: Type.Array(StoreConnectionSchema, { description: 'Oldest first.' }) },
  { title: 'StoreConnectionList' },
);

export function listStoreConnections(api: Api, services: Services) {
  api.get(
    '/public/v1/store-connections',
    {
      config: { auth: true },
      schema: {
        operationId: 'listStoreConnections',
        summary: 'List the account’s store connections',
        description: 'Never a secret: only the key id or the service account’s email.',
        tags: ['publishing'],
        response: { 200: success(StoreConnectionList, 'The account’s connections.'), ...commonProblems },
      },
    },
    async (request) => ({ storeConnections: await listConnections(services.db, principalOf(request).accountId) }),
  );
}
