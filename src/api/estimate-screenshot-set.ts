import { Type } from '@sinclair/typebox';
import { principalOf } from '../http/auth.ts';
import type { Api, Services } from '../http/services.ts';
import { estimateScreenshotSet as estimate, SCREENSHOT_SET_COST } from '../sets/create.ts';
import { CANNOT_FILL, cannotFillExample, CreateScreenshotSetBody, setProblems } from './create-screenshot-set.ts';
import { bodyProblems, commonProblems, problemRef, success } from './schemas.ts';

const Estimate = Type.Object(
  {
    slides: Type.Integer({
      minimum: 1,
      examples: [5],
      description: 'How many slides the set will have (in each locale, with `locales`).',
    }),
    warnings: Type.Array(Type.String(), {
      description:
        'What planning finds before the charge, as the create answers it: e.g. a Mac App Store listing for an iPhone set, or a story changed to fit what the listing says.',
    }),
    credits: Type.Object({
      cost: Type.Integer({
        examples: [SCREENSHOT_SET_COST],
        description: `What the create would charge: ${SCREENSHOT_SET_COST}, or ${SCREENSHOT_SET_COST} per locale with \`locales\`.`,
      }),
      remaining: Type.Integer({ examples: [50], description: 'Credits left now; nothing was charged.' }),
    }),
  },
  { title: 'ScreenshotSetEstimate' },
);

export function estimateScreenshotSet(api: Api, services: Services) {
  api.post(
    '/public/v1/screenshots/estimate',
    {
      config: { auth: true },
      schema: {
        operationId: 'estimateScreenshotSet',
        summary: 'Check a screenshot set before creating it: its slides, price and warnings (free)',
        description:
          'Takes the body of POST /public/v1/screenshots and makes every check that create makes, with the same refusals, but creates and charges nothing. Clients use it to show the price and the warnings before they spend credits.',
        tags: ['screenshots'],
        body: CreateScreenshotSetBody,
        response: {
          200: success(Estimate, 'The set could be created now, at this price; nothing was created or charged.'),
          ...bodyProblems,
          ...commonProblems,
          ...setProblems,
          422: problemRef(`The set cannot have the slides asked for ${CANNOT_FILL}`, cannotFillExample),
        },
      },
    },
    async (request) =>
      estimate(services.db, principalOf(request).accountId, request.body, {
        now: services.clock(),
        canTranslate: !!services.config.llm,
      }),
  );
}
