/**
 * The shape of a planned screenshot set, as TypeBox schemas: the one source for the planner's
 * types (types.ts derives them with Static<>), the job's stored result and the API's response
 * schema and OpenAPI document.
 */
import { Type } from '@sinclair/typebox';
import { Nullable, StringEnum } from '../typebox.ts';
import { CAPTION_LENGTH_IDS, CAPTION_STYLE_IDS, DEVICE_IDS } from './types.ts';

const HEX = '^#[0-9A-F]{6}$';

export const SlideImageSchema = Type.Object(
  {
    url: Type.String({
      format: 'uri',
      description:
        'The PNG, signed: fetch it without the API key until the URL expires (7 days; every poll returns fresh URLs). With the key, the same path without the query works too.',
    }),
    width: Type.Integer({ examples: [1320] }),
    height: Type.Integer({ examples: [2868] }),
    format: Type.Literal('png'),
    bytes: Type.Integer(),
    sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  },
  { title: 'SlideImage', description: 'The rendered slide: exactly the device size, 8-bit sRGB PNG without alpha, at most 8 MB.' },
);

export const ArchiveSchema = Type.Object(
  {
    url: Type.String({ format: 'uri', description: 'The ZIP, signed like the slide URLs.' }),
    bytes: Type.Integer(),
    sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  },
  { title: 'SetArchive', description: 'Every slide in fastlane deliver/supply layout, plus plan.json.' },
);

export const SlideSchema = Type.Object(
  {
    index: Type.Integer({ minimum: 1, maximum: 10 }),
    role: Type.String({
      description: 'The slide’s part in the story: hero, feature, social-proof, how-it-works, call-to-action, …',
      examples: ['hero'],
    }),
    headline: Type.String({
      maxLength: 60,
      description: 'short: at most 30 characters; long: at most 40; your own (request `slides`): at most 60, as written.',
      examples: ['Plan Every Meal in Seconds'],
    }),
    subheadline: Nullable(Type.String({ maxLength: 140 }), { description: 'null for short captions; at most 100 (140 for your own).' }),
    screenId: Type.Optional(
      Type.String({ description: 'The uploaded screen this slide frames (from the request, or the app’s screens of the device family).' }),
    ),
    keywords: Type.Array(Type.String()),
    screenshotUrl: Nullable(Type.String({ format: 'uri' }), {
      description:
        'The listing’s screenshot this slide frames, or null: it frames an uploaded screen (screenId) or none (text-only layout).',
    }),
    layout: Type.String({ examples: ['headline-top'] }),
    background: Type.Object({ colors: Type.Array(Type.String({ pattern: HEX }), { minItems: 1 }) }),
    textColor: Type.String({ pattern: HEX }),
    image: Type.Optional(SlideImageSchema),
  },
  { title: 'Slide' },
);

export const ScreenshotSetResultSchema = Type.Object(
  {
    device: StringEnum(DEVICE_IDS),
    width: Type.Integer(),
    height: Type.Integer(),
    narrativeId: Nullable(Type.String()),
    captionStyle: StringEnum(CAPTION_STYLE_IDS),
    captionLength: StringEnum(CAPTION_LENGTH_IDS),
    slides: Type.Array(SlideSchema, { minItems: 1, maxItems: 10 }),
    warnings: Type.Array(Type.String()),
    archive: Type.Optional(ArchiveSchema),
    locales: Type.Optional(
      Type.Array(
        Type.Object(
          {
            locale: Type.String({ examples: ['de-DE'] }),
            slides: Type.Array(SlideSchema, { minItems: 1, maxItems: 10 }),
            warnings: Type.Array(Type.String()),
          },
          { title: 'LocaleSet' },
        ),
        {
          minItems: 1,
          maxItems: 10,
          description:
            "Only when the request had `locales`: one set per locale, in the request's order. Every locale has the same roles, screens, layout and colours; only the captions (and keywords) differ. `slides` and `warnings` above are the first locale's.",
        },
      ),
    ),
  },
  { title: 'ScreenshotSet' },
);
