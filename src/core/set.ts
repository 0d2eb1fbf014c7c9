/**
 * The planner's public vocabulary: the values a client may send and the shape of a job's `result`.
 * The API schemas and the OpenAPI enums are built from these constants, so they cannot drift.
 */
import type { Static } from '@sinclair/typebox';
import type { BrandColors } from './themes.ts';
import type { Device } from './devices.ts';
import type { Orientation } from './orientation.ts';
import type { Listing } from './listing.ts';
import type { Role } from './narratives.ts';
import type { ScreenshotSetResultSchema, SlideSchema } from './set-schemas.ts';

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
  /** A region of that screen, in its pixels, drawn enlarged as a callout (FocusSchema). */
  focus?: Focus;
}

/** Whether a slide of this layout is drawn as the set's hero (larger device, the store's rating). */
export const isHero = (layout: string): boolean => layout === 'hero-centered';

/** A region of a screen in its own pixels (FocusSchema). */
export interface Focus {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Why a focus does not lie within a screen of this size, or null when it does. */
export function focusError(f: Focus, size: { width: number; height: number }): string | null {
  if (f.x + f.w > size.width || f.y + f.h > size.height)
    return `must lie within the screen (${size.width}×${size.height} px): x + w ≤ ${size.width}, y + h ≤ ${size.height}`;
  return null;
}

export const OWN_SLIDE_LIMITS = { min: 1, max: 10, headline: 60, subheadline: 140 } as const;

export interface PlanRequest {
  /** The user's own captions: the set has exactly these slides; count and narrativeId do not apply. */
  slides?: OwnSlide[] | null;
  device: Device;
  /** The slides' size ("2560x1600") when the device offers more than its own (devices.ts outputSizes); absent: its own. */
  size?: string | null;
  /** Upright or turned slides (./orientation.ts); absent: landscape when every screen is, else the device's own. */
  orientation?: Orientation | null;
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
  /**
   * Those uploaded screens in framing order with the text OCR read from each (null: not read), when
   * the worker knows it: the planner puts each caption over the screen whose text it speaks of.
   */
  screenTexts?: { screenId: string; text: string[] | null }[];
  /**
   * Without uploaded screens: the text OCR read from the listing's screenshots, by URL (those read
   * so far; src/screens/store-screen-text.ts). The planner puts each caption over the screenshot
   * whose text it speaks of, as it does with uploads.
   */
  storeScreenTexts?: Record<string, string[]>;
  /** Whether every uploaded screen the set frames is landscape (known with uploadedScreens > 0): the set is then landscape unless asked otherwise. */
  uploadedLandscape?: boolean;
  /** The request named its screens (screenIds): slide i frames the i-th, as asked, whatever it shows. */
  screensInOrder?: boolean;
  /**
   * With LLM_VISION: the uploaded screens' image files, in the order of `screenTexts`; the caption
   * model is shown them downscaled (src/captions/model/pictures.ts).
   */
  screenPictures?: Uint8Array[];
}

/** A planned slide and set: their schemas (./schemas.ts) are the source, these types follow. */
export type Slide = Static<typeof SlideSchema>;
export type ScreenshotSetResult = Static<typeof ScreenshotSetResultSchema>;
