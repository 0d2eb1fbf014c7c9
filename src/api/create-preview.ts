import { Type } from '@sinclair/typebox';
import { principalOf } from '../http/auth.ts';
import { rateLimited } from '../http/rate-limit/index.ts';
import type { Api, Services } from '../http/services.ts';
import { DEVICE_IDS } from '../core/devices.ts';
import { Problem } from '../core/problem.ts';
import { PREVIEW_SCALE } from '../sets/revisions/preview.ts';
import { slideChangeFields, ThemeSchema } from './revision-schemas.ts';
import { bodyProblems, commonProblems, problemExample, problemRef, RETRY_AFTER, StringEnum } from './schemas.ts';

const OfJob = Type.Object(
  {
    jobId: Type.String({ maxLength: 64, description: 'A succeeded job of this account.' }),
    slide: Type.Object(
      {
        index: Type.Integer({ minimum: 1, maximum: 10, description: 'The slide of the job, 1-based.' }),
        locale: Type.Optional(
          Type.String({
            maxLength: 35,
            examples: ['de-DE'],
            description:
              "In a set of several locales, the locale whose slide to draw, with its captions in its script's fonts (as a revision's `locale` names it; 400 for a locale the set lacks). Absent: the set's first locale. The other changes are drawn in that locale as given.",
          }),
        ),
        ...slideChangeFields,
      },
      { additionalProperties: false },
    ),
    theme: Type.Optional(ThemeSchema),
    view: Type.Optional(
      StringEnum(['slide', 'store'], { description: '`store`: the set’s first three slides side by side. Default `slide`.' }),
    ),
  },
  { additionalProperties: false, title: 'JobSlidePreview' },
);

const OfApp = Type.Object(
  {
    appId: Type.String({ maxLength: 64 }),
    device: StringEnum(DEVICE_IDS),
    theme: Type.Optional(ThemeSchema),
    slide: Type.Object({ ...slideChangeFields, headline: Type.String({ minLength: 1, maxLength: 60 }) }, { additionalProperties: false }),
  },
  { additionalProperties: false, title: 'AppSlidePreview' },
);

const PreviewBody = Type.Union([OfJob, OfApp], { title: 'CreatePreviewRequest' });

export function createPreview(api: Api, services: Services) {
  const perMinute = services.config.revisions?.previewsPerMinute ?? 120;
  const rule = { name: 'previews', capacity: perMinute, perSecond: perMinute / 60 };
  const atOnce = services.config.revisions?.previewsAtOnce ?? 4;
  api.post(
    '/public/v1/previews',
    {
      config: { auth: true },
      schema: {
        operationId: 'createPreview',
        summary: 'Render one slide with unsaved changes, at a third of its size (free, not stored)',
        description: [
          'With `jobId`: a slide of a succeeded set (in its first locale, or the `locale` named on the slide) with any change a revision could make, sized as the whole set would be (`view: store`: its first three slides side by side, as a store page shows them).',
          'With `appId` and `device`: one slide of a set not made yet, in the app’s colours.',
          `The PNG is ${Math.round(PREVIEW_SCALE * 100)} % of the device size and is not stored. \`Caption-Fits: false\` says a caption would be refused by a revision (it cannot fit at the smallest type size).`,
          `Free; at most ${perMinute} a minute per account, and ${atOnce} at once, waiting or being drawn (accounts take turns): more is 429 \`rate_limited\` with Retry-After.`,
        ].join(' '),
        tags: ['jobs'],
        body: PreviewBody,
        response: {
          200: {
            description: 'The preview.',
            headers: {
              'Caption-Fits': { type: 'string', description: '`true`, or `false` when a caption cannot fit on the slide.' },
              'x-request-id': { type: 'string' },
            },
            content: { 'image/png': { schema: { type: 'string', format: 'binary' } } },
          },
          ...bodyProblems,
          ...commonProblems,
          404: problemRef(
            'No such job or app on this account (`job_not_found`, `app_not_found`), or a screen that is not the app’s (`screen_not_found`).',
            problemExample('job_not_found', 'No job job_01JD2ZK5T8Q3W4E5R6T7Y8U9EF on this account.'),
          ),
          409: problemRef('The job has not succeeded (`job_not_revisable`).'),
          429: problemRef(
            'Too many previews this minute or at once, or too many requests for this key (`rate_limited`).',
            undefined,
            RETRY_AFTER,
          ),
          503: problemRef('This server renders no previews (`service_unavailable`).', undefined, RETRY_AFTER),
        },
      },
    },
    async (request, reply) => {
      const accountId = principalOf(request).accountId;
      const previews = services.previews;
      if (!previews) throw new Problem('service_unavailable', 'This server renders no previews.', {}, { 'Retry-After': '60' });
      const limits = services.rateLimits;
      if (limits) {
        const d = await limits.buckets.take(`preview:${accountId}`, rule);
        if (!d.allowed) throw rateLimited(rule, d, `At most ${perMinute} previews a minute per account. Retry after ${d.retryAfterS} s.`);
      }
      const body = request.body;
      // A client that gave up (closed its connection) has its preview taken out of the queue; the
      // answer reaches no one (a Problem, so it is not logged as a failure).
      const gone = new AbortController();
      reply.raw.once('close', () => {
        if (!reply.raw.writableFinished) gone.abort(new Problem('service_unavailable', 'The client closed the connection.'));
      });
      const preview =
        'jobId' in body ? await previews.forJob(accountId, body, gone.signal) : await previews.forApp(accountId, body, gone.signal);
      return reply.code(200).type('image/png').header('caption-fits', String(preview.fits)).send(preview.png);
    },
  );
}
