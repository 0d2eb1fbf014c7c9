/** What the renderer takes and what travels to its worker threads. */
import type { BrandColors, BrandFontId, ThemeId } from '../core/themes.ts';
import type { Static } from '@sinclair/typebox';
import type { SlideLintSchema } from '../core/set-schemas.ts';
import type { Device, Size } from '../core/devices.ts';
import type { Orientation } from '../core/orientation.ts';
import type { Slide } from '../core/set.ts';
import type { FeatureGraphicInput } from './feature-graphic.ts';
import type { StorePreviewInput } from './store-preview.ts';

export interface RenderInput {
  device: Device;
  /** The plan's slides, in order. */
  slides: Slide[];
  /** Encoded PNG or JPEG bytes of each slide's screen; null for none. */
  screens: (Buffer | Uint8Array | null)[];
  /** One wide background across the set: slide i shows its slice. */
  panoramic?: boolean;
  /** The set's look (default DEFAULT_THEME); a theme whose record draws `acrossSet` also sets `panoramic`. */
  theme?: ThemeId;
  /** The app's brand colours, from its icon or its brand kit. */
  brand?: BrandColors;
  /** The brand kit's font (BRAND_FONTS); absent: the default. */
  font?: BrandFontId;
  /** The app's icon (PNG or JPEG bytes) when the brand kit asks for an icon badge on the slides; absent: no badge. */
  badge?: Uint8Array | null;
  /** The app's icon (PNG, JPEG or WebP): drawn on the slides without a screen. */
  icon?: Buffer | Uint8Array | null;
  /** The files' size when the set asked for another of the device's shape (outputSizes); absent: the device's. */
  size?: Size;
  /** The captions' language (BCP 47): line breaking, hyphenation, no-break spaces follow it. */
  locale?: string;
  /** Landscape: the slides are the device's size turned (core/orientation.ts); absent: the device's own. */
  orientation?: Orientation;
  /** The store's rating, drawn under the hero's headline (the set's `rating`: only with ≥ 50 ratings); absent: none. */
  rating?: StoreRating | null;
}

/** A listing's average rating and how many gave one. */
export interface StoreRating {
  value: number;
  count: number;
}

export interface RenderOptions {
  signal?: AbortSignal;
  /**
   * After each slide, in the order they finish; `slide` is the slide itself and `index` its place
   * in the input, so a caller can store it while the others are still being drawn.
   */
  onSlide?(done: number, total: number, slide?: { index: number; rendered: RenderedSlide }): void;
  /** The set's type sizes already asked for (RenderPool.fit) with the same input; absent: fitted first. */
  metrics?: Promise<SetMetrics>;
}

/**
 * The part of a slide the renderer reads, and its captions' language (BCP 47): line breaking and
 * hyphenation follow it (./text.ts); absent, only the rules that need no language apply.
 */
export type SlideLook = Pick<Slide, 'headline' | 'subheadline' | 'layout' | 'background' | 'textColor' | 'focus'> & {
  lang?: string;
  /** The slide's keywords: the headline's word among them is the one the brand's accent marks. */
  keywords?: string[];
};

/** Sizes of a set's text, decided together so the set reads as one. */
export interface SetMetrics {
  /** Each slide's headline size (px), in slide order: one size for the whole set. */
  headlineSizes: number[];
  subSize: number;
  /** The tallest text block of the set (px): devices sit at the same height on every slide. */
  blockHeight: number;
  /**
   * The set's cover (its hero slide, at `index`) and the rating it shows: a feature slide lays
   * the cover out too, and its product yields to the cover's (cover-lead.ts). Absent: no hero.
   */
  cover?: { index: number; slide: SlideLook; rating: StoreRating | null };
}

export interface FitTask {
  kind: 'fit';
  device: Device;
  orientation?: Orientation;
  slides: SlideLook[];
  theme?: ThemeId;
  font?: BrandFontId;
  /** The store's rating the hero will show: the cover's room bounds the type on a landscape or Mac slide. */
  rating?: StoreRating | null;
}

export interface SlideTask {
  kind: 'slide';
  /** The slide's position in the set (for error messages and its headline size). */
  index: number;
  device: Device;
  orientation?: Orientation;
  slide: SlideLook;
  screen: Uint8Array | null;
  /** Other slides of the set show the same screen: it is scaled once per thread and copied (screen-sprite.ts). */
  screenShared?: boolean;
  metrics: SetMetrics;
  panorama: { index: number; count: number; colors: string[] } | null;
  theme?: ThemeId;
  brand?: BrandColors;
  font?: BrandFontId;
  icon?: Uint8Array | null;
  /** The app's icon as a small badge in the margin on the text's side (the brand kit's iconBadge); absent: none. */
  badge?: Uint8Array | null;
  /** A preview's size, as a share of the device's (default 1: the store's size). */
  scale?: number;
  /** The store's rating under the headline: the hero slide's only. */
  rating?: StoreRating | null;
  /** The file's size, when not the device's: the slide is drawn at the device's size and scaled to it. */
  size?: Size;
}

/**
 * A preview: the set fitted and the slides at `indices` drawn at `scale`, in one trip to a thread.
 * `screenKeys` name each screen so the thread decodes it once for the keystrokes that follow.
 */
export interface PreviewTask {
  kind: 'preview';
  device: Device;
  orientation?: Orientation;
  slides: SlideLook[];
  indices: number[];
  screens: (Uint8Array | null)[];
  screenKeys: (string | null)[];
  scale: number;
  panoramic: boolean;
  theme?: ThemeId;
  brand?: BrandColors;
  font?: BrandFontId;
  icon?: Uint8Array | null;
  badge?: Uint8Array | null;
  /** The store's rating under the hero's headline, as the set drew it. */
  rating?: StoreRating | null;
}

/**
 * A set's brand picture (Play's feature graphic, the store preview), drawn on a rendering thread:
 * on the thread that serves HTTP its canvas work blocked every request for up to 140 ms.
 */
export type BrandTask = { kind: 'feature-graphic'; input: FeatureGraphicInput } | { kind: 'store-preview'; input: StorePreviewInput };

export type RenderTask = FitTask | SlideTask | PreviewTask | BrandTask;

/** What the renderer found while drawing a slide: the picture's half of its lint. */
export type DrawnLint = Omit<SlideLint, 'width' | 'height' | 'alpha' | 'bytes' | 'format' | 'problems'>;

/** A slide's file's SHA-256 (hex) and CRC-32 (its ZIP entry's), taken on the rendering thread. */
export interface SlideDigest {
  sha256: string;
  crc32: number;
}

/** A slide as delivered: its encoded bytes and its lint. */
export interface RenderedSlide {
  bytes: Buffer;
  format: 'png' | 'jpeg';
  lint: SlideLint;
  /**
   * From the rendering thread (RenderPool), with `lint.problems` the store rules checked on these
   * very bytes there; absent (a test's renderer), both are taken by whoever stores the slide.
   */
  digest?: SlideDigest;
}

/** The lint of a slide, as the job's result carries it (core/set-schemas.ts SlideLintSchema). */
export type SlideLint = Static<typeof SlideLintSchema>;
