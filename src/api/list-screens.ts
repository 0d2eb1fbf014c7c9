import { Type } from '@sinclair/typebox';
import { principalOf } from '../http/auth.ts';
import type { Api, Services } from '../http/services.ts';
import { listScreens as list } from '../screens/screens.ts';
import { AppParams, ScreenSchema } from './screen-schemas.ts';
import { commonProblems, problemRef, success } from './schemas.ts';

export function listScreens(api: Api, services: Services) {
  api.get(
    '/public/v1/apps/:appId/screens',
    {
      config: { auth: true },
      schema: {
        operationId: 'listScreens',
        summary: 'List the app’s uploaded screens',
        description: 'Oldest first: the order in which a set without `screenIds` frames a family’s screens.',
        tags: ['screens'],
        params: AppParams,
        response: {
          200: success(Type.Object({ screens: Type.Array(ScreenSchema) }, { title: 'ScreenList' }), 'The live screens.'),
          ...commonProblems,
          404: problemRef('No such app on this account (`app_not_found`).'),
        },
      },
    },
    async (request) => {
      const { appId } = request.params;
      return { screens: await list(services.db, principalOf(request).accountId, appId) };
    },
  );
}
