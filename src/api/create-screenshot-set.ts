import { Type } from '@sinclair/typebox';
import { principalOf } from '../http/auth.ts';
import type { Api, Services } from '../http/services.ts';
import { IDEMPOTENCY_KEY_MAX } from '../sets/idempotency.ts';
import { createScreenshotSet as create, SCREENSHOT_SET_COST } from '../sets/create.ts';
import { MAX_LOCALES } from '../core/locales.ts';
import { PlanRequestSchema } from '../core/set-schemas.ts';
import { ThemeSchema } from '../core/brand-schemas.ts';
import { DEFAULT_THEME } from '../core/themes.ts';
import { validationFailed } from '../core/problem.ts';
import { bodyProblems, commonProblems, problemExample, problemRef, RETRY_AFTER, success } from './schemas.ts';

/** The request's planning fields are the planner's own schema (core/set-schemas.ts); the API adds which app, look and screens. */
const plan = PlanRequestSchema.properties;

export const CreateScreenshotSetBody = Type.Object(
  {
    appId: Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'An appId from POST /public/v1/apps.',
      examples: ['app_01JD2ZK5T8Q3W4E5R6T7Y8U9CD'],
    }),
    device: plan.device,
    size: plan.size,
    orientation: plan.orientation,
    count: plan.count,
    theme: Type.Optional(
      // No schema `default`: an omitted theme is the brand kit's, which only the worker reads.
      ThemeSchema(
        `How the slides look. Omitted: the app's brand kit \`defaultTheme\` (GET /public/v1/apps/{appId}/brand), else \`${DEFAULT_THEME}\`. The colours are the brand kit's, else the app icon's. The result's \`theme\` and \`brand\` say what was used.`,
      ),
    ),
    captionStyle: plan.captionStyle,
    captionLength: plan.captionLength,
    narrativeId: plan.narrativeId,
    slides: plan.slides,
    screenIds: Type.Optional(
      Type.Array(Type.String({ pattern: '^scr_[0-9A-HJKMNP-TV-Z]{26}$' }), {
        minItems: 1,
        maxItems: 10,
        examples: [['scr_01JD2ZK5T8Q3W4E5R6T7Y8V9GH', 'scr_01JD2ZK5T8Q3W4E5R6T7Y8V9JK']],
        description:
          "Uploaded screens of this app (POST /public/v1/apps/{appId}/screens), in order: slide i frames screen i, cycling when there are fewer screens than slides. Without it, the app's uploaded screens of the device's family are used in upload order, else the listing's own screenshots. An id that is not a live screen of this app is 404 `screen_not_found`.",
      }),
    ),
    // The planner's limits, with what a locale costs (the sets' business, so not in core's schema).
    locales: Type.Optional(
      Type.Array(plan.locales.items, {
        minItems: plan.locales.minItems,
        maxItems: plan.locales.maxItems,
        uniqueItems: plan.locales.uniqueItems,
        examples: plan.locales.examples as unknown,
        description: [
          `One set per locale, in one job: up to ${MAX_LOCALES} distinct tags. **Costs ${SCREENSHOT_SET_COST} credits per locale** (\`credits.cost\` = ${SCREENSHOT_SET_COST} × the number of locales), charged at once and refunded whole if the job fails.`,
          "The result then has `locales: [{ locale, slides, warnings }]` in this order, and its `slides` and `warnings` are the first locale's.",
          "A locale in the listing's language (any region) gets the built-in captions. Another language is translated by the server's caption model, checked by the same caption rules (lengths count a full-width CJK character as 2, so a short Japanese headline holds 15); without a configured model such a locale is refused with 400 `validation_failed` naming it, and nothing is charged.",
          'If the model cannot translate a locale (after one retry), the job is retried later and, failing again, fails with `planning_failed` and is refunded; a set is never shipped in the wrong language.',
          "Not allowed together with `slides`. Omitted: one set in the listing's language, and no `locales` in the result.",
        ].join(' '),
      }),
    ),
  },
  { additionalProperties: false, title: 'CreateScreenshotSetRequest' },
);

const Created = Type.Object(
  {
    jobId: Type.String({ examples: ['job_01JD2ZK5T8Q3W4E5R6T7Y8U9EF'] }),
    credits: Type.Object({
      cost: Type.Integer({
        examples: [SCREENSHOT_SET_COST],
        description: `Credits charged: ${SCREENSHOT_SET_COST}, or ${SCREENSHOT_SET_COST} per locale with \`locales\`.`,
      }),
      remaining: Type.Integer({ examples: [45] }),
    }),
    warnings: Type.Array(Type.String(), {
      description:
        "What planning found before the charge, e.g. a Mac App Store listing for an iPhone set, or a story changed to fit what the listing says. The job's result repeats them with what it finds later.",
    }),
  },
  { title: 'ScreenshotSetAccepted' },
);

const Headers = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: IDEMPOTENCY_KEY_MAX,
      description: 'Makes retries safe: the same key and body within 24 hours replay the first response and charge nothing more.',
    }),
  ),
});

/** What the create and its estimate refuse alike (./estimate-screenshot-set.ts). */
export const setProblems = {
  402: problemRef(
    `Fewer credits remain than the request costs (\`insufficient_credits\`, with cost — ${SCREENSHOT_SET_COST} per locale — remaining and resetsAt).`,
    problemExample('insufficient_credits', `This request costs ${SCREENSHOT_SET_COST} credits; 3 remain until 2026-12-01T00:00:00Z.`, {
      cost: SCREENSHOT_SET_COST,
      remaining: 3,
      resetsAt: '2026-12-01T00:00:00Z',
    }),
  ),
  404: problemRef(
    'No such app on this account (`app_not_found`), or a screen in `screenIds` or `slides` that is not one of its screens (`screen_not_found`).',
    problemExample('app_not_found', 'No app app_01JD2ZK5T8Q3W4E5R6T7Y8U9CD on this account.'),
  ),
};

export const CANNOT_FILL =
  '(`cannot_fill_set`: the listing supports fewer slides whose captions pass the caption checks and no caption model is configured, or the device family has neither listing screenshots nor uploaded screens, a Mac app’s listing naming the `mac` device); `detail` says how many it supports and what to add (extraContext, your own slides, screens). `supported` is counted on a narrative’s own slides when one is named (fixes: extraContext, slides, and narrativeId with `defaultStorySupported` when the default story fills that many slides), and is 0 when fewer slides would only say what any app says. When the listing’s unsaid lines pass every check but the short headline’s characters, `fixes` starts with `captionLength` and `detail` names the length that holds them. Nothing is charged.';
export const cannotFillExample = problemExample(
  'cannot_fill_set',
  'The listing supports 3 slides with captions that pass the caption checks, not the 6 asked for. Add a few lines about the app as extraContext (POST /public/v1/apps), write the captions yourself with "slides", or ask for fewer slides.',
  { asked: 6, supported: 3, fixes: ['extraContext', 'slides', 'count'] },
);

/**
 * The dry run was a body flag here (`dryRun: true`, answered 200) until it became its own operation,
 * so that this one has one success status and a generated client one type for its answer. A client
 * still sending it gets a refusal that names the new operation, and is never charged for a check.
 */
function refuseDryRun(body: unknown): void {
  if (body && typeof body === 'object' && 'dryRun' in body)
    throw validationFailed([
      {
        field: 'dryRun',
        message:
          'is not accepted: ask POST /public/v1/screenshots/estimate with the same body for a check that creates and charges nothing',
      },
    ]);
}

export function createScreenshotSet(api: Api, services: Services) {
  const jobsPath = `${services.config.basePath}/public/v1/jobs/`;
  api.post(
    '/public/v1/screenshots',
    {
      config: { auth: true },
      preValidation: async (request) => refuseDryRun(request.body),
      schema: {
        operationId: 'createScreenshotSet',
        summary: `Plan a screenshot set as a background job (${SCREENSHOT_SET_COST} credits, ${SCREENSHOT_SET_COST} per locale)`,
        description: `Charges ${SCREENSHOT_SET_COST} credits (${SCREENSHOT_SET_COST} per locale with \`locales\`) and queues a job that plans the set; poll the job at the Location header. A job that fails is refunded in full. To see the price and the warnings first without spending anything, POST the same body to /public/v1/screenshots/estimate.`,
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
          ...setProblems,
          409: problemRef(
            'A request with the same Idempotency-Key is still being processed (`idempotency_key_in_use`).',
            undefined,
            RETRY_AFTER,
          ),
          422: problemRef(
            `The Idempotency-Key was used with a different body (\`idempotency_key_reused\`), or the set cannot have the slides asked for ${CANNOT_FILL}`,
            cannotFillExample,
          ),
        },
      },
    },
    async (request, reply) => {
      const accountId = principalOf(request).accountId;
      const asked = request.body;
      const { body, replayed } = await create(services.db, accountId, asked, {
        now: services.clock(),
        idempotencyKey: request.headers['idempotency-key'],
        onCharged: (id) => services.accountViews.invalidate(id),
        canTranslate: !!services.config.llm,
        notifier: services.notifier,
      });
      reply.code(201).header('location', jobsPath + body.jobId);
      if (replayed) reply.header('idempotent-replayed', 'true');
      return body;
    },
  );
}
