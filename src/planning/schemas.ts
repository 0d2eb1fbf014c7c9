/**
 * The shape of a planned screenshot set, as TypeBox schemas: the one source for the planner's
 * types (types.ts derives them with Static<>), the job's stored result and the API's response
 * schema and OpenAPI document.
 */
import { Type } from '@sinclair/typebox';
import { Nullable, StringEnum } from '../typebox.ts';
import { CAPTION_LENGTH_IDS, CAPTION_STYLE_IDS, DEVICE_IDS } from './types.ts';

const HEX = '^#[0-9A-F]{6}$';

export const SlideSchema = Type.Object(
  {
    index: Type.Integer({ minimum: 1, maximum: 10 }),
    role: Type.String({ description: 'The slide’s part in the story: hero, feature, social-proof, how-it-works, call-to-action, …', examples: ['hero'] }),
    headline: Type.String({ maxLength: 60, description: 'short: at most 30 characters; long: at most 40; your own (request `slides`): at most 60, as written.', examples: ['Plan Every Meal in Seconds'] }),
    subheadline: Nullable(Type.String({ maxLength: 140 }), { description: 'null for short captions; at most 100 (140 for your own).' }),
    screenId: Type.Optional(Type.String({ description: 'The uploaded screen chosen for this slide in the request, when one was.' })),
    keywords: Type.Array(Type.String()),
    screenshotUrl: Nullable(Type.String({ format: 'uri' }), { description: 'One of the listing’s screenshots for the device family, or null (text-only layout).' }),
    layout: Type.String({ examples: ['headline-top'] }),
    background: Type.Object({ colors: Type.Array(Type.String({ pattern: HEX }), { minItems: 1 }) }),
    textColor: Type.String({ pattern: HEX }),
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
            'Only when the request had `locales`: one set per locale, in the request\'s order. Every locale has the same roles, screens, layout and colours; only the captions (and keywords) differ. `slides` and `warnings` above are the first locale\'s.',
        },
      ),
    ),
  },
  { title: 'ScreenshotSet' },
);
