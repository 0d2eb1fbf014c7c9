/**
 * Creating a screenshot set: one transaction charges the credits (SCREENSHOT_SET_COST per locale), writes the queued
 * job and, with an Idempotency-Key, the idempotency record. There is never a charge without a job nor a job
 * without a charge, and a refused request changes nothing.
 */
import { primaryListing } from '../core/listing.ts';
import type { ThemeId } from '../core/themes.ts';
import { getBalance, insufficientCredits } from '../accounts/credits.ts';
import type { NotifyBatcher } from '../db/notify-batcher.ts';
import { isUniqueViolation, transaction, type Db, type Queryable } from '../db/pool.ts';
import { isId, newId } from '../core/ids.ts';
import { findNarrative } from '../core/narratives.ts';
import { planDefaults, type PlanRequest } from '../core/set.ts';
import { isProblem, Problem, validationFailed } from '../core/problem.ts';
import { appNotFound, listingsOf, type App } from '../apps/apps.ts';
import { checkScreenIds, focusErrors } from '../screens/screens.ts';
import { listingLocale, localesErrors, plannedNatively } from '../core/locales.ts';
import { screensFor } from '../planning/screens.ts';
import { verdictOf } from '../planning/fillable.ts';
import { DEVICES, outputSizes, sizeName, type Device, type Size } from '../core/devices.ts';
import { ORIENTATIONS, orientationError, ownOrientation, slideSizeFor, type Orientation } from '../core/orientation.ts';
import { creditsCharged } from '../metrics/index.ts';
import { claimIdempotencyKey, completeIdempotencyKey, findIdempotencyRecord, requestHash } from './idempotency.ts';
import type { StoredPlanRequest } from './jobs.ts';
import { appReader, type AppReader } from './app-snapshots.ts';
import { factsFor } from './fill-checks.ts';
import { chargeAndEnqueue, chargeBatched, StaleCheck, type CheckedFacts } from './charge.ts';

export const SCREENSHOT_SET_COST = 5;

/** What POST /screenshots asks for: the planner's request, for one of the account's apps. */
export type ScreenshotSetRequest = Omit<PlanRequest, 'slides' | 'narrativeId' | 'locales'> & {
  appId: string;
  slides?: NonNullable<PlanRequest['slides']>;
  narrativeId?: string;
  /** One set per locale, SCREENSHOT_SET_COST credits each (./translate.ts in planning). */
  locales?: string[];
  /** Uploaded screens the slides frame, in order. */
  screenIds?: string[];
  /** The set's look; absent: the brand kit's default theme, resolved by the worker. */
  theme?: ThemeId;
};

export interface CreatedScreenshotSet {
  jobId: string;
  credits: { cost: number; remaining: number };
  /** What the plan's draft found before the charge; the job's result repeats them. */
  warnings: string[];
}

export interface CreateOptions {
  now: Date;
  idempotencyKey?: string;
  /** Called after commit with the account whose balance changed (cache invalidation). */
  onCharged?: (accountId: string) => void;
  /** How long a duplicate Idempotency-Key waits for the first request (default 5 s), then 409. */
  idempotencyWaitMs?: number;
  /**
   * Whether a caption model is configured (LLM_BASE_URL): without one, only the listing's own
   * language can be planned, and other locales are refused here, before anything is charged.
   */
  canTranslate?: boolean;
  /**
   * Whether a caption model writes in the job (LLM_BASE_URL; default: canTranslate): without one,
   * a set the rule writer cannot fill is refused here, before the charge.
   */
  hasModel?: boolean;
  /** Batches the after-commit notifications; without one they are sent at once. */
  notifier?: Pick<NotifyBatcher, 'notify'>;
}

/** A set costs SCREENSHOT_SET_COST credits per locale: each locale is a set of its own (and, rendered, its own pictures). */
const setCost = (request: Pick<ScreenshotSetRequest, 'locales'>): number => SCREENSHOT_SET_COST * (request.locales?.length || 1);

/** The tags' own problems (the schema checks their shape and count; this, that the names exist). */
function checkLocales(request: ScreenshotSetRequest): void {
  const errors = localesErrors(request.locales, !!request.slides);
  if (errors.length) throw validationFailed(errors);
}

/**
 * Without a caption model only the listing's language can be written: refuse the other locales
 * now, naming them, rather than charge for a job that must fail.
 */
function checkTranslatable(app: App, request: ScreenshotSetRequest): void {
  const listings = listingsOf(app, DEVICES[request.device].store);
  if (listings.length === 0) return;
  const primary = primaryListing(listings, request.device);
  const errors = (request.locales ?? [])
    .map((tag, i) => ({ tag, i }))
    .filter(({ tag }) => !plannedNatively(tag, primary))
    .map(({ tag, i }) => ({
      field: `locales/${i}`,
      message: `${tag} is not the listing's language (${listingLocale(primary)}): captions in another language are written by the caption model, and this server has none configured (LLM_BASE_URL)`,
    }));
  if (errors.length) throw validationFailed(errors);
}

/**
 * A set the rule writer cannot fill (and no model will), or with nothing to frame, is refused before
 * the charge. Returns the draft's warnings and whether the family's uploaded screens were counted.
 */
async function checkSetFillable(
  db: Queryable,
  reader: AppReader,
  app: App,
  request: StoredPlanRequest,
  hasModel: boolean,
): Promise<{ warnings: string[]; family: CheckedFacts['family']; hasScreens: boolean | null }> {
  const listings = listingsOf(app, DEVICES[request.device].store);
  if (listings.length === 0) return { warnings: [], family: null, hasScreens: null };
  const family = DEVICES[request.device].family;
  // Only counted when the listing has no screenshot of the family: the common case costs no query.
  const counted =
    // A Mac listing's screenshots are not an iPhone's (the planner does not use them).
    !(
      screensFor(listings, request.device).urls.length > 0 &&
      (primaryListing(listings, request.device).platform !== 'mac' || DEVICES[request.device].family === 'mac')
    ) && !request.screenIds?.length;
  const uploadedScreens = counted ? await reader.screenCount(family) : request.screenIds?.length;
  // Planned when the app was created (./fill-checks.ts); what the screens and the model change is applied here.
  const facts = await factsFor(db, app.accountId, app.id, listings, app.extraContext, request);
  const warnings = verdictOf(facts, uploadedScreens, hasModel);
  // The planner only tells none from some (plan.ts), so that is what the charge re-checks.
  return { warnings, family: counted ? family : null, hasScreens: counted ? uploadedScreens! > 0 : null };
}

/**
 * Whether `size` is one of the device's in the orientation asked for; without one, in either (a
 * turned size then asks for landscape slides, as `orientation` would).
 */
const sizedAs = (device: Device, size: string, orientation: Orientation | undefined | null): boolean =>
  (orientation ? [orientation] : ORIENTATIONS).some((o) => slideSizeFor(device, size, o) !== null);

/** The sizes a device's slides can be: its own (outputSizes), and turned unless `portrait` was asked. */
function offeredSizes(device: Device, orientation: Orientation | undefined | null): Size[] {
  const own = orientation && orientation !== ownOrientation(device) ? [] : outputSizes(device);
  const turned = ownOrientation(device) === 'portrait' && orientation !== 'portrait' ? [slideSizeFor(device, null, 'landscape')!] : [];
  return [...own, ...turned];
}

/** The request as the job stores it: defaults resolved, a narrative fixing the slide count. */
function resolveRequest(request: ScreenshotSetRequest): StoredPlanRequest {
  checkLocales(request);
  const turned = orientationError(request.device, request.orientation);
  if (turned) throw validationFailed([{ field: 'orientation', message: turned }]);
  if (request.size != null && !sizedAs(request.device, request.size, request.orientation)) {
    const offered = offeredSizes(request.device, request.orientation).map(sizeName).join(', ');
    throw new Problem('validation_failed', `size: ${request.device} slides can be ${offered}, not ${request.size}.`, {
      errors: [{ field: 'size', message: `is not a size of ${request.device} (${offered})` }],
    });
  }
  const extras = {
    // The device's own size is stored as no size: the same set as one that did not ask.
    ...(request.size && request.size !== sizeName(outputSizes(request.device)[0]) ? { size: request.size } : {}),
    ...(request.orientation ? { orientation: request.orientation } : {}),
    ...(request.locales ? { locales: [...request.locales] } : {}),
    ...(request.screenIds ? { screenIds: [...request.screenIds] } : {}),
    ...(request.theme ? { theme: request.theme } : {}),
  };
  if (request.slides) {
    // The user's own captions fix the slides: a count or a narrative would contradict them.
    const conflicts = (['count', 'narrativeId'] as const).filter((f) => request[f] !== undefined);
    if (conflicts.length) {
      throw new Problem(
        'validation_failed',
        `${conflicts.join(', ')}: cannot be combined with slides (your own captions set the slides).`,
        {
          errors: conflicts.map((field) => ({ field, message: 'cannot be combined with slides' })),
        },
      );
    }
    const slides = request.slides.map((s) => ({
      headline: s.headline,
      ...(s.subheadline != null ? { subheadline: s.subheadline } : {}),
      ...(s.screenId ? { screenId: s.screenId } : {}),
      ...(s.focus ? { focus: { x: s.focus.x, y: s.focus.y, w: s.focus.w, h: s.focus.h } } : {}),
    }));
    return { device: request.device, ...planDefaults(request), narrativeId: null, slides, ...extras };
  }
  const narrative = request.narrativeId ? findNarrative(request.narrativeId) : null;
  if (request.narrativeId && !narrative) {
    throw new Problem('validation_failed', `narrativeId: unknown narrative "${request.narrativeId}"`, {
      errors: [{ field: 'narrativeId', message: 'is not a narrative of GET /public/v1/narratives' }],
    });
  }
  const defaults = planDefaults(request);
  return {
    device: request.device,
    ...defaults,
    count: narrative ? narrative.roles.length : defaults.count,
    narrativeId: narrative?.id ?? null,
    ...extras,
  };
}

interface Checked {
  warnings: string[];
  /** What the checks read of the app: the charge writes only while it is still so. */
  facts: CheckedFacts;
}

/**
 * Every check a create makes before it charges. From this process's snapshot of the app unless
 * `fresh`; a refusal is never answered from a snapshot (it may be stale), only after reading again.
 */
async function checkBeforeCharge(...args: Parameters<typeof checkOnce>): Promise<Checked> {
  const [db, accountId, request, planRequest, opts, fresh] = args;
  try {
    return await checkOnce(...args);
  } catch (error) {
    if (fresh || !isProblem(error)) throw error;
    return checkOnce(db, accountId, request, planRequest, opts, true);
  }
}

async function checkOnce(
  db: Db,
  accountId: string,
  request: ScreenshotSetRequest,
  planRequest: StoredPlanRequest,
  opts: Pick<CreateOptions, 'canTranslate' | 'hasModel'>,
  fresh: boolean,
): Promise<Checked> {
  // An id of the wrong shape cannot exist; answering without a query also keeps odd bytes out of SQL.
  if (!isId('app', request.appId)) throw appNotFound(request.appId);
  const untranslatable = request.locales !== undefined && !opts.canTranslate;
  const screenIds = [...(request.screenIds ?? []), ...(request.slides ?? []).flatMap((s) => (s.screenId ? [s.screenId] : []))];
  // Read once for every check; another account's app reads as missing before its screens are looked at.
  const reader = appReader(db, accountId, request.appId, fresh);
  const app = await reader.app();
  if (!app) throw appNotFound(request.appId);
  if (untranslatable) checkTranslatable(app, request);
  if (screenIds.length) await checkScreenIds(db, accountId, request.appId, screenIds);
  const focused = (request.slides ?? []).flatMap((s, i) =>
    s.focus ? [{ field: `slides/${i}`, focus: s.focus, screenId: s.screenId }] : [],
  );
  const badFocus = await focusErrors(db, accountId, request.appId, focused);
  if (badFocus.length) throw validationFailed(badFocus);
  const fillable = request.slides
    ? { warnings: [], family: null, hasScreens: null }
    : await checkSetFillable(db, reader, app, planRequest, opts.hasModel ?? !!opts.canTranslate);
  return {
    warnings: fillable.warnings,
    facts: {
      extraContext: app.extraContext,
      listingsVersion: app.listingsVersion,
      family: fillable.family,
      hasScreens: fillable.hasScreens,
    },
  };
}

export interface ScreenshotSetEstimate {
  /** How many slides the set will have (in each locale). */
  slides: number;
  warnings: string[];
  credits: { cost: number; remaining: number };
}

/**
 * A create's checks without the create (POST /screenshots/estimate): the same refusals, the number
 * of slides, the price and the balance, and the warnings known before the charge, so a client can
 * show them before it spends anything. Nothing is written; a balance short of the price is the
 * same 402 a create would answer.
 */
export async function estimateScreenshotSet(
  db: Db,
  accountId: string,
  request: ScreenshotSetRequest,
  opts: Pick<CreateOptions, 'now' | 'canTranslate' | 'hasModel'>,
): Promise<ScreenshotSetEstimate> {
  const planRequest = resolveRequest(request);
  // Nothing is charged on it, so nothing would catch a stale snapshot: read the app afresh.
  const { warnings } = await checkBeforeCharge(db, accountId, request, planRequest, opts, true);
  const cost = setCost(request);
  const { remaining } = await getBalance(db, accountId, opts.now);
  if (remaining < cost) throw await insufficientCredits(db, accountId, cost, opts.now);
  // A set that cannot have this many slides was refused above (cannot_fill_set).
  return { slides: planRequest.slides?.length ?? planRequest.count, warnings, credits: { cost, remaining } };
}

/** An answer recorded before answers had warnings is replayed with none. */
const withWarnings = (body: CreatedScreenshotSet): CreatedScreenshotSet => ({ ...body, warnings: body.warnings ?? [] });

export async function createScreenshotSet(
  db: Db,
  accountId: string,
  request: ScreenshotSetRequest,
  opts: CreateOptions,
): Promise<{ body: CreatedScreenshotSet; replayed: boolean }> {
  const planRequest = resolveRequest(request);
  const hash = opts.idempotencyKey ? requestHash(request) : null;

  if (opts.idempotencyKey) {
    const replay = await findIdempotencyRecord<CreatedScreenshotSet>(db, accountId, opts.idempotencyKey, hash!, opts.now);
    if (replay) return { body: withWarnings(replay), replayed: true };
  }
  const jobId = newId('job');
  // A snapshot that turned out stale wrote nothing: check again from the database, a few times.
  for (let attempt = 1; ; attempt++) {
    const { warnings, facts } = await checkBeforeCharge(db, accountId, request, planRequest, opts, attempt > 1);
    const item = { accountId, appId: request.appId, jobId, request: planRequest, cost: setCost(request), now: opts.now, checked: facts };
    try {
      const body: CreatedScreenshotSet = opts.idempotencyKey
        ? await transaction(db, async (tx) => {
            // First in the transaction: a concurrent duplicate waits here for this one to commit.
            await claimIdempotencyKey(tx, accountId, opts.idempotencyKey!, hash!, opts.now, opts.idempotencyWaitMs);
            const created = { ...(await chargeAndEnqueue(tx, item)), warnings };
            await completeIdempotencyKey(tx, accountId, opts.idempotencyKey!, jobId, created);
            return created;
          })
        : // One statement is its own transaction; the account's concurrent creates share one (./charge-batches.ts).
          { ...(await chargeBatched(db, item)), warnings };
      opts.onCharged?.(accountId);
      creditsCharged.inc(body.credits.cost);
      await announce(db, accountId, opts.notifier);
      return { body, replayed: false };
    } catch (error) {
      if (error instanceof StaleCheck) {
        if (attempt < 3) continue;
        throw new Problem(
          'service_unavailable',
          'The app changed while this set was being created. Retry in a moment.',
          {},
          { 'Retry-After': '1' },
        );
      }
      // Lost the race for this key to a request that has now committed: answer as it did.
      if (opts.idempotencyKey && isUniqueViolation(error)) {
        const replay = await findIdempotencyRecord<CreatedScreenshotSet>(db, accountId, opts.idempotencyKey, hash!, opts.now);
        if (replay) return { body: withWarnings(replay), replayed: true };
      }
      throw error;
    }
  }
}

/**
 * Wake the workers and tell every process the account's credits changed (see NotifyBatcher),
 * before the client hears back: its next GET /account, on any process, shows the charge. Never
 * throws: the set is committed, and a lost notification only delays (workers poll, caches expire).
 */
async function announce(db: Queryable, accountId: string, notifier: CreateOptions['notifier']): Promise<void> {
  if (notifier) {
    await Promise.all([notifier.notify('shotgen_jobs'), notifier.notify('shotgen_credits', accountId)]);
    return;
  }
  await db.query(`SELECT pg_notify('shotgen_jobs', ''), pg_notify('shotgen_credits', $1)`, [accountId]).catch(() => undefined);
}
