/** What a revision asks for, and what its job stores so the worker renders exactly that. */
import type { ThemeId } from '../../core/themes.ts';
import type { Focus, ScreenshotSetResult } from '../../core/set.ts';

/** What may change on one slide; everything absent stays as the parent rendered it. */
export interface SlideChanges {
  headline?: string;
  /** null removes the subheadline. */
  subheadline?: string | null;
  /** Another uploaded screen of the app (scr_…). */
  screenId?: string;
  layout?: string;
  /** A region of the slide's uploaded screen drawn as a callout; null removes it. */
  focus?: Focus | null;
  /** Gradient stops, #RRGGBB. */
  background?: { colors: string[] };
  textColor?: string;
}

export interface SlideEdit extends SlideChanges {
  /** The parent's slide (1-based). */
  index: number;
  /** In a set of several locales, the locale whose captions change; absent: the set's first. */
  locale?: string;
}

export interface AddedSlide extends SlideChanges {
  headline: string;
}

export interface RevisionRequest {
  slides?: SlideEdit[];
  /** The parent's slides to leave out (1-based). */
  remove?: number[];
  /** New slides; in `order` they are numbered after the parent's (a 5-slide parent's first added slide is 6). */
  add?: AddedSlide[];
  /** Every kept and added slide once, in the new order; absent: the parent's order, then the added slides. */
  order?: number[];
  /** The whole set's look. */
  theme?: ThemeId;
}

/** Stored in the revision job's request (jobs.request.revision). */
export interface StoredRevision {
  parentJobId: string;
  /** The revised plan, slides renumbered 1..n, without pictures. */
  plan: ScreenshotSetResult;
  /** For each new slide, the parent's slide it comes from (1-based), or null for an added slide. */
  sources: (number | null)[];
  theme: ThemeId;
  parentTheme: ThemeId;
}
