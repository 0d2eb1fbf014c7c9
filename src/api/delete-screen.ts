import { principalOf } from '../http/auth.ts';
import type { Api, Services } from '../http/services.ts';
import { deleteScreen as remove } from '../screens/screens.ts';
import { ScreenParams } from './screen-schemas.ts';
import { Type } from '@sinclair/typebox';
import { commonProblems, problemRef, success } from './schemas.ts';

export function deleteScreen(api: Api, services: Services) {
  api.delete(
    '/public/v1/apps/:appId/screens/:screenId',
    {
      config: { auth: true },
      schema: {
        operationId: 'deleteScreen',
        summary: 'Delete an uploaded screen',
        description: 'Sets already rendered keep their pictures, and a set already queued still frames it; new sets no longer can.',
        tags: ['screens'],
        params: ScreenParams,
        response: {
          204: success(Type.Null(), 'Deleted.'),
          ...commonProblems,
          404: problemRef('No such screen of this app on this account (`screen_not_found`).'),
        },
      },
    },
    async (request, reply) => {
      const { appId, screenId } = request.params;
      await remove(services.db, principalOf(request).accountId, appId, screenId);
      return reply.code(204).send(null);
    },
  );
}
