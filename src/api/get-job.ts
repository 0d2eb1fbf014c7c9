import { Type } from '@sinclair/typebox';
import { principalOf } from '../http/auth.ts';
import type { Api, Services } from '../http/services.ts';
import { isId } from '../ids.ts';
import { JobSchema } from '../jobs/schemas.ts';
import { Problem } from '../problem.ts';
import { commonProblems, problemExample, problemRef, success } from './schemas.ts';

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
          200: success(JobSchema, 'The job. While it is queued or running, Retry-After suggests when to poll again.', { 'Retry-After': { type: 'string', description: '`1` while queued or running.' } }),
          ...commonProblems,
          404: problemRef('No such job on this account (`job_not_found`).', problemExample(404, 'job_not_found', 'No job job_01JD2ZK5T8Q3W4E5R6T7Y8U9EF on this account.')),
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params as { id: string };
      const job = isId('job', id) ? await services.jobs.get(principalOf(request).accountId, id) : null;
      if (!job) throw new Problem(404, 'job_not_found', `No job ${id} on this account.`);
      if (job.status === 'queued' || job.status === 'running') reply.header('retry-after', '1');
      return job;
    },
  );
}
