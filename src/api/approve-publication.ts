import { Type } from '@sinclair/typebox';
import { principalOf } from '../http/auth.ts';
import type { Api, Services } from '../http/services.ts';
import { isId } from '../core/ids.ts';
import { approve, viewPublication } from '../publishing/publications.ts';
import { PublicationSchema } from '../publishing/schemas.ts';
import { publishingOf } from './create-store-connection.ts';
import { publicationNotFound, publicationNotFoundDoc } from './get-publication.ts';
import { commonProblems, problemRef, success } from './schemas.ts';

export function approvePublication(api: Api, services: Services) {
  api.post(
    '/public/v1/publications/:id/approve',
    {
      config: { auth: true },
      schema: {
        operationId: 'approvePublication',
        summary: 'Approve a publication’s plan and apply it',
        description:
          'Idempotent: approving again changes nothing. A plan older than one hour, or a store that changed since it was planned, is planned again before anything is applied.',
        tags: ['publishing'],
        params: Type.Object({ id: Type.String({ description: 'pub_…' }) }),
        response: {
          202: success(PublicationSchema, 'Approved: applying, or already past it.'),
          ...commonProblems,
          404: publicationNotFoundDoc,
          409: problemRef('Still planning (`publication_not_ready`).'),
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      if (!isId('pub', id)) throw publicationNotFound(id);
      const p = publishingOf(services);
      const accountId = principalOf(request).accountId;
      if (await approve(services.db, accountId, id, services.clock())) await p.advance(id);
      return reply.code(202).send((await viewPublication(services.db, accountId, id))!);
    },
  );
}
