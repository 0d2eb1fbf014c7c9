import { Type, type Static } from '@sinclair/typebox';
import { principalOf } from '../http/auth.ts';
import type { Api, Services } from '../http/server.ts';
import { IDEMPOTENCY_KEY_MAX } from '../jobs/idempotency.ts';
import { createScreenshotSet as create, SCREENSHOT_SET_COST } from '../jobs/screenshot-sets.ts';
import { NARRATIVES } from '../planning/narratives.ts';
import { CAPTION_LENGTH_IDS, CAPTION_STYLE_IDS, CAPTION_STYLES, DEFAULT_COUNT, DEVICE_IDS, DEVICES, MAX_COUNT } from '../planning/types.ts';
import { bodyProblems, commonProblems, problemExample, problemRef, RETRY_AFTER, StringEnum, success } from './schemas.ts';

const describeDevices = DEVICE_IDS.map((d) => `\`${d}\`: ${DEVICES[d].width}×${DEVICES[d].height} (${DEVICES[d].slot})`).join('; ');
const describeStyles = CAPTION_STYLE_IDS.map((s) => `\`${s}\`: ${CAPTION_STYLES[s]}`).join(' ');

const CreateScreenshotSetBody = Type.Object(
  {
    appId: Type.String({ minLength: 1, maxLength: 64, description: 'An appId from POST /public/v1/apps.', examples: ['app_01JD2ZK5T8Q3W4E5R6T7Y8U9CD'] }),
    device: StringEnum(DEVICE_IDS, { description: `The device the set is planned for. ${describeDevices}.`, examples: ['iphone-69'] }),
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_COUNT, default: DEFAULT_COUNT, description: 'Number of slides; ignored when narrativeId is set.' })),
    captionStyle: Type.Optional(StringEnum(CAPTION_STYLE_IDS, { default: 'aso-expert', description: `Voice of the captions. ${describeStyles}` })),
    captionLength: Type.Optional(StringEnum(CAPTION_LENGTH_IDS, { default: 'short', description: '`short`: headline ≤ 30 characters, no subheadline. `long`: headline ≤ 40 plus a subheadline ≤ 100.' })),
    narrativeId: Type.Optional(StringEnum(NARRATIVES.map((n) => n.id), { description: 'A slug from GET /public/v1/narratives; sets the number of slides.' })),
  },
  { additionalProperties: false, title: 'CreateScreenshotSetRequest' },
);

const Created = Type.Object(
  {
    jobId: Type.String({ examples: ['job_01JD2ZK5T8Q3W4E5R6T7Y8U9EF'] }),
    credits: Type.Object({
      cost: Type.Integer({ examples: [SCREENSHOT_SET_COST] }),
      remaining: Type.Integer({ examples: [45] }),
    }),
  },
  { title: 'ScreenshotSetAccepted' },
);

const Headers = Type.Object({
  'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX, description: 'Makes retries safe: the same key and body within 24 hours replay the first response and charge nothing more.' })),
});

export function createScreenshotSet(api: Api, services: Services) {
  const jobsPath = `${services.config.basePath}/public/v1/jobs/`;
  api.post(
    '/public/v1/screenshots',
    {
      config: { auth: true },
      schema: {
        operationId: 'createScreenshotSet',
        summary: 'Plan a screenshot set as a background job (5 credits)',
        description: 'Charges 5 credits and queues a job that plans the set; poll the job at the Location header. A job that fails is refunded.',
        tags: ['screenshots'],
        body: CreateScreenshotSetBody,
        headers: Headers,
        response: {
          201: success(Created, 'Accepted; the job is queued. Location points at the job.', {
            Location: { type: 'string', description: 'The job: {base_url}/public/v1/jobs/{jobId}.' },
            'Idempotent-Replayed': { type: 'string', description: '`true` when this answers a retry with the same Idempotency-Key.' },
          }),
          ...bodyProblems,
          ...commonProblems,
          402: problemRef('Fewer credits remain than the request costs (`insufficient_credits`, with cost, remaining and resetsAt).', problemExample(402, 'insufficient_credits', 'This request costs 5 credits; 3 remain until 2026-12-01T00:00:00Z.', { cost: 5, remaining: 3, resetsAt: '2026-12-01T00:00:00Z' })),
          404: problemRef('No such app on this account (`app_not_found`).', problemExample(404, 'app_not_found', 'No app app_01JD2ZK5T8Q3W4E5R6T7Y8U9CD on this account.')),
          409: problemRef('A request with the same Idempotency-Key is still being processed (`idempotency_key_in_use`).', undefined, RETRY_AFTER),
          422: problemRef('The Idempotency-Key was used with a different body (`idempotency_key_reused`).'),
        },
      },
    },
    async (request, reply) => {
      const accountId = principalOf(request).accountId;
      const { body, replayed } = await create(services.db, accountId, request.body as Static<typeof CreateScreenshotSetBody>, {
        now: services.clock(),
        idempotencyKey: (request.headers as Static<typeof Headers>)['idempotency-key'],
        onCharged: (id) => services.accountViews.invalidate(id),
        notifier: services.notifier,
      });
      reply.code(201).header('location', jobsPath + body.jobId);
      if (replayed) reply.header('idempotent-replayed', 'true');
      return body;
    },
  );
}
