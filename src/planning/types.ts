/**
 * The planner's public vocabulary: the values a client may send and the shape of a job's `result`.
 * The API schemas and the OpenAPI enums are built from these constants, so they cannot drift.
 */
import type { Static } from '@sinclair/typebox';
import type { BrandColors } from '../brand/theme-ids.ts';
import type { Listing, ScreenshotFamily } from '../stores/listing.ts';
import type { Role } from './narratives.ts';
import type { ScreenshotSetResultSchema, SlideSchema } from './schemas.ts';

/**
 * Every device a set can be made for, as data: a new device is one entry here. `frame` names the
 * renderer's frame model (src/rendering/frames.ts); `accepts` lists every size the store slot takes
 * (portrait; landscape is the same swapped), the device's own size first.
 */
export const DEVICES = {
  'iphone-69': {
    width: 1320,
    height: 2868,
    family: 'iphone',
    store: 'app-store',
    slot: 'App Store iPhone 6.9"',
    label: 'iPhone 6.9″',
    frame: 'iphone-island-69',
    accepts: [
      [1320, 2868],
      [1290, 2796],
      [1260, 2736],
    ],
  },
  'iphone-67': {
    width: 1290,
    height: 2796,
    family: 'iphone',
    store: 'app-store',
    slot: 'App Store iPhone 6.7"',
    label: 'iPhone 6.7″',
    frame: 'iphone-island-67',
    accepts: [
      [1290, 2796],
      [1320, 2868],
      [1260, 2736],
    ],
  },
  'iphone-63': {
    width: 1206,
    height: 2622,
    family: 'iphone',
    store: 'app-store',
    slot: 'App Store iPhone 6.3"',
    label: 'iPhone 6.3″',
    frame: 'iphone-island-63',
    accepts: [
      [1206, 2622],
      [1179, 2556],
    ],
  },
  'iphone-65': {
    width: 1242,
    height: 2688,
    family: 'iphone',
    store: 'app-store',
    slot: 'App Store iPhone 6.5"',
    label: 'iPhone 6.5″',
    frame: 'iphone-notch',
    accepts: [
      [1242, 2688],
      [1284, 2778],
    ],
  },
  'ipad-13': {
    width: 2064,
    height: 2752,
    family: 'ipad',
    store: 'app-store',
    slot: 'App Store iPad 13"',
    label: 'iPad 13″',
    frame: 'ipad',
    accepts: [
      [2064, 2752],
      [2048, 2732],
    ],
  },
  'ipad-pro': {
    width: 2064,
    height: 2752,
    family: 'ipad',
    store: 'app-store',
    slot: 'App Store iPad 13" (earlier name of ipad-13)',
    label: 'iPad Pro 13″',
    frame: 'ipad',
    accepts: [
      [2064, 2752],
      [2048, 2732],
    ],
  },
  'android-phone': {
    width: 1080,
    height: 1920,
    family: 'android-phone',
    store: 'google-play',
    slot: 'Google Play phone, 9:16',
    label: 'Android phone',
    frame: 'android-phone',
    accepts: [],
  },
  'android-tablet': {
    width: 1440,
    height: 2560,
    family: 'android-tablet',
    store: 'google-play',
    slot: 'Google Play tablet, 9:16',
    label: 'Android tablet',
    frame: 'android-tablet',
    accepts: [],
  },
} as const satisfies Record<
  string,
  {
    width: number;
    height: number;
    family: ScreenshotFamily;
    store: string;
    slot: string;
    label: string;
    frame: string;
    accepts: readonly (readonly [number, number])[];
  }
>;

export type Device = keyof typeof DEVICES;
export const DEVICE_IDS = Object.keys(DEVICES) as Device[];

export const CAPTION_STYLES = {
  'aso-expert': 'Keyword-rich, benefit-first headlines in title case (the default).',
  minimal: 'Few words, sentence case, no punctuation flourishes.',
  playful: 'Light, warm and informal, with a wink.',
  bold: 'Short imperative statements in capitals that demand attention.',
  professional: 'Calm, precise sentences for business and productivity audiences.',
} as const;
export type CaptionStyle = keyof typeof CAPTION_STYLES;
export const CAPTION_STYLE_IDS = Object.keys(CAPTION_STYLES) as CaptionStyle[];

export const CAPTION_LENGTHS = {
  short: { headline: 30, subheadline: 0 },
  long: { headline: 40, subheadline: 100 },
} as const;
export type CaptionLength = keyof typeof CAPTION_LENGTHS;
export const CAPTION_LENGTH_IDS = Object.keys(CAPTION_LENGTHS) as CaptionLength[];

export const DEFAULT_COUNT = 5;
export const MAX_COUNT = 10;
export const DEFAULT_CAPTION_STYLE: CaptionStyle = 'aso-expert';
export const DEFAULT_CAPTION_LENGTH: CaptionLength = 'short';

export interface Narrative {
  id: string;
  name: string;
  description: string;
  /** Ordered slide roles; its length is the set's slide count. */
  roles: Role[];
}

/** A caption the user wrote (CONTRACT "Captions you write yourself"): kept verbatim. */
export interface OwnSlide {
  headline: string;
  subheadline?: string | null;
  /** An uploaded screen (scr_…) for this slide; the worker resolves it. */
  screenId?: string;
}

export const OWN_SLIDE_LIMITS = { min: 1, max: 10, headline: 60, subheadline: 140 } as const;

export interface PlanRequest {
  /** The user's own captions: the set has exactly these slides; count and narrativeId do not apply. */
  slides?: OwnSlide[] | null;
  device: Device;
  /** 1..10, default 5; ignored when narrativeId is set. */
  count?: number;
  captionStyle?: CaptionStyle;
  captionLength?: CaptionLength;
  narrativeId?: string | null;
  /** One set per BCP 47 language-REGION tag (./locales.ts); absent: one set in the listing's language. */
  locales?: string[] | null;
}

/**
 * The one place a request's defaults are applied: the create path stores what this returns with
 * the job, the planner plans from it, and the API's schema documents the same constants. Your own
 * captions are `long` when any has a subheadline or a headline over the short limit.
 */
export function planDefaults(r: Pick<PlanRequest, 'slides' | 'captionStyle' | 'captionLength' | 'count'>): {
  captionStyle: CaptionStyle;
  captionLength: CaptionLength;
  count: number;
} {
  const own = r.slides?.length ? r.slides : null;
  const ownLength =
    own && (own.some((s) => s.subheadline) || Math.max(...own.map((s) => s.headline.length)) > CAPTION_LENGTHS.short.headline)
      ? 'long'
      : DEFAULT_CAPTION_LENGTH;
  return {
    captionStyle: r.captionStyle ?? DEFAULT_CAPTION_STYLE,
    captionLength: r.captionLength ?? ownLength,
    count: own ? own.length : (r.count ?? DEFAULT_COUNT),
  };
}

export interface PlanInput {
  /** One or two listings (App Store first when both exist). */
  listings: Listing[];
  extraContext: string | null;
  request: PlanRequest;
  /** The app's brand colours (src/brand/); absent: colours from the app's name. */
  brand?: BrandColors | null;
  /**
   * The app's uploaded screens for the device's family, when known (the API and the worker know it):
   * with none, and no listing screenshot of the family either, the set has nothing to frame and is
   * refused (cannot_fill_set). Absent: not checked (the planner alone, the CLI).
   */
  uploadedScreens?: number;
}

/** A planned slide and set: their schemas (./schemas.ts) are the source, these types follow. */
export type Slide = Static<typeof SlideSchema>;
export type ScreenshotSetResult = Static<typeof ScreenshotSetResultSchema>;
