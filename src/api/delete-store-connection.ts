import { Type } from '@sinclair/typebox';
import { principalOf } from '../http/auth.ts';
import type { Api, Services } from '../http/services.ts';
import { isId } from '../core/ids.ts';
import { connectionNotFound, deleteConnection } from '../publishing/connections.ts';
import { commonProblems, problemExample, problemRef, success } from './schemas.ts';

export function deleteStoreConnection(api: Api, services: Services) {
  api.delete(
    '/public/v1/store-connections/:id',
    {
      config: { auth: true },
      schema: {
        operationId: 'deleteStoreConnection',
        summary: 'Delete a store connection',
        description: 'Its encrypted secret is deleted with it; publications still running on it fail.',
        tags: ['publishing'],
        params: Type.Object({ id: Type.String({ description: 'The connection’s id (sc_…).' }) }),
        response: {
          204: success(Type.Null(), 'Deleted.'),
          ...commonProblems,
          404: problemRef(
            'No such connection on this account (`store_connection_not_found`).',
            problemExample('store_connection_not_found', 'No store connection sc_01JD2ZK5T8Q3W4E5R6T7Y8U9WH on this account.'),
          ),
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const deleted = isId('sc', id) && (await deleteConnection(services.db, principalOf(request).accountId, id));
      if (!deleted) throw connectionNotFound(id);
      return reply.code(204).send(null);
    },
  );
}
