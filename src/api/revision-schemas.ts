/** The fields a revision or a preview may change on a slide: one schema for both operations. */
import { Type } from '@sinclair/typebox';
import { THEME_IDS } from '../core/themes.ts';
import { LAYOUTS } from '../planning/look.ts';
import { MAX_COUNT, OWN_SLIDE_LIMITS } from '../core/set.ts';
import { FocusSchema } from '../core/set-schemas.ts';
import { StringEnum } from './schemas.ts';

const HEX = Type.String({ pattern: '^#[0-9A-Fa-f]{6}$', examples: ['#0B5FFF'] });

export const slideChangeFields = {
  headline: Type.Optional(Type.String({ minLength: 1, maxLength: OWN_SLIDE_LIMITS.headline, examples: ['Find orders quickly'] })),
  subheadline: Type.Optional(
    Type.Union([Type.String({ minLength: 1, maxLength: OWN_SLIDE_LIMITS.subheadline }), Type.Null()], { description: 'null removes it.' }),
  ),
  screenId: Type.Optional(Type.String({ maxLength: 64, description: "One of the app's uploaded screens (scr_…) to frame instead." })),
  layout: Type.Optional(StringEnum(LAYOUTS)),
  focus: Type.Optional(
    Type.Union([FocusSchema, Type.Null()], {
      description:
        "A region of the slide's uploaded screen (x, y, w, h in its pixels, within it) drawn enlarged as a callout; null removes it. A new screenId without a focus drops the old one.",
    }),
  ),
  background: Type.Optional(
    Type.Object({ colors: Type.Array(HEX, { minItems: 1, maxItems: 4 }) }, { additionalProperties: false, description: 'Gradient stops.' }),
  ),
  textColor: Type.Optional(HEX),
};

export const SlideEditSchema = Type.Object(
  {
    index: Type.Integer({ minimum: 1, maximum: MAX_COUNT, description: "The parent's slide, 1-based." }),
    locale: Type.Optional(
      Type.String({
        maxLength: 35,
        examples: ['de-DE'],
        description:
          "In a set of several locales, the locale whose captions this edit changes (then only `headline` and `subheadline` may be given). Absent: the set's first locale's captions, and the slide's screen, layout and colours in every locale.",
      }),
    ),
    ...slideChangeFields,
  },
  { additionalProperties: false, title: 'SlideEdit' },
);

export const AddedSlideSchema = Type.Object(
  { ...slideChangeFields, headline: Type.String({ minLength: 1, maxLength: OWN_SLIDE_LIMITS.headline }) },
  { additionalProperties: false, title: 'AddedSlide' },
);

export const ThemeSchema = StringEnum(THEME_IDS, {
  description:
    "The whole set's look. Omitted: the theme the set was drawn in (its result's `theme`: the request's, else the brand kit's default). A revision's result names the theme it was drawn in.",
});
