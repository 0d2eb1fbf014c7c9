/**
 * The public Job resource as TypeBox schemas: the source of the job types in jobs.ts and of the
 * API's response schema and OpenAPI document.
 */
import { Type } from '@sinclair/typebox';
import { ScreenshotSetResultSchema } from './set-schemas.ts';
import { Nullable, StringEnum } from './typebox.ts';

export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export const JOB_ERROR_CODES = ['store_unavailable', 'planning_failed', 'attempts_exhausted', 'internal_error'] as const;

export const JobErrorSchema = Type.Object(
  {
    code: StringEnum(JOB_ERROR_CODES),
    message: Type.String(),
    retryable: Type.Boolean(),
  },
  { title: 'JobError' },
);

export const JobSchema = Type.Object(
  {
    id: Type.String({ examples: ['job_01JD2ZK5T8Q3W4E5R6T7Y8U9EF'] }),
    status: StringEnum(JOB_STATUSES, {
      description:
        'queued → running → succeeded | failed. A job whose worker died goes back to queued (at most 3 attempts). succeeded and failed never change.',
    }),
    result: Nullable(ScreenshotSetResultSchema, { description: 'Non-null exactly when status is succeeded.' }),
    error: Nullable(JobErrorSchema, { description: 'Non-null exactly when status is failed; the credits were refunded.' }),
    progress: Nullable(Type.Object({ done: Type.Integer({ minimum: 0 }), total: Type.Integer({ minimum: 1 }) }, { title: 'JobProgress' }), {
      description: 'While the job is running: slides rendered so far out of the total. Null otherwise.',
    }),
    parentJobId: Nullable(Type.String(), {
      description: 'The job this one revises (POST /public/v1/jobs/{id}/revisions); null for a set planned from scratch.',
    }),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { title: 'Job' },
);
