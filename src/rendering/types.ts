/** What the renderer takes and what travels to its worker threads. */
import type { Device, Slide } from '../planning/types.ts';

export interface RenderInput {
  device: Device;
  /** The plan's slides, in order. */
  slides: Slide[];
  /** Encoded PNG or JPEG bytes of each slide's screen; null for none. */
  screens: (Buffer | Uint8Array | null)[];
  /** One wide background across the set: slide i shows its slice. */
  panoramic?: boolean;
}

export interface RenderOptions {
  signal?: AbortSignal;
  onSlide?(done: number, total: number): void;
}

/** The part of a slide the renderer reads. */
export type SlideLook = Pick<Slide, 'headline' | 'subheadline' | 'layout' | 'background' | 'textColor'>;

/** Sizes shared by every slide of a set, so the set reads as one. */
export interface SetMetrics {
  headlineSize: number;
  subSize: number;
  /** The tallest text block of the set (px): devices sit at the same height on every slide. */
  blockHeight: number;
}

export interface FitTask {
  kind: 'fit';
  device: Device;
  slides: SlideLook[];
}

export interface SlideTask {
  kind: 'slide';
  /** The slide's position in the set (for error messages). */
  index: number;
  device: Device;
  slide: SlideLook;
  screen: Uint8Array | null;
  metrics: SetMetrics;
  panorama: { index: number; count: number; colors: string[] } | null;
}

export type RenderTask = FitTask | SlideTask;
