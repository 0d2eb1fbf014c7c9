import { Type } from '@sinclair/typebox';
import { principalOf } from '../http/auth.ts';
import type { Api, Services } from '../http/services.ts';
import { isId } from '../core/ids.ts';
import { Problem } from '../core/problem.ts';
import { viewPublication } from '../publishing/publications.ts';
import { PublicationSchema } from '../publishing/schemas.ts';
import { commonProblems, problemExample, problemRef, success } from './schemas.ts';

export const publicationNotFound = (id: string) => new Problem('publication_not_found', `No publication ${id} on this account.`);

export const publicationNotFoundDoc = problemRef(
  'No such publication on this account (`publication_not_found`).',
  problemExample('publication_not_found', 'No publication pub_01JD2ZK5T8Q3W4E5R6T7Y8U9WH on this account.'),
);

export function getPublication(api: Api, services: Services) {
  api.get(
    '/public/v1/publications/:id',
    {
      config: { auth: true },
      schema: {
        operationId: 'getPublication',
        summary: 'A publication: its plan, each item’s progress, its outcome',
        tags: ['publishing'],
        params: Type.Object({ id: Type.String({ description: 'pub_…' }) }),
        response: { 200: success(PublicationSchema, 'The publication.'), ...commonProblems, 404: publicationNotFoundDoc },
      },
    },
    async (request) => {
      const { id } = request.params;
      const view = isId('pub', id) ? await viewPublication(services.db, principalOf(request).accountId, id) : null;
      if (!view) throw publicationNotFound(id);
      return view;
    },
  );
}
