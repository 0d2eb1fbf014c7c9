import { Type } from '@sinclair/typebox';
import { checkCreateAppInput, createApp as createAppRecord, EXTRA_CONTEXT_MAX } from '../apps/apps.ts';
import { fieldErrors } from '../http/problems.ts';
import { validationFailed } from '../core/problem.ts';
import { principalOf } from '../http/auth.ts';
import type { Api, Services } from '../http/services.ts';
import { bodyProblems, commonProblems, problemExample, problemRef, RETRY_AFTER, success } from './schemas.ts';

export const CreateAppBody = Type.Object(
  {
    iosUrl: Type.Optional(
      Type.String({
        maxLength: 2048,
        description: 'App Store URL: https://apps.apple.com/{cc}/app/{slug}/id{digits} (or itunes.apple.com, or /app/id{digits}).',
        examples: ['https://apps.apple.com/us/app/notability/id360593530'],
      }),
    ),
    androidUrl: Type.Optional(
      Type.String({
        maxLength: 2048,
        description: 'Google Play URL: https://play.google.com/store/apps/details?id={package}[&hl=..][&gl=..].',
        examples: ['https://play.google.com/store/apps/details?id=com.mojang.minecraftpe&hl=en&gl=us'],
      }),
    ),
    extraContext: Type.Optional(
      Type.String({
        maxLength: EXTRA_CONTEXT_MAX,
        description: 'Guidance for the captions; outranks the store description. At most 2000 characters (code points).',
        examples: ['Focus on offline mode and the new widgets.'],
      }),
    ),
  },
  { additionalProperties: false, title: 'CreateAppRequest', description: 'At least one of iosUrl and androidUrl.' },
);

const AppResponse = Type.Object(
  {
    appId: Type.String({ description: 'Opaque id: app_ plus a sortable, unguessable id.', examples: ['app_01JD2ZK5T8Q3W4E5R6T7Y8U9CD'] }),
    name: Type.String({ examples: ['Minecraft'] }),
    category: Type.String({ description: 'The store’s own category name.', examples: ['Arcade'] }),
    artworkUrl: Type.String({
      format: 'uri',
      description: 'https icon URL, 512 px or larger.',
      examples: ['https://play-lh.googleusercontent.com/abc=s512'],
    }),
  },
  { title: 'App' },
);

export function createApp(api: Api, services: Services) {
  api.post(
    '/public/v1/apps',
    {
      config: { auth: true },
      // Schema errors are merged with the URL checks below, so one answer lists every problem.
      attachValidation: true,
      schema: {
        operationId: 'createApp',
        summary: 'Create an app from its store listing URL(s)',
        description:
          'Reads the App Store and/or Google Play listing (the service builds the store request from the parsed id; it never fetches the given URL) and stores the app with its listings. With both URLs, name, category and artworkUrl come from the App Store listing.',
        tags: ['apps'],
        body: CreateAppBody,
        response: {
          200: success(AppResponse, 'The app was created from its listing(s).'),
          ...bodyProblems,
          ...commonProblems,
          422: problemRef(
            'The store has no such app in that country (`store_app_not_found`).',
            problemExample('store_app_not_found', 'The App Store has no app with id 123 in the us storefront.'),
          ),
          502: problemRef(
            'The store did not answer in time or answered with an error (`store_unavailable`); see Retry-After.',
            problemExample('store_unavailable', 'The App Store did not answer in time. Retry later.'),
            RETRY_AFTER,
          ),
        },
      },
    },
    async (request) => {
      if (request.validationError) {
        const schemaErrors = fieldErrors(request.validationError.validation as Parameters<typeof fieldErrors>[0], 'body');
        const seen = new Set(schemaErrors.map((e) => e.field));
        const domainErrors = checkCreateAppInput(request.body).errors.filter((e) => !seen.has(e.field));
        throw validationFailed([...schemaErrors, ...domainErrors]);
      }
      const app = await createAppRecord(services.db, services.stores, principalOf(request).accountId, request.body);
      return { appId: app.id, name: app.name, category: app.category, artworkUrl: app.artworkUrl };
    },
  );
}
