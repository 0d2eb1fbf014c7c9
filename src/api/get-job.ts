import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { principalOf } from '../http/auth.ts';
import type { Api, Services } from '../http/services.ts';
import { isId } from '../core/ids.ts';
import type { PublicJob } from '../sets/jobs.ts';
import { JobSchema } from '../core/job-schemas.ts';
import type { PictureLinks } from '../sets/present.ts';
import { Problem } from '../core/problem.ts';
import { pictureLinks } from '../http/picture-links.ts';
import { commonProblems, problemExample, problemRef, success } from './schemas.ts';

const MAX_WAIT_S = 30;

const serialized = new WeakMap<object, string>();
const PREFER_WAIT = /(?:^|[,;\s])wait\s*=\s*"?(\d{1,4})"?/i;

/** The `wait` preference in seconds (RFC 7240), clamped to 1..30; null when absent. */
export function preferredWait(prefer: string | string[] | undefined): number | null {
  const m = PREFER_WAIT.exec(Array.isArray(prefer) ? prefer.join(',') : (prefer ?? ''));
  if (!m) return null;
  return Math.min(MAX_WAIT_S, Math.max(1, Number(m[1])));
}

export function getJob(api: Api, services: Services) {
  api.get(
    '/public/v1/jobs/:id',
    {
      config: { auth: true },
      schema: {
        operationId: 'getJob',
        summary: 'Poll a job, or wait for it to end',
        description: [
          'While the job is queued or running the response carries `Retry-After: 1` as a polling hint, and `progress` counts the slides rendered so far.',
          'With `Prefer: wait=N` (1 to 30 seconds) the answer comes as soon as the job has succeeded or failed, or after N seconds with its state then; the response says `Preference-Applied: wait=N`.',
          "A succeeded job holds each slide's `image` and the set's `archive`, with signed URLs valid 7 days; every poll returns fresh ones.",
          "Pictures are kept 30 days after the job ends (the server's JOB_RETENTION_DAYS); after that the job keeps its plan but no longer has `image` or `archive`.",
        ].join(' '),
        tags: ['jobs'],
        params: Type.Object({ id: Type.String({ description: 'The jobId from POST /public/v1/screenshots.' }) }),
        headers: Type.Object({
          prefer: Type.Optional(
            Type.String({ description: '`wait=N` (1..30): wait up to N seconds for the job to end.', examples: ['wait=30'] }),
          ),
        }),
        response: {
          200: success(JobSchema, 'The job. While it is queued or running, Retry-After suggests when to poll again.', {
            'Retry-After': { type: 'string', description: '`1` while queued or running.' },
            'Preference-Applied': { type: 'string', description: '`wait=N` when the request asked to wait.' },
          }),
          ...commonProblems,
          404: problemRef(
            'No such job on this account (`job_not_found`).',
            problemExample('job_not_found', 'No job job_01JD2ZK5T8Q3W4E5R6T7Y8U9EF on this account.'),
          ),
        },
      },
    },
    (request, reply) => {
      const { id } = request.params;
      const accountId = principalOf(request).accountId;
      const links = pictureLinks(services, request);
      const wait = preferredWait(request.headers.prefer);
      // A finished job this process holds (most polls of a done set) is answered synchronously.
      const known = isId('job', id) ? services.jobs.peek(accountId, id, links) : null;
      if (known) {
        if (wait !== null) reply.header('preference-applied', `wait=${wait}`);
        return sendFinished(reply, known);
      }
      if (known === null) throw new Problem('job_not_found', `No job ${id} on this account.`);
      return poll(services, request, reply, { id, accountId, links, wait });
    },
  );
}

async function poll(
  services: Services,
  request: FastifyRequest,
  reply: FastifyReply,
  { id, accountId, links, wait }: { id: string; accountId: string; links: PictureLinks; wait: number | null },
) {
  const read = () => services.jobs.get(accountId, id, links);
  let job = await read();
  if (!job) throw new Problem('job_not_found', `No job ${id} on this account.`);
  if (wait !== null) {
    reply.header('preference-applied', `wait=${wait}`);
    if (job.status === 'queued' || job.status === 'running') {
      // Parked on the job's end notification; the client going away ends the wait.
      const gone = new AbortController();
      const onClose = () => gone.abort();
      request.raw.socket?.once('close', onClose);
      const waiting = services.waiters.wait(id, wait * 1000, gone.signal);
      try {
        // Read again once registered: an end between the first read and now is not missed.
        job = (await read()) ?? job;
        if (job.status === 'queued' || job.status === 'running') {
          await waiting.ended;
          job = (await read()) ?? job;
        }
      } finally {
        waiting.cancel();
        request.raw.socket?.off('close', onClose);
      }
    }
  }
  if (job.status === 'queued' || job.status === 'running') {
    reply.header('retry-after', '1');
    return reply.send(job);
  }
  return sendFinished(reply, job);
}

/**
 * A finished job's answer is one cached object (JobReader): serialised once by the route's own
 * response schema, then sent as it is on every poll.
 */
function sendFinished(reply: FastifyReply, job: PublicJob): FastifyReply {
  let body = serialized.get(job);
  if (body === undefined) {
    body = reply.serialize(job) as string; // the JSON schema serialiser returns a string
    serialized.set(job, body);
  }
  return reply.type('application/json; charset=utf-8').send(body);
}
