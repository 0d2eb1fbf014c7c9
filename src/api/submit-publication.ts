import { Type } from '@sinclair/typebox';
import { principalOf } from '../http/auth.ts';
import type { Api, Services } from '../http/services.ts';
import { viewPublication } from '../publishing/publications.ts';
import { PublicationSchema } from '../publishing/schemas.ts';
import { submitPublication as submit } from '../publishing/variants.ts';
import { publishingOf } from './create-store-connection.ts';
import { publicationNotFound, publicationNotFoundDoc } from './get-publication.ts';
import { commonProblems, problemExample, problemRef, success } from './schemas.ts';

export function submitPublication(api: Api, services: Services) {
  api.post(
    '/public/v1/publications/:id/submit',
    {
      config: { auth: true },
      schema: {
        operationId: 'submitPublication',
        summary: 'Send a published custom product page or test to App Review',
        description:
          'Adds the custom product page version, or the test whose treatment the publication filled, to a review submission (`reviewSubmissions` + `reviewSubmissionItems`) and submits it. Only on this call: publishing never submits. A second call, or a test one of its other treatments’ publications submitted already, sends nothing more; `submission` says where it went. An open submission holding items shotgen did not put there is refused rather than sent along.',
        tags: ['publishing'],
        params: Type.Object({ id: Type.String({ description: 'pub_…' }) }),
        response: {
          200: success(PublicationSchema, 'Submitted (now or before): the publication with its `submission`.'),
          ...commonProblems,
          404: publicationNotFoundDoc,
          409: problemRef(
            'Not published yet, or a product-page publication (`publication_not_ready`); the store refused (`store_refused`, with its `storeError`).',
            problemExample(
              'publication_not_ready',
              'Publication pub_01JD2ZK5T8Q3W4E5R6T7Y8U9WH is applying; only a published one can be submitted for review.',
            ),
          ),
          422: problemRef('The store refused the connection’s key (`store_credentials_rejected`).'),
          502: problemRef('The store could not be reached (`store_unavailable`).'),
        },
      },
    },
    async (request) => {
      const { id } = request.params as { id: string };
      const accountId = principalOf(request).accountId;
      await submit(services.db, () => publishingOf(services), accountId, id, services.clock());
      const view = await viewPublication(services.db, accountId, id);
      if (!view) throw publicationNotFound(id);
      return view;
    },
  );
}
