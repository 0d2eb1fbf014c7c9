import { Type } from '@sinclair/typebox';
import { principalOf } from '../http/auth.ts';
import type { Api, Services } from '../http/services.ts';
import { listEndpoints } from '../webhooks/endpoints.ts';
import { WebhookSchema } from '../webhooks/schemas.ts';
import { commonProblems, success } from './schemas.ts';

const WebhookList = Type.Object({ webhooks: Type.Array(WebhookSchema, { description: 'Oldest first.' }) }, { title: 'WebhookList' });

export function listWebhooks(api: Api, services: Services) {
  api.get(
    '/public/v1/webhooks',
    {
      config: { auth: true },
      schema: {
        operationId: 'listWebhooks',
        summary: 'List the account’s webhook endpoints',
        description: 'Secrets are never shown again after creation.',
        tags: ['webhooks'],
        response: {
          200: success(WebhookList, 'The account’s endpoints, without their secrets.'),
          ...commonProblems,
        },
      },
    },
    async (request) => ({ webhooks: await listEndpoints(services.db, principalOf(request).accountId) }),
  );
}
