/**
 * The shape of a planned screenshot set, as TypeBox schemas: the one source for the planner's
 * types (types.ts derives them with Static<>), the job's stored result and the API's response
 * schema and OpenAPI document.
 */
import { Type } from '@sinclair/typebox';
import { Nullable, StringEnum } from './typebox.ts';
import { NARRATIVES, ROLES } from './narratives.ts';
import {
  CAPTION_LENGTH_IDS,
  CAPTION_STYLE_IDS,
  CAPTION_STYLES,
  DEFAULT_CAPTION_LENGTH,
  DEFAULT_CAPTION_STYLE,
  DEFAULT_COUNT,
  MAX_COUNT,
  OWN_SLIDE_LIMITS,
} from './set.ts';
import { DEVICE_IDS, DEVICES, outputSizes, sizeName } from './devices.ts';
import { ORIENTATIONS, slideSize } from './orientation.ts';
import { LOCALE_PATTERN, MAX_LOCALES } from './locales.ts';
import { PictureSchema, SetBrandSchema, ThemeSchema } from './brand-schemas.ts';

const HEX = '^#[0-9A-F]{6}$';

const describeSizes = DEVICE_IDS.filter((d) => outputSizes(d).length > 1)
  .map((d) => `\`${d}\` ${outputSizes(d).map(sizeName).join(', ')}`)
  .join('; ');
const describeDevices = DEVICE_IDS.map((d) => `\`${d}\`: ${DEVICES[d].width}×${DEVICES[d].height} (${DEVICES[d].slot})`).join('; ');
const describeTurned = DEVICE_IDS.filter((d) => DEVICES[d].family !== 'mac' && d !== 'ipad-pro')
  .map((d) => `\`${d}\` ${sizeName(slideSize(d, 'landscape'))}`)
  .join(', ');
const describeStyles = CAPTION_STYLE_IDS.map((s) => `\`${s}\`: ${CAPTION_STYLES[s]}`).join(' ');

/**
 * What the planner is asked for: the request's planning fields, one schema for the API's body
 * (api/create-screenshot-set.ts spreads these properties into it, so the OpenAPI document shows
 * them as before) and for the planner's own check of its input (planning/plan.ts compiles it), so
 * that the API and the CLI refuse the same requests alike. Not closed (`additionalProperties`): the
 * API's body closes it, and the planner is handed the body's other fields too. `locales` has no
 * description here: the API's says what a locale costs, which is the sets' business, not core's.
 */
/** A region of a slide's screen, in the screen's own pixels: shown zoomed, as a callout. */
export const FocusSchema = Type.Object(
  {
    x: Type.Integer({ minimum: 0, description: 'Left edge, in the screen’s pixels.' }),
    y: Type.Integer({ minimum: 0, description: 'Top edge.' }),
    w: Type.Integer({ minimum: 1, description: 'Width.' }),
    h: Type.Integer({ minimum: 1, description: 'Height.' }),
  },
  {
    additionalProperties: false,
    title: 'Focus',
    description:
      'One region of the slide’s screen (x, y, w, h in the screen’s pixels, within it: 400 otherwise) drawn enlarged over the device as a callout, to pull one UI element out. Meant for feature slides; needs the slide’s own uploaded screen (screenId).',
    examples: [{ x: 40, y: 420, w: 1100, h: 360 }],
  },
);

export const PlanRequestSchema = Type.Object({
  device: StringEnum(DEVICE_IDS, { description: `The device the set is planned for. ${describeDevices}.`, examples: ['iphone-69'] }),
  size: Type.Optional(
    Type.String({
      pattern: '^[1-9][0-9]{2,4}x[1-9][0-9]{2,4}$',
      examples: ['2560x1600'],
      description: `The slides' pixel size, \`WIDTHxHEIGHT\`, when the store slot takes another of the device's shape: ${describeSizes}. Omitted: the device's own size. Another size is 400 \`validation_failed\` naming the sizes the device offers.`,
    }),
  ),
  orientation: Type.Optional(
    StringEnum(ORIENTATIONS, {
      description: `The slides upright (\`portrait\`) or turned (\`landscape\`): ${describeTurned}; \`mac\` is always landscape (\`portrait\` is 400 \`validation_failed\`). Omitted: landscape when every screen the set frames (the listing's for the device, or your uploads) is landscape, else the device's own. Screens of the other orientation are shown too, in their own orientation, only when too few match.`,
    }),
  ),
  count: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_COUNT,
      description: `Number of slides asked for, default ${DEFAULT_COUNT}; ignored when narrativeId is set; not allowed with slides. The set has EXACTLY this many slides: when the listing says too little for that many captions that pass the caption checks (and no caption model is configured), the request is refused with 422 \`cannot_fill_set\` before anything is charged.`,
    }),
  ),
  captionStyle: Type.Optional(
    StringEnum(CAPTION_STYLE_IDS, { description: `Voice of the captions, default \`${DEFAULT_CAPTION_STYLE}\`. ${describeStyles}` }),
  ),
  captionLength: Type.Optional(
    StringEnum(CAPTION_LENGTH_IDS, {
      // No schema `default`: the validator would fill it in before planDefaults, the one place defaults are applied.
      description: `\`short\`: headline ≤ 30 characters, no subheadline. \`long\`: headline ≤ 40 plus a subheadline ≤ 100. Default \`${DEFAULT_CAPTION_LENGTH}\`; with your own \`slides\`, \`long\` when any has a subheadline or a headline over 30 characters.`,
    }),
  ),
  narrativeId: Type.Optional(
    StringEnum(
      NARRATIVES.map((n) => n.id),
      { description: 'A slug from GET /public/v1/narratives; sets the number of slides.' },
    ),
  ),
  slides: Type.Optional(
    Type.Array(
      Type.Object(
        {
          headline: Type.String({ minLength: 1, maxLength: OWN_SLIDE_LIMITS.headline, description: 'Shown exactly as written.' }),
          subheadline: Type.Optional(Type.String({ maxLength: OWN_SLIDE_LIMITS.subheadline })),
          screenId: Type.Optional(
            Type.String({
              pattern: '^scr_[0-9A-HJKMNP-TV-Z]{26}$',
              description: 'An uploaded screen (POST /public/v1/apps/{appId}/screens) for this slide; otherwise the planner picks one.',
            }),
          ),
          focus: Type.Optional(FocusSchema),
        },
        { additionalProperties: false, title: 'OwnSlide' },
      ),
      {
        minItems: OWN_SLIDE_LIMITS.min,
        maxItems: OWN_SLIDE_LIMITS.max,
        description:
          'Captions you write yourself: the set has exactly these slides, with this text (the planner picks colours, layout and, without screenId, the screen). Not allowed together with count, narrativeId or locales (400 validation_failed). Same price.',
      },
    ),
  ),
  locales: Type.Optional(
    Type.Array(
      Type.String({
        pattern: LOCALE_PATTERN,
        description: 'A BCP 47 language-REGION tag with a known language and region.',
        examples: ['de-DE'],
      }),
      { minItems: 1, maxItems: MAX_LOCALES, uniqueItems: true, examples: [['en-US', 'de-DE', 'ja-JP']] },
    ),
  ),
});

export const SlideImageSchema = Type.Object(
  {
    url: Type.String({
      format: 'uri',
      description:
        'The PNG, signed: fetch it without the API key until the URL expires (7 days; every poll returns fresh URLs). With the key, the same path without the query works too.',
    }),
    width: Type.Integer({ examples: [1320] }),
    height: Type.Integer({ examples: [2868] }),
    format: Type.Union([Type.Literal('png'), Type.Literal('jpeg')], {
      description: 'png, or jpeg (quality 92) for the rare slide whose PNG would pass 8 MB even compressed hard.',
    }),
    bytes: Type.Integer(),
    sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  },
  {
    title: 'SlideImage',
    description:
      "The rendered slide: exactly the set's size (the device's, turned for a landscape set), 8-bit sRGB without alpha, at most 8 MB.",
  },
);

export const SlideLintSchema = Type.Object(
  {
    width: Type.Integer({ description: 'Pixel width of the file.' }),
    height: Type.Integer(),
    alpha: Type.Boolean({ description: 'Whether the file has an alpha channel (never: the stores refuse it).' }),
    bytes: Type.Integer({ description: 'File size; never over 8 MB.' }),
    format: Type.Union([Type.Literal('png'), Type.Literal('jpeg')]),
    lines: Type.Object(
      {
        headline: Type.Array(Type.String(), { description: 'The text of each drawn line of the headline.' }),
        subheadline: Type.Array(Type.String()),
      },
      { description: 'Where the lines broke, as drawn.' },
    ),
    missingGlyphs: Type.Array(Type.String(), { description: 'Characters no bundled font has: drawn as nothing. Empty when all is drawn.' }),
    minFontPx: Type.Integer({ description: 'The smallest text on the slide, in pixels.' }),
    minFontThumbnailPt: Type.Number({
      description:
        'That size in points where shoppers decide: a screenshot in App Store and Play search results (about 110 pt wide). At least 5.',
    }),
    headlineSearchPt: Type.Optional(
      Type.Number({
        description:
          'The headline’s size in points where the slide is smallest in the store: its search results (about 112 pt wide for an iPhone portrait slide, 104 dp on a Play phone; docs/typography.md).',
      }),
    ),
    warnings: Type.Optional(
      Type.Array(Type.String(), {
        description: 'What a designer would fix on this slide: a headline under 7 pt in the store’s search results. Empty when none.',
      }),
    ),
    contrast: Type.Number({ description: 'WCAG 2 contrast ratio of the text against the background under it (lowest).' }),
    screenCroppedPct: Nullable(Type.Number(), {
      description:
        'Share of the screen image cut to fit its display’s shape, in %; null without a screen. What bleeds off the slide’s edge by design is screenBleedPct.',
    }),
    screenBleedPct: Type.Optional(
      Nullable(Type.Number(), {
        description:
          'Share of the drawn screen past the slide’s edge, in %: a device larger than the room beside the text bleeds off the bottom (or, under a bottom headline, the top) rather than shrink. null without a screen.',
      }),
    ),
    screenUpscaledPct: Nullable(Type.Number(), {
      description: 'How much the screen image was enlarged, in % (0: drawn at or below its own size).',
    }),
    marketingImage: Nullable(Type.String(), {
      description:
        'Why the screen was not framed: it already is a marketing picture (a framed device, a caption band, or a shape no display of the family has). The slide then shows it whole, without a frame, under its caption.',
    }),
    problems: Type.Array(Type.String(), { description: 'Store rules the file breaks: always empty in a succeeded job.' }),
  },
  { title: 'SlideLint', description: 'What the renderer checked on this slide’s picture before the job succeeded.' },
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
    role: StringEnum([...ROLES], { description: 'The slide’s part in the story (the narrative’s roles).', examples: ['hero'] }),
    captionSource: Type.Optional(
      StringEnum(['model', 'rules', 'user'], {
        description:
          'Who wrote this slide’s words: `model` (the configured caption model, checked), `rules` (the built-in writer, from the listing’s own phrases) or `user` (your own `slides`).',
      }),
    ),
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
    grounding: Type.Optional(
      Type.Object(
        {
          screenText: Type.Array(Type.String(), {
            description: 'The lines of the slide’s screen (as OCR read them) that the caption speaks of.',
          }),
          listing: Type.Array(Type.String(), { description: 'The listing’s sentences the caption rests on, closest first (at most 3).' }),
          extraContext: Type.Boolean({ description: 'Whether the caption draws on the app’s extraContext.' }),
        },
        {
          title: 'SlideGrounding',
          description:
            'What the caption rests on. Planned captions have it; your own (`slides`) and revised ones do not. With uploaded screens, each caption goes over the screen whose text it speaks of.',
        },
      ),
    ),
    screenshotUrl: Nullable(Type.String({ format: 'uri' }), {
      description:
        'The listing’s screenshot this slide frames, or null: it frames an uploaded screen (screenId) or none (text-only layout).',
    }),
    layout: Type.String({ examples: ['headline-top'] }),
    focus: Type.Optional(FocusSchema),
    background: Type.Object({ colors: Type.Array(Type.String({ pattern: HEX }), { minItems: 1 }) }),
    textColor: Type.String({ pattern: HEX }),
    image: Type.Optional(SlideImageSchema),
    lint: Type.Optional(SlideLintSchema),
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
    theme: Type.Optional(ThemeSchema('The theme the set was drawn in.')),
    rating: Type.Optional(
      Type.Object(
        { value: Type.Number({ minimum: 0, maximum: 5, examples: [4.8] }), count: Type.Integer({ minimum: 0, examples: [12840] }) },
        {
          title: 'StoreRating',
          description:
            "The listing's rating drawn under the hero's headline: present only when the store shows 50 ratings or more at 4.0 or better.",
        },
      ),
    ),
    brand: Type.Optional(SetBrandSchema),
    featureGraphic: Type.Optional(
      Type.Composite([PictureSchema], {
        title: 'FeatureGraphic',
        description:
          "Android sets only: Google Play's feature graphic, 1024×500 without alpha (icon, name, the hero headline, brand colours).",
      }),
    ),
    storePreview: Type.Optional(
      Type.Composite([PictureSchema], {
        title: 'StorePreview',
        description:
          "The set as a shopper sees it in the store's search results: icon, name and the first three slides at their real thumbnail size.",
      }),
    ),
    locales: Type.Optional(
      Type.Array(
        Type.Object(
          {
            locale: Type.String({ examples: ['de-DE'] }),
            slides: Type.Array(SlideSchema, { minItems: 1, maxItems: 10 }),
            warnings: Type.Array(Type.String()),
            featureGraphic: Type.Optional(
              Type.Composite([PictureSchema], {
                title: 'LocaleFeatureGraphic',
                description:
                  "Android sets only: this locale's Play feature graphic, with its own hero headline (the first locale's is also `featureGraphic` above).",
              }),
            ),
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
