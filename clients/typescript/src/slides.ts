/**
 * A succeeded set's slides, locale by locale. With `locales` the result holds one set per locale in
 * `result.locales` (the first locale's slides under `/slides/…` URLs, the others' under
 * `/locales/{locale}/slides/…`) and `result.slides` repeats the first locale's; without it,
 * `result.slides` is the whole set. Whatever lists or fetches a set's pictures walks this, so that
 * no locale is left out.
 */
import type { Job } from './types.ts';

export type JobResult = NonNullable<Job['result']>;
export type Slide = JobResult['slides'][number];

export interface LocaleSlides {
  /** The locale, for a set created with `locales`; null for a set in the listing's language only. */
  locale: string | null;
  slides: Slide[];
}

/** Every locale's slides in the result's order: one group per locale, or one group with locale null. */
export function slidesByLocale(result: Pick<JobResult, 'slides' | 'locales'>): LocaleSlides[] {
  return result.locales?.length
    ? result.locales.map((l) => ({ locale: l.locale, slides: l.slides }))
    : [{ locale: null, slides: result.slides }];
}
