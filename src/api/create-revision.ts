import { Type } from '@sinclair/typebox';
import { principalOf } from '../http/auth.ts';
import type { Api, Services } from '../http/services.ts';
import { MAX_COUNT } from '../core/set.ts';
import { createRevision as create, DEFAULT_REVISION_LIMITS } from '../sets/revisions/revisions.ts';
import { AddedSlideSchema, SlideEditSchema, ThemeSchema } from './revision-schemas.ts';
import { bodyProblems, commonProblems, problemExample, problemRef, RETRY_AFTER, success } from './schemas.ts';

const Index = Type.Integer({ minimum: 1, maximum: 2 * MAX_COUNT });

export const CreateRevisionBody = Type.Object(
  {
    slides: Type.Optional(Type.Array(SlideEditSchema, { maxItems: MAX_COUNT, description: 'Per slide of the parent, what changes.' })),
    remove: Type.Optional(Type.Array(Index, { maxItems: MAX_COUNT, description: "The parent's slides to leave out." })),
    add: Type.Optional(
      Type.Array(AddedSlideSchema, {
        maxItems: MAX_COUNT,
        description: "New slides with your own captions; in `order` a 5-slide set's first added slide is 6.",
      }),
    ),
    order: Type.Optional(
      Type.Array(Index, {
        maxItems: 2 * MAX_COUNT,
        description:
          "Every kept and added slide once, in the new order, by the parent's numbers. Absent: the parent's order, then the added.",
        examples: [[1, 3, 2, 4, 5]],
      }),
    ),
    theme: Type.Optional(ThemeSchema),
  },
  { additionalProperties: false, title: 'CreateRevisionRequest' },
);

const Created = Type.Object(
  {
    jobId: Type.String({ examples: ['job_01JD2ZK5T8Q3W4E5R6T7Y8U9EG'] }),
    parentJobId: Type.String({ examples: ['job_01JD2ZK5T8Q3W4E5R6T7Y8U9EF'] }),
    slides: Type.Integer({ description: 'Slides in the revised set.' }),
    warnings: Type.Array(Type.String(), {
      description: 'What the caption checks found in the edited captions; they do not stop the revision.',
    }),
    credits: Type.Object({ cost: Type.Literal(0) }),
  },
  { title: 'RevisionAccepted' },
);

export function createRevision(api: Api, services: Services) {
  const jobsPath = `${services.config.basePath}/public/v1/jobs/`;
  api.post(
    '/public/v1/jobs/:id/revisions',
    {
      config: { auth: true },
      schema: {
        operationId: 'createRevision',
        summary: 'Edit a succeeded set: re-render only what changed (free)',
        description: [
          'Queues a new job (its `parentJobId` is this one) that renders the set with the edits. The body names only what changes.',
          "Only slides whose pictures change are rendered again; the others are the parent's files, byte for byte (same sha256), renumbered to their new place. A change that every slide shares (the theme, or a caption that changes the set's type size) renders every slide.",
          'Costs no credits. Limited per set and per account in any hour (429 `rate_limited`, Retry-After).',
          "Edited captions go through the caption checks; what they find comes back in `warnings` and the job's result. A caption that cannot fit on the slide at the smallest type size is refused (400, the field named).",
          "A set in several locales is revised in every locale: order, removals, added slides (their captions in every locale), the theme and a slide's screen, layout and colours apply to all; a caption edit applies to the locale it names (`locale`), or to the set's first locale without one. Each locale re-renders only its own changed slides; warnings of another locale than the first start with its tag (`de-DE: slide 2: …`).",
        ].join(' '),
        tags: ['jobs'],
        params: Type.Object({ id: Type.String({ description: 'A succeeded job of this account.' }) }),
        body: CreateRevisionBody,
        response: {
          201: success(Created, 'Accepted; the revision job is queued. Location points at it.', {
            Location: { type: 'string', description: 'The new job.' },
          }),
          ...bodyProblems,
          ...commonProblems,
          404: problemRef(
            'No such job on this account (`job_not_found`), or a `screenId` that is not one of the app’s screens (`screen_not_found`).',
            problemExample('job_not_found', 'No job job_01JD2ZK5T8Q3W4E5R6T7Y8U9EF on this account.'),
          ),
          409: problemRef(
            'The job is queued, running or failed (`job_not_revisable`).',
            problemExample('job_not_revisable', 'Job job_01JD2ZK5T8Q3W4E5R6T7Y8U9EF is running: only a succeeded set can be revised.'),
          ),
          429: problemRef(
            'Too many revisions of this set or this account in the last hour, or too many requests for this key (`rate_limited`).',
            problemExample('rate_limited', 'This set was revised 30 times in the last hour, the most allowed (30).'),
            RETRY_AFTER,
          ),
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const accountId = principalOf(request).accountId;
      const limits = services.config.revisions ?? DEFAULT_REVISION_LIMITS;
      const created = await create(services.db, accountId, id, request.body, { limits });
      reply.code(201).header('location', jobsPath + created.jobId);
      return { ...created, credits: { cost: 0 as const } };
    },
  );
}
