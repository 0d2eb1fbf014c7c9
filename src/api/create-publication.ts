import { principalOf } from '../http/auth.ts';
import type { Api, Services } from '../http/services.ts';
import { createPublication as create } from '../publishing/create.ts';
import { viewPublication } from '../publishing/publications.ts';
import { CreatePublicationBody, PublicationSchema } from '../publishing/schemas.ts';
import { publishingOf } from './create-store-connection.ts';
import { bodyProblems, commonProblems, problemExample, problemRef, success } from './schemas.ts';

export function createPublication(api: Api, services: Services) {
  api.post(
    '/public/v1/publications',
    {
      config: { auth: true },
      schema: {
        operationId: 'createPublication',
        summary: 'Plan putting a screenshot set on its store page',
        description:
          'Answers at once with status `planning`; a task then reads the store and writes the plan (per store locale and slot: keep, upload, reorder or delete, by checksum) and the status becomes `awaiting_approval`. Nothing changes on the store until POST /publications/{id}/approve. Publishing costs no credits.',
        tags: ['publishing'],
        body: CreatePublicationBody,
        response: {
          201: success(PublicationSchema, 'The publication, planning.'),
          ...bodyProblems,
          ...commonProblems,
          404: problemRef(
            'No such job or connection on this account (`job_not_found`, `store_connection_not_found`).',
            problemExample('store_connection_not_found', 'No store connection sc_01JD2ZK5T8Q3W4E5R6T7Y8U9WH on this account.'),
          ),
          409: problemRef('The job has not succeeded (`publication_not_ready`).'),
        },
      },
    },
    async (request, reply) => {
      const p = publishingOf(services);
      const accountId = principalOf(request).accountId;
      const id = await create(services.db, accountId, request.body);
      await p.advance(id);
      return reply.code(201).send((await viewPublication(services.db, accountId, id))!);
    },
  );
}
