/** What the editor shows while a caption is typed: the checks' warnings for one slide with changes. */
import { findApp } from '../../apps/apps.ts';
import type { Queryable } from '../../db/pool.ts';
import { captionWarnings } from './caption-warnings.ts';
import { applyChanges } from './edit.ts';
import { revisableJob } from './revisions.ts';
import type { SlideChanges } from './types.ts';

/** `locale`: in a set of several locales, whose captions these are; they are checked in its language. */
export async function slideEditWarnings(
  db: Queryable,
  accountId: string,
  jobId: string,
  index: number,
  changes: SlideChanges,
  locale?: string,
): Promise<string[]> {
  const parent = await revisableJob(db, accountId, jobId);
  const app = await findApp(db, accountId, parent.app_id);
  // A set's first locale is checked in its language as a revision would, named or not.
  const own = locale === undefined ? (parent.result.locales?.[0] ?? null) : parent.result.locales?.find((l) => l.locale === locale);
  if (!app || own === undefined || index < 1 || index > parent.result.slides.length) return [];
  const slides = (own?.slides ?? parent.result.slides).map((s) => (s.index === index ? applyChanges(s, changes) : s));
  return captionWarnings(app, { ...parent.result, slides }, [index - 1], own ? own.locale : null);
}
