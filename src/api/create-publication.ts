import { principalOf } from '../http/auth.ts';
import { pictureLinks } from '../http/picture-links.ts';
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
          'Answers at once with status `planning`; a task then reads the store and writes the plan (per store locale and slot: keep, upload, reorder or delete, by checksum) and the status becomes `awaiting_approval`. Nothing changes on the store until POST /publications/{id}/approve. Publishing costs no credits.\n\n`target` picks where on the App Store the set goes: the product page (default), a custom product page (found by `id` or `name`, else made with the set’s locales; an approved page gets a new version) or a treatment of a product page optimization test (the test and the treatment found by name, else made). Pages, tests and treatments are found or made on approval, each looked for before it is made. Nothing is submitted for review (POST /publications/{id}/submit) or started (POST /experiments/{id}/start) by publishing. A store’s refusal (a page limit, a fourth treatment, a test while another runs, an app with no released version) fails the publication with `store_refused` and the store’s own `storeError` code and text.',
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
          422: problemRef(
            'A custom product page or test treatment for Google Play, which has no API for either (`store_api_unsupported`); the detail says what the Play Console needs, and `variantArchive` gives the variant’s `name` and the signed `url` of the set’s ZIP laid out for it (GET /public/v1/jobs/{id}/archive.zip?variant=).',
            problemExample(
              'store_api_unsupported',
              'A custom-product-page target cannot be published to Google Play. Google Play’s API (Android Publisher v3) edits the main store listing only: …',
            ),
          ),
        },
      },
    },
    async (request, reply) => {
      const p = publishingOf(services);
      const accountId = principalOf(request).accountId;
      const id = await create(services.db, accountId, request.body, pictureLinks(services, request));
      await p.advance(id);
      return reply.code(201).send((await viewPublication(services.db, accountId, id))!);
    },
  );
}
