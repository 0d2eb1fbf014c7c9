import { Type } from '@sinclair/typebox';
import { principalOf } from '../http/auth.ts';
import type { Api, Services } from '../http/services.ts';
import { isId } from '../core/ids.ts';
import { Problem } from '../core/problem.ts';
import { deleteEndpoint } from '../webhooks/endpoints.ts';
import { commonProblems, problemExample, problemRef, success } from './schemas.ts';

export function deleteWebhook(api: Api, services: Services) {
  api.delete(
    '/public/v1/webhooks/:id',
    {
      config: { auth: true },
      schema: {
        operationId: 'deleteWebhook',
        summary: 'Delete a webhook endpoint',
        description: 'Deliveries still owed to the endpoint are dropped.',
        tags: ['webhooks'],
        params: Type.Object({ id: Type.String({ description: 'The webhook’s id (whk_…).' }) }),
        response: {
          204: success(Type.Null(), 'Deleted.'),
          ...commonProblems,
          404: problemRef(
            'No such webhook on this account (`webhook_not_found`).',
            problemExample('webhook_not_found', 'No webhook whk_01JD2ZK5T8Q3W4E5R6T7Y8U9WH on this account.'),
          ),
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const deleted = isId('whk', id) && (await deleteEndpoint(services.db, principalOf(request).accountId, id));
      if (!deleted) throw new Problem('webhook_not_found', `No webhook ${id} on this account.`);
      return reply.code(204).send(null);
    },
  );
}
