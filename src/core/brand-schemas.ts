/** The brand's parts of a set's result and of the brand kit, as TypeBox schemas (API, OpenAPI, types). */
import { Type } from '@sinclair/typebox';
import { StringEnum } from './typebox.ts';
import { BRAND_FONT_IDS, BRAND_FONTS, THEME_IDS, THEMES } from './themes.ts';

const HEX = '^#[0-9A-F]{6}$';
export const BRAND_SOURCES = ['brand-kit', 'icon', 'app-name'] as const;

export const describeThemes = THEME_IDS.map((t) => `\`${t}\`: ${THEMES[t].name}`).join('; ');
export const describeFonts = BRAND_FONT_IDS.map((f) => `\`${f}\`: ${BRAND_FONTS[f].name}, ${BRAND_FONTS[f].use}`).join('; ');

export const ThemeSchema = (description: string) => StringEnum(THEME_IDS, { description: `${description} ${describeThemes}.` });

export const SetBrandSchema = Type.Object(
  {
    primary: Type.String({ pattern: HEX, examples: ['#1DB954'] }),
    secondary: Type.String({ pattern: HEX, examples: ['#168D40'] }),
    textColor: Type.String({
      pattern: HEX,
      description:
        "The colour the captions are drawn in: the theme's own where it has one (`dark`: #F5F7FA), else white or ink, whichever the drawn background needs. Reaches WCAG AA (4.5:1) on every `background` stop.",
      examples: ['#111827'],
    }),
    background: Type.Array(Type.String({ pattern: HEX }), {
      minItems: 2,
      description:
        "The background's gradient stops as drawn, top-left to bottom-right: the theme's (`soft` lightens the brand colours toward white, `dark` has its own), after any stop was moved in lightness for the text to read.",
      examples: [['#A8E5BE', '#6FBB8C']],
    }),
    accent: Type.Optional(
      Type.String({
        pattern: HEX,
        description:
          "The accent as drawn on each headline's key word: the brand kit's `accent`, else the icon's second hue, else one derived from the primary; moved in lightness only where text sits on it (a `marker`'s word reaches AA on it, a `swash` under the text colour too).",
        examples: ['#FFB300'],
      }),
    ),
    accentStyle: Type.Optional(
      StringEnum(['marker', 'swash', 'word', 'underline'], {
        description:
          'How the accent marks the key word, the same on every slide: `marker` a block behind the word (bold), `swash` a highlighter stroke under it (soft), `word` the word in the accent (dark, full-bleed, panoramic), `underline` a bar under the word where the accent would not read as text (3:1) on that background.',
      }),
    ),
    source: StringEnum(BRAND_SOURCES, {
      description:
        "`brand-kit`: the app's brand kit colours; `icon`: taken from the app's icon; `app-name`: the icon could not be read, colours derived from the app's name (a warning says why).",
    }),
    font: StringEnum(BRAND_FONT_IDS),
    iconBadge: Type.Boolean(),
  },
  { title: 'SetBrand', description: 'The colours, font and badge the set was drawn with.' },
);

export const PictureSchema = Type.Object(
  {
    url: Type.String({ format: 'uri', description: 'Signed like the slide URLs.' }),
    width: Type.Integer(),
    height: Type.Integer(),
    format: Type.Literal('png'),
    bytes: Type.Integer(),
    sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  },
  { title: 'Picture' },
);

const HEX_INPUT = '^#[0-9A-Fa-f]{6}$';

const ColorPair = (description: string) =>
  Type.Object(
    {
      primary: Type.String({
        pattern: HEX_INPUT,
        description: 'The dominant colour: backgrounds of `bold`, accents elsewhere.',
        examples: ['#0B3D91'],
      }),
      secondary: Type.Optional(
        Type.String({
          pattern: HEX_INPUT,
          description: "The background gradient's other end. Omitted: a neighbour of the primary on the colour wheel.",
          examples: ['#1F6FEB'],
        }),
      ),
      accent: Type.Optional(
        Type.String({
          pattern: HEX_INPUT,
          description:
            "The colour that stands out: it marks each headline's key word (a block behind it on `bold`, a highlighter stroke on `soft`, the word itself on the other themes). Any colour: no text sits on it as given. Omitted: the icon's second hue, else one derived from the primary.",
          examples: ['#FFB300'],
        }),
      ),
    },
    { additionalProperties: false, description },
  );

export const BrandKitBody = Type.Object(
  {
    colors: Type.Optional(
      Type.Union(
        [
          ColorPair(
            '#RRGGBB. Contrast is checked where text sits, on the background: one text colour (white or near-black) must reach WCAG AA (4.5:1) on the primary and on the secondary when one is given, or the kit is refused with `validation_failed`. The accent is not checked: a purple primary with an amber accent is a kit.',
          ),
          Type.Null(),
        ],
        { description: "Your brand colours; null or omitted: the colours of the app's icon." },
      ),
    ),
    font: Type.Optional(StringEnum(BRAND_FONT_IDS, { description: `One of the bundled fonts, default \`noto-sans\`. ${describeFonts}.` })),
    iconBadge: Type.Optional(Type.Boolean({ description: "Slides carry the app's icon as a small badge. Default false." })),
    defaultTheme: Type.Optional(
      StringEnum(THEME_IDS, { description: `The theme of a set that names none. Default \`soft\`. ${describeThemes}.` }),
    ),
  },
  { additionalProperties: false, title: 'BrandKitInput' },
);

export const BrandKitSchema = Type.Object(
  {
    appId: Type.String(),
    colors: Type.Union([ColorPair('The kit’s own colours, upper case.'), Type.Null()], {
      description: "The kit's colours; null: the icon's are used.",
    }),
    font: StringEnum(BRAND_FONT_IDS),
    iconBadge: Type.Boolean(),
    defaultTheme: StringEnum(THEME_IDS),
    iconColors: Type.Union(
      [
        Type.Object({
          primary: Type.String({ pattern: HEX }),
          secondary: Type.String({ pattern: HEX }),
          accent: Type.Optional(Type.String({ pattern: HEX, description: 'A vivid second hue of the icon, when it has one.' })),
          textColor: Type.String({ pattern: HEX }),
        }),
        Type.Null(),
      ],
      { description: "The colours taken from the app's icon (made AA-readable); null until the app's first set has read its icon." },
    ),
    effective: Type.Object(
      {
        primary: Type.String({ pattern: HEX }),
        secondary: Type.String({ pattern: HEX }),
        accent: Type.Optional(
          Type.String({ pattern: HEX, description: 'The kit’s or the icon’s accent; absent: the renderer derives one from the primary.' }),
        ),
        textColor: Type.String({ pattern: HEX }),
        source: StringEnum(BRAND_SOURCES),
      },
      { description: 'What the next set is drawn with: the kit’s colours, else the icon’s, else colours from the app’s name.' },
    ),
  },
  { title: 'BrandKit' },
);
