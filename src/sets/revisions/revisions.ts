/**
 * Creating a revision: a new job that re-renders a succeeded set with edits. It costs no credits (the
 * plan is not made again, and rendering is cheap), so it is bounded instead by hourly limits, per set
 * and per account, counted and written under one per-account lock so concurrent requests cannot both
 * take the last place. A refused request writes nothing.
 */
import { periodStart } from '../../accounts/credits.ts';
import { findApp } from '../../apps/apps.ts';
import { transaction, type Db, type Queryable } from '../../db/pool.ts';
import { isId, newId } from '../../core/ids.ts';
import type { StoredPlanRequest } from '../jobs.ts';
import type { ScreenshotSetResult, Slide } from '../../core/set.ts';
import { Problem, validationFailed, type FieldError } from '../../core/problem.ts';
import { checkScreenIds, focusErrors } from '../../screens/screens.ts';
import { DEFAULT_THEME, THEME_IDS, type ThemeId } from '../../core/themes.ts';
import { captionFit } from './caption-fit.ts';
import { captionWarnings } from './caption-warnings.ts';
import { applyRevision, type LocaleEdits } from './edit.ts';
import type { RevisionRequest, StoredRevision } from './types.ts';

export interface RevisionLimits {
  perSetPerHour: number;
  perAccountPerHour: number;
}

export const DEFAULT_REVISION_LIMITS: RevisionLimits = { perSetPerHour: 30, perAccountPerHour: 120 };

export interface CreatedRevision {
  jobId: string;
  parentJobId: string;
  slides: number;
  warnings: string[];
}

interface ParentRow {
  id: string;
  app_id: string;
  status: string;
  request: StoredPlanRequest & { theme?: string; revision?: StoredRevision };
  result: ScreenshotSetResult | null;
  root_job_id: string | null;
}

export const jobNotFound = (jobId: string) => new Problem('job_not_found', `No job ${jobId} on this account.`);

/**
 * The theme a job's slides were drawn in: a revision's own; else what the worker resolved for the set
 * (`result.theme`: the request's, or the brand kit's default when it named none); else the request's.
 */
export function themeOf(job: Pick<ParentRow, 'request' | 'result'>): ThemeId {
  const t = job.request.revision?.theme ?? job.result?.theme ?? job.request.theme;
  return (THEME_IDS as readonly string[]).includes(t ?? '') ? (t as ThemeId) : DEFAULT_THEME;
}

/** The succeeded job a revision or a preview starts from, of this account; refuses anything else. */
export async function revisableJob(db: Queryable, accountId: string, jobId: string): Promise<ParentRow & { result: ScreenshotSetResult }> {
  if (!isId('job', jobId)) throw jobNotFound(jobId);
  const { rows } = await db.query<ParentRow>(
    'SELECT id, app_id, status, request, result, root_job_id FROM jobs WHERE id = $1 AND account_id = $2',
    [jobId, accountId],
  );
  const parent = rows[0];
  if (!parent) throw jobNotFound(jobId);
  if (parent.status !== 'succeeded' || !parent.result)
    throw new Problem('job_not_revisable', `Job ${jobId} is ${parent.status}: only a succeeded set can be revised.`, {
      jobStatus: parent.status,
    });
  return { ...parent, result: parent.result };
}

/** The slides of one locale of a plan (null: its only one). */
const slidesIn = (plan: ScreenshotSetResult, locale: string | null) =>
  (locale === null ? null : plan.locales?.find((l) => l.locale === locale)?.slides) ?? plan.slides;

/** Captions that cannot be drawn on the slide at the smallest type size: the one edit refused. */
function fitErrors(plan: ScreenshotSetResult, edited: LocaleEdits[]): FieldError[] {
  const errors = edited.flatMap(({ locale, positions, fields }) => fitErrorsIn(plan, slidesIn(plan, locale), positions, fields));
  // An added slide has the same captions in every locale: one refusal is enough.
  return errors.filter((e, i) => errors.findIndex((x) => x.field === e.field && x.message === e.message) === i);
}

function fitErrorsIn(plan: ScreenshotSetResult, slides: Slide[], positions: number[], fields: string[]): FieldError[] {
  return positions.flatMap((p, k) => {
    const s = slides[p];
    const fit = captionFit(plan.device, s.headline, s.subheadline, plan.brand?.font);
    const errors: FieldError[] = [];
    if (!fit.headline.fits)
      errors.push({ field: `${fields[k]}/headline`, message: 'cannot fit on the slide even at the smallest type size: shorten it' });
    if (fit.subheadline && !fit.subheadline.fits)
      errors.push({ field: `${fields[k]}/subheadline`, message: 'cannot fit on the slide even at the smallest type size: shorten it' });
    return errors;
  });
}

export async function createRevision(
  db: Db,
  accountId: string,
  parentJobId: string,
  req: RevisionRequest,
  opts: { limits?: RevisionLimits; notify?: boolean } = {},
): Promise<CreatedRevision> {
  const parent = await revisableJob(db, accountId, parentJobId);
  const applied = applyRevision(parent.result, req);
  if (applied.errors.length) throw validationFailed(applied.errors);
  const screenIds = [...(req.slides ?? []), ...(req.add ?? [])].flatMap((s) => (s.screenId ? [s.screenId] : []));
  if (screenIds.length) await checkScreenIds(db, accountId, parent.app_id, screenIds);
  // A focus is checked against the screen its slide shows after the revision.
  const focused = [
    ...(req.slides ?? []).map((e, i) => ({
      field: `slides/${i}`,
      focus: e.focus,
      screenId: e.screenId ?? parent.result.slides[e.index - 1]?.screenId,
    })),
    ...(req.add ?? []).map((a, i) => ({ field: `add/${i}`, focus: a.focus, screenId: a.screenId })),
  ].flatMap((f) => (f.focus ? [{ ...f, focus: f.focus }] : []));
  const badFocus = await focusErrors(db, accountId, parent.app_id, focused);
  if (badFocus.length) throw validationFailed(badFocus);
  const unfit = fitErrors(applied.plan, applied.edited);
  if (unfit.length) throw validationFailed(unfit);

  const app = await findApp(db, accountId, parent.app_id);
  // Each locale's captions are checked in their own language; the answer names the locale.
  const perLocale = applied.edited.map(({ locale, positions }) =>
    app ? captionWarnings(app, { ...applied.plan, slides: slidesIn(applied.plan, locale) }, positions, locale) : [],
  );
  const warnings = applied.edited.flatMap(({ locale }, k) =>
    perLocale[k].map((w) => (locale && applied.plan.locales ? `${locale}: ${w}` : w)),
  );
  const plan: ScreenshotSetResult = {
    ...applied.plan,
    warnings: perLocale[0],
    ...(applied.plan.locales ? { locales: applied.plan.locales.map((l, k) => ({ ...l, warnings: perLocale[k] })) } : {}),
  };
  const parentTheme = themeOf(parent);
  const theme = req.theme ?? parentTheme;
  const revision: StoredRevision = {
    parentJobId,
    // The parent's result names the parent's theme: the revision's result names its own.
    plan: { ...plan, theme },
    sources: applied.sources,
    theme,
    parentTheme,
  };
  const { revision: _previous, ...base } = parent.request;
  const request = { ...base, count: applied.plan.slides.length, revision };
  const root = parent.root_job_id ?? parent.id;
  const limits = opts.limits ?? DEFAULT_REVISION_LIMITS;
  const jobId = newId('job');
  await transaction(db, async (tx) => {
    // Serialises this account's revisions: the count below and the insert see every other one.
    await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 7))', [`revisions:${accountId}`]);
    await checkLimits(tx, accountId, root, limits);
    await tx.query(
      `INSERT INTO jobs (id, account_id, app_id, request, cost, period_start, parent_job_id, root_job_id)
       VALUES ($1, $2, $3, $4::jsonb, 0, $5::date, $6, $7)`,
      [jobId, accountId, parent.app_id, JSON.stringify(request), periodStart(new Date()), parentJobId, root],
    );
  });
  if (opts.notify !== false) await db.query(`SELECT pg_notify('shotgen_jobs', '')`).catch(() => undefined);
  return { jobId, parentJobId, slides: applied.plan.slides.length, warnings };
}

async function checkLimits(tx: Queryable, accountId: string, root: string, limits: RevisionLimits): Promise<void> {
  const { rows } = await tx.query<{ per_account: number; per_set: number; account_free_in: number; set_free_in: number }>(
    `SELECT count(*)::int AS per_account, count(*) FILTER (WHERE root_job_id = $2)::int AS per_set,
       ceil(extract(epoch FROM min(created_at) + interval '1 hour' - now()))::int AS account_free_in,
       ceil(extract(epoch FROM min(created_at) FILTER (WHERE root_job_id = $2) + interval '1 hour' - now()))::int AS set_free_in
     FROM jobs WHERE account_id = $1 AND parent_job_id IS NOT NULL AND created_at > now() - interval '1 hour'`,
    [accountId, root],
  );
  const r = rows[0];
  const refuse = (detail: string, seconds: number) =>
    new Problem('rate_limited', detail, {}, { 'Retry-After': String(Math.max(1, seconds)) });
  if (r.per_set >= limits.perSetPerHour)
    throw refuse(`This set was revised ${r.per_set} times in the last hour, the most allowed (${limits.perSetPerHour}).`, r.set_free_in);
  if (r.per_account >= limits.perAccountPerHour)
    throw refuse(
      `This account made ${r.per_account} revisions in the last hour, the most allowed (${limits.perAccountPerHour}).`,
      r.account_free_in,
    );
}
