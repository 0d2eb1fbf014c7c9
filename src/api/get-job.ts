import { Type } from '@sinclair/typebox';
import { principalOf } from '../http/auth.ts';
import type { Api, Services } from '../http/server.ts';
import { isId } from '../ids.ts';
import { CAPTION_LENGTH_IDS, CAPTION_STYLE_IDS, DEVICE_IDS } from '../planning/types.ts';
import { Problem } from '../problem.ts';
import { commonProblems, problemExample, problemRef, StringEnum, success } from './schemas.ts';

const Slide = Type.Object(
  {
    index: Type.Integer({ minimum: 1, maximum: 10 }),
    role: Type.String({ description: 'The slide’s part in the story: hero, feature, social-proof, how-it-works, call-to-action, …', examples: ['hero'] }),
    headline: Type.String({ maxLength: 40, description: 'short: at most 30 characters; long: at most 40.', examples: ['Plan Every Meal in Seconds'] }),
    subheadline: Type.Union([Type.String({ maxLength: 100 }), Type.Null()], { description: 'null for short captions.' }),
    keywords: Type.Array(Type.String()),
    screenshotUrl: Type.Union([Type.String({ format: 'uri' }), Type.Null()], { description: 'One of the listing’s screenshots for the device family, or null (text-only layout).' }),
    layout: Type.String({ examples: ['headline-top'] }),
    background: Type.Object({ colors: Type.Array(Type.String({ pattern: '^#[0-9A-F]{6}$' }), { minItems: 1 }) }),
    textColor: Type.String({ pattern: '^#[0-9A-F]{6}$' }),
  },
  { title: 'Slide' },
);

const Result = Type.Object(
  {
    device: StringEnum(DEVICE_IDS),
    width: Type.Integer(),
    height: Type.Integer(),
    narrativeId: Type.Union([Type.String(), Type.Null()]),
    captionStyle: StringEnum(CAPTION_STYLE_IDS),
    captionLength: StringEnum(CAPTION_LENGTH_IDS),
    slides: Type.Array(Slide, { minItems: 1, maxItems: 10 }),
    warnings: Type.Array(Type.String()),
  },
  { title: 'ScreenshotSet' },
);

const JobError = Type.Object(
  {
    code: StringEnum(['store_unavailable', 'planning_failed', 'attempts_exhausted', 'internal_error']),
    message: Type.String(),
    retryable: Type.Boolean(),
  },
  { title: 'JobError' },
);

const Job = Type.Object(
  {
    id: Type.String({ examples: ['job_01JD2ZK5T8Q3W4E5R6T7Y8U9EF'] }),
    status: StringEnum(['queued', 'running', 'succeeded', 'failed'], {
      description: 'queued → running → succeeded | failed. A job whose worker died goes back to queued (at most 3 attempts). succeeded and failed never change.',
    }),
    result: Type.Union([Result, Type.Null()], { description: 'Non-null exactly when status is succeeded.' }),
    error: Type.Union([JobError, Type.Null()], { description: 'Non-null exactly when status is failed; the credits were refunded.' }),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { title: 'Job' },
);

export function getJob(api: Api, services: Services) {
  api.get(
    '/public/v1/jobs/:id',
    {
      config: { auth: true },
      schema: {
        operationId: 'getJob',
        summary: 'Poll a job',
        description: 'While the job is queued or running the response carries `Retry-After: 1` as a polling hint.',
        tags: ['jobs'],
        params: Type.Object({ id: Type.String({ description: 'The jobId from POST /public/v1/screenshots.' }) }),
        response: {
          200: success(Job, 'The job. While it is queued or running, Retry-After suggests when to poll again.', { 'Retry-After': { type: 'string', description: '`1` while queued or running.' } }),
          ...commonProblems,
          404: problemRef('No such job on this account (`job_not_found`).', problemExample(404, 'job_not_found', 'No job job_01JD2ZK5T8Q3W4E5R6T7Y8U9EF on this account.')),
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params as { id: string };
      const found = isId('job', id) ? await services.jobs.getJson(principalOf(request).accountId, id) : null;
      if (!found) throw new Problem(404, 'job_not_found', `No job ${id} on this account.`);
      if (found.job.status === 'queued' || found.job.status === 'running') reply.header('retry-after', '1');
      return reply.type('application/json; charset=utf-8').send(found.json);
    },
  );
}
