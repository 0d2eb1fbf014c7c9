import { Type } from '@sinclair/typebox';
import { principalOf } from '../http/auth.ts';
import type { Api, Services } from '../http/services.ts';
import { ExperimentSchema } from '../publishing/schemas.ts';
import { startExperiment as start } from '../publishing/variants.ts';
import { publishingOf } from './create-store-connection.ts';
import { commonProblems, problemExample, problemRef, success } from './schemas.ts';

export function startExperiment(api: Api, services: Services) {
  api.post(
    '/public/v1/experiments/:id/start',
    {
      config: { auth: true },
      schema: {
        operationId: 'startExperiment',
        summary: 'Start an approved product page optimization test',
        description:
          'Customer-facing: from now on the test’s treatments are shown to its share of App Store visitors. Only on this call, and only for a test a publication of this account put a treatment in; App Review must have approved it. Starting a running test changes nothing.',
        tags: ['publishing'],
        params: Type.Object({
          id: Type.String({
            description: 'The test’s App Store Connect id (a publication’s `variant.experimentId`, or GET /apps/{appId}/variants).',
          }),
        }),
        response: {
          200: success(ExperimentSchema, 'The test, running.'),
          ...commonProblems,
          404: problemRef(
            'No test of this account’s publications by that id (`experiment_not_found`), or its connection was deleted (`store_connection_not_found`).',
            problemExample(
              'experiment_not_found',
              'No test 1a22d9a7-f574-4669-b1ca-1ba88f786c19 that a publication of this account put a treatment in.',
            ),
          ),
          409: problemRef(
            'The store refused: not approved yet, or another test is running (`store_refused`, with its `storeError`).',
            problemExample('store_refused', 'App Store Connect answered 409 to PATCH /v2/appStoreVersionExperiments/…: STATE_ERROR: …'),
          ),
          422: problemRef('The store refused the connection’s key (`store_credentials_rejected`).'),
          502: problemRef('The store could not be reached (`store_unavailable`).'),
        },
      },
    },
    async (request) => {
      const { id } = request.params as { id: string };
      return start(services.db, () => publishingOf(services), principalOf(request).accountId, id);
    },
  );
}
