/** The webhook endpoint resource as TypeBox: what the API validates, answers and documents. */
import { Type } from '@sinclair/typebox';
import { StringEnum } from '../core/typebox.ts';
import { WEBHOOK_EVENTS } from './endpoints.ts';

export const WebhookEventSchema = StringEnum(WEBHOOK_EVENTS, {
  description:
    'job.succeeded or job.failed (data: the job as GET /public/v1/jobs/{id} shows it); publication.published or publication.failed (data: the publication as GET /public/v1/publications/{id} shows it, `error` set on failure).',
});

const endpointProperties = {
  id: Type.String({ description: 'whk_ plus a sortable, unguessable id.', examples: ['whk_01JD2ZK5T8Q3W4E5R6T7Y8U9WH'] }),
  url: Type.String({ format: 'uri', examples: ['https://example.com/hooks/shotgen'] }),
  events: Type.Array(WebhookEventSchema, { description: 'The events sent to this endpoint.', examples: [['job.succeeded', 'job.failed']] }),
  createdAt: Type.String({ format: 'date-time' }),
};

export const WebhookSchema = Type.Object(endpointProperties, { title: 'Webhook', description: 'A webhook endpoint, without its secret.' });

export const CreatedWebhookSchema = Type.Object(
  {
    ...endpointProperties,
    secret: Type.String({
      description:
        'The signing secret (whsec_ + base64), shown only in this answer. Verify each delivery’s webhook-signature with it, as the Standard Webhooks specification says.',
      examples: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw1v8fQYFUeBk='],
    }),
  },
  { title: 'CreatedWebhook' },
);
