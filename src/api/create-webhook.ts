import { Type } from '@sinclair/typebox';
import { principalOf } from '../http/auth.ts';
import { fieldErrors } from '../http/problems.ts';
import type { Api, Services } from '../http/services.ts';
import { validationFailed } from '../core/problem.ts';
import { refusedUrl, STRICT } from '../webhooks/address-check.ts';
import { createEndpoint, MAX_ENDPOINTS } from '../webhooks/endpoints.ts';
import { CreatedWebhookSchema, WebhookEventSchema } from '../webhooks/schemas.ts';
import { bodyProblems, commonProblems, problemExample, problemRef, success } from './schemas.ts';

const CreateWebhookBody = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description:
        'Where deliveries are POSTed: an https URL whose host is a public address (no loopback, private, link-local, multicast or cloud metadata address; checked again on every connection).',
      examples: ['https://example.com/hooks/shotgen'],
    }),
    events: Type.Optional(Type.Array(WebhookEventSchema, { minItems: 1, uniqueItems: true, description: 'Default: every event.' })),
  },
  { additionalProperties: false, title: 'CreateWebhookRequest' },
);

export function createWebhook(api: Api, services: Services) {
  api.post(
    '/public/v1/webhooks',
    {
      config: { auth: true },
      // Schema errors are merged with the URL checks, so one answer lists every problem.
      attachValidation: true,
      schema: {
        operationId: 'createWebhook',
        summary: 'Register a webhook endpoint',
        description: `Each event is POSTed as \`{ type, timestamp, data }\` (data: the job as GET /public/v1/jobs/{id} returns it for job.succeeded and job.failed; the publication as GET /public/v1/publications/{id} returns it, with its \`error\` on failure, for publication.published and publication.failed, each sent once when the publication reaches that status), signed per the Standard Webhooks specification (headers webhook-id, webhook-timestamp, webhook-signature), and retried with backoff (about 5 s, 30 s, 2 min, 10 min, 1 h, 6 h) until it is answered with a 2xx; webhook-id stays the same on every retry. Redirects are not followed; an attempt times out after 10 s. At most ${MAX_ENDPOINTS} endpoints per account.`,
        tags: ['webhooks'],
        body: CreateWebhookBody,
        response: {
          201: success(CreatedWebhookSchema, 'The endpoint; its secret is shown only here.'),
          ...bodyProblems,
          ...commonProblems,
          409: problemRef(
            `The account already has ${MAX_ENDPOINTS} endpoints (\`webhook_limit\`).`,
            problemExample(
              'webhook_limit',
              `This account already has ${MAX_ENDPOINTS} webhook endpoints, the most it may have. Delete one first.`,
            ),
          ),
        },
      },
    },
    async (request, reply) => {
      const rules = services.config.webhooks ?? STRICT;
      if (request.validationError) {
        const errors = fieldErrors(request.validationError.validation as Parameters<typeof fieldErrors>[0], 'body');
        const url = (request.body as { url?: unknown } | null)?.url;
        const why = typeof url === 'string' && !errors.some((e) => e.field === 'url') ? refusedUrl(url, rules) : null;
        throw validationFailed(why ? [...errors, { field: 'url', message: why }] : errors);
      }
      const created = await createEndpoint(
        services.db,
        principalOf(request).accountId,
        request.body,
        rules,
        services.publishing?.keyring ?? null,
      );
      return reply.code(201).send(created);
    },
  );
}
