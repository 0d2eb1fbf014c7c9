import { Type, type Static } from '@sinclair/typebox';
import { checkCreateAppInput, createApp as createAppRecord, EXTRA_CONTEXT_MAX, type App } from '../apps/apps.ts';
import {
  DEFAULT_OWN_LANGUAGE,
  LANGUAGE_PATTERN,
  OWN_DESCRIPTION_MAX,
  OWN_NAME_MAX,
  PRICE_PATTERN,
  STORE_CATEGORIES,
} from '../apps/own-listing.ts';
import { fieldErrors } from '../http/problems.ts';
import { validationFailed } from '../core/problem.ts';
import { principalOf } from '../http/auth.ts';
import type { PictureLinks } from '../sets/present.ts';
import { pictureLinks } from '../http/picture-links.ts';
import type { Api, Services } from '../http/services.ts';
import { Nullable } from '../core/typebox.ts';
import { bodyProblems, commonProblems, problemExample, problemRef, RETRY_AFTER, StringEnum, success } from './schemas.ts';

export const IOS_URL = Type.String({
  maxLength: 2048,
  description: 'App Store URL: https://apps.apple.com/{cc}/app/{slug}/id{digits} (or itunes.apple.com, or /app/id{digits}).',
  examples: ['https://apps.apple.com/us/app/notability/id360593530'],
});
export const ANDROID_URL = Type.String({
  maxLength: 2048,
  description: 'Google Play URL: https://play.google.com/store/apps/details?id={package}[&hl=..][&gl=..].',
  examples: ['https://play.google.com/store/apps/details?id=com.mojang.minecraftpe&hl=en&gl=us'],
});

const OwnListingBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: OWN_NAME_MAX, description: 'The app’s name, 1–30 characters.', examples: ['Tidewell'] }),
    subtitle: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: OWN_NAME_MAX,
        description: 'The App Store subtitle or Play short description, 1–30 characters.',
        examples: ['Sleep sounds & bedtime routine'],
      }),
    ),
    description: Type.String({
      minLength: 1,
      maxLength: OWN_DESCRIPTION_MAX,
      description:
        'The store description, 1–4,000 characters. Without a caption model the captions are drawn from its own words: a line per feature ("Track every habit in one tap") gives them the most to work with.',
    }),
    category: StringEnum(STORE_CATEGORIES, {
      description:
        'An App Store or Google Play category, spelled as the store names it in English (App Store: Productivity, Health & Fitness, Photo & Video …; Google Play: Tools, Maps & Navigation, Music & Audio …; game genres of both).',
      examples: ['Health & Fitness'],
    }),
    language: Type.Optional(
      Type.String({
        pattern: LANGUAGE_PATTERN,
        default: DEFAULT_OWN_LANGUAGE,
        description: 'The listing’s language as a BCP 47 tag ("en-US", "de-DE"; "fr" means fr-FR).',
        examples: ['en-US'],
      }),
    ),
    price: Type.Optional(
      Type.String({
        pattern: PRICE_PATTERN,
        default: '0',
        description: 'The price as a decimal string without currency, "0" when free: a paid app’s captions never say free.',
        examples: ['0', '4.99'],
      }),
    ),
  },
  { additionalProperties: false, title: 'OwnListing', description: 'The listing text of an app that is not in a store yet.' },
);

export const CreateAppBody = Type.Object(
  {
    iosUrl: Type.Optional(IOS_URL),
    androidUrl: Type.Optional(ANDROID_URL),
    listing: Type.Optional(OwnListingBody),
    extraContext: Type.Optional(
      Type.String({
        maxLength: EXTRA_CONTEXT_MAX,
        description: 'Guidance for the captions; outranks the store description. At most 2000 characters (code points).',
        examples: ['Focus on offline mode and the new widgets.'],
      }),
    ),
  },
  {
    additionalProperties: false,
    title: 'CreateAppRequest',
    description:
      'Exactly one source: iosUrl and/or androidUrl (the store listings are read), or listing (an app not in a store yet; nothing is read). listing with a URL is validation_failed.',
  },
);

export const AppResponse = Type.Object(
  {
    appId: Type.String({ description: 'Opaque id: app_ plus a sortable, unguessable id.', examples: ['app_01JD2ZK5T8Q3W4E5R6T7Y8U9CD'] }),
    name: Type.String({ examples: ['Minecraft'] }),
    category: Type.String({ description: 'The store’s own category name.', examples: ['Arcade'] }),
    artworkUrl: Nullable(
      Type.String({
        format: 'uri',
        description:
          'https icon URL, 512 px or larger; for an uploaded icon (PUT /public/v1/apps/{appId}/icon) a signed URL valid 7 days. Null for an app created from its own listing until an icon is uploaded.',
        examples: ['https://play-lh.googleusercontent.com/abc=s512'],
      }),
    ),
  },
  { title: 'App' },
);

/** The app as every apps operation answers it: an uploaded icon through a signed URL of its own. */
export function appView(
  app: Pick<App, 'id' | 'name' | 'category' | 'artworkUrl' | 'icon'>,
  links: PictureLinks,
): Static<typeof AppResponse> {
  const icon = app.icon ? `${links.origin}${links.signer.sign(`${links.basePath}/public/v1/apps/${app.id}/icon`, links.now)}` : null;
  return { appId: app.id, name: app.name, category: app.category, artworkUrl: icon ?? app.artworkUrl };
}

export function createApp(api: Api, services: Services) {
  api.post(
    '/public/v1/apps',
    {
      config: { auth: true },
      // Schema errors are merged with the URL checks below, so one answer lists every problem.
      attachValidation: true,
      schema: {
        operationId: 'createApp',
        summary: 'Create an app from its store listing URL(s) or its own listing text',
        description:
          'From iosUrl and/or androidUrl: reads the App Store and/or Google Play listing (the service builds the store request from the parsed id; it never fetches the given URL) and stores the app with its listings; with both URLs, name, category and artworkUrl come from the App Store listing. From listing: an app that is not in a store yet, made from its own text without asking any store (artworkUrl is null until PUT /public/v1/apps/{appId}/icon); it plans, renders and revises like any other with uploaded screens, and is published once a store URL is added (PATCH /public/v1/apps/{appId}).',
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
      // Its usual set's facts are planned before the app is answered (the rest follow in the
      // background), so even a create sent at once reads them instead of planning in its request.
      await services.planFillChecks?.(app);
      return appView(app, pictureLinks(services, request));
    },
  );
}
