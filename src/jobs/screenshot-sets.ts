/**
 * Creating a screenshot set: one transaction charges the credits (SCREENSHOT_SET_COST per locale), writes the queued
 * job and, with an Idempotency-Key, the idempotency record. There is never a charge without a job nor a job
 * without a charge, and a refused request changes nothing.
 */
import type { ThemeId } from '../brand/theme-ids.ts';
import { CHARGE_UPDATE, ensurePeriod, getBalance, insufficientCredits, periodStart } from '../accounts/credits.ts';
import type { NotifyBatcher } from '../db/notify-batcher.ts';
import { isUniqueViolation, transaction, type Db, type Queryable } from '../db/pool.ts';
import { isId, newId } from '../ids.ts';
import { findNarrative } from '../planning/narratives.ts';
import { planDefaults, type PlanRequest } from '../planning/types.ts';
import { Problem, validationFailed } from '../problem.ts';
import { appNotFound, findApp, type App } from '../apps/apps.ts';
import { checkScreenIds, familyScreens } from '../screens/screens.ts';
import { listingLocale, localesErrors, plannedNatively } from '../planning/locales.ts';
import { primaryListing, screensFor } from '../planning/screens.ts';
import { fillableOffThread } from '../planning/fillable.ts';
import { DEVICES } from '../planning/types.ts';
import { creditsCharged } from '../metrics/index.ts';
import { claimIdempotencyKey, completeIdempotencyKey, findIdempotencyRecord, requestHash } from './idempotency.ts';
import type { StoredPlanRequest } from './jobs.ts';
import { ChargeBatches } from './charge-batches.ts';

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
  /** Check only: answer the price, the balance and the warnings; create and charge nothing. */
  dryRun?: boolean;
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
  const listings = [app.iosListing, app.androidListing].filter((l) => l !== null);
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

/** A set the rule writer cannot fill (and no model will), or with nothing to frame, is refused before the charge. */
async function checkSetFillable(
  db: Queryable,
  accountId: string,
  app: App,
  request: StoredPlanRequest,
  hasModel: boolean,
): Promise<string[]> {
  const listings = [app.iosListing, app.androidListing].filter((l) => l !== null);
  if (listings.length === 0) return [];
  const family = DEVICES[request.device].family;
  // Only counted when the listing has no screenshot of the family: the common case costs no query.
  const uploadedScreens =
    // A Mac listing's screenshots are not an iPhone's (the planner does not use them).
    screensFor(listings, request.device).urls.length > 0 && primaryListing(listings, request.device).platform !== 'mac'
      ? undefined
      : request.screenIds?.length || (await familyScreens(db, accountId, app.id, family)).length;
  // An app's listings never change after it is added; its guidance can, and is in the key.
  const key = JSON.stringify([app.id, app.extraContext, request, uploadedScreens ?? null]);
  return fillableOffThread({ listings, extraContext: app.extraContext, request, uploadedScreens }, hasModel, key);
}

/** The request as the job stores it: defaults resolved, a narrative fixing the slide count. */
function resolveRequest(request: ScreenshotSetRequest): StoredPlanRequest {
  checkLocales(request);
  const extras = {
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

/** Every check a create makes before it charges; what it returns is the draft's warnings. */
async function checkBeforeCharge(
  db: Db,
  accountId: string,
  request: ScreenshotSetRequest,
  planRequest: StoredPlanRequest,
  opts: Pick<CreateOptions, 'canTranslate' | 'hasModel'>,
): Promise<string[]> {
  // An id of the wrong shape cannot exist; answering without a query also keeps odd bytes out of SQL.
  if (!isId('app', request.appId)) throw appNotFound(request.appId);
  const untranslatable = request.locales !== undefined && !opts.canTranslate;
  const screenIds = [...(request.screenIds ?? []), ...(request.slides ?? []).flatMap((s) => (s.screenId ? [s.screenId] : []))];
  // Read once for every check; another account's app reads as missing before its screens are looked at.
  const app = await findApp(db, accountId, request.appId);
  if (!app) throw appNotFound(request.appId);
  if (untranslatable) checkTranslatable(app, request);
  if (screenIds.length) await checkScreenIds(db, accountId, request.appId, screenIds);
  return request.slides ? [] : checkSetFillable(db, accountId, app, planRequest, opts.hasModel ?? !!opts.canTranslate);
}

export interface CheckedScreenshotSet {
  dryRun: true;
  credits: { cost: number; remaining: number };
  warnings: string[];
}

/**
 * A create's checks without the create (`dryRun`): the same refusals, the price and the balance,
 * and the warnings known before the charge, so a client can show them before it spends anything.
 * Nothing is written; a balance short of the price is the same 402 a create would answer.
 */
export async function checkScreenshotSet(
  db: Db,
  accountId: string,
  request: ScreenshotSetRequest,
  opts: Pick<CreateOptions, 'now' | 'canTranslate' | 'hasModel'>,
): Promise<CheckedScreenshotSet> {
  const warnings = await checkBeforeCharge(db, accountId, request, resolveRequest(request), opts);
  const cost = setCost(request);
  const { remaining } = await getBalance(db, accountId, opts.now);
  if (remaining < cost) throw await insufficientCredits(db, accountId, cost, opts.now);
  return { dryRun: true, credits: { cost, remaining }, warnings };
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
  const warnings = await checkBeforeCharge(db, accountId, request, planRequest, opts);

  const jobId = newId('job');
  const enqueue = async (q: Queryable): Promise<CreatedScreenshotSet> => ({
    ...(await chargeAndEnqueue(q, accountId, request.appId, jobId, planRequest, setCost(request), opts.now)),
    warnings,
  });
  try {
    const body = opts.idempotencyKey
      ? await transaction(db, async (tx) => {
          // First in the transaction: a concurrent duplicate waits here for this one to commit.
          await claimIdempotencyKey(tx, accountId, opts.idempotencyKey!, hash!, opts.now, opts.idempotencyWaitMs);
          const created = await enqueue(tx);
          await completeIdempotencyKey(tx, accountId, opts.idempotencyKey!, jobId, created);
          return created;
        })
      : // One statement is its own transaction; the account's concurrent creates share one (./charge-batches.ts).
        {
          ...(await chargeBatchesOf(db).charge(`${accountId} ${periodStart(opts.now)}`, {
            accountId,
            appId: request.appId,
            jobId,
            request: planRequest,
            cost: setCost(request),
            now: opts.now,
          })),
          warnings,
        };
    opts.onCharged?.(accountId);
    creditsCharged.inc(body.credits.cost);
    await announce(db, accountId, opts.notifier);
    return { body, replayed: false };
  } catch (error) {
    // Lost the race for this key to a request that has now committed: answer as it did.
    if (opts.idempotencyKey && isUniqueViolation(error)) {
      const replay = await findIdempotencyRecord<CreatedScreenshotSet>(db, accountId, opts.idempotencyKey, hash!, opts.now);
      if (replay) return { body: withWarnings(replay), replayed: true };
    }
    throw error;
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

/**
 * Check the app, charge, write the ledger row and queue the job in ONE statement: one round trip,
 * and the credit row stays locked only until this statement commits, which is what bounds how
 * many sets one account can create per second. Nothing is written unless the app belongs to the
 * account and the credits suffice.
 */
const CHARGE_AND_ENQUEUE = `
  WITH app AS (SELECT 1 FROM apps WHERE id = $4 AND account_id = $1),
  charged AS (${CHARGE_UPDATE} AND EXISTS (SELECT 1 FROM app) RETURNING allowance + granted - used AS remaining),
  ledger AS (
    INSERT INTO credit_ledger (account_id, period_start, kind, amount, job_id)
    SELECT $1, $2::date, 'charge', $3, $5 FROM charged),
  job AS (
    INSERT INTO jobs (id, account_id, app_id, request, cost, period_start)
    SELECT $5, $1, $4, $6::jsonb, $3, $2::date FROM charged)
  SELECT (SELECT remaining FROM charged) AS remaining, EXISTS (SELECT 1 FROM app) AS app_found`;

/**
 * Several creates of one account and credit period in one statement, in order: all are written,
 * or none (a null remaining: the credits do not cover them all, or an app is not the account's).
 */
const CHARGE_AND_ENQUEUE_MANY = `
  WITH items AS (
    SELECT * FROM unnest($4::text[], $5::text[], $6::text[], $7::int[]) WITH ORDINALITY AS i(app_id, job_id, request, cost, ord)),
  app AS (SELECT count(*) = cardinality($5::text[]) AS ok FROM items JOIN apps a ON a.id = items.app_id AND a.account_id = $1),
  charged AS (${CHARGE_UPDATE} AND (SELECT ok FROM app) RETURNING allowance + granted - used AS remaining),
  ledger AS (
    INSERT INTO credit_ledger (account_id, period_start, kind, amount, job_id)
    SELECT $1, $2::date, 'charge', items.cost, items.job_id FROM items, charged ORDER BY items.ord),
  job AS (
    INSERT INTO jobs (id, account_id, app_id, request, cost, period_start)
    SELECT items.job_id, $1, items.app_id, items.request::jsonb, items.cost, $2::date FROM items, charged ORDER BY items.ord)
  SELECT (SELECT remaining FROM charged) AS remaining`;

interface ChargeItem {
  accountId: string;
  appId: string;
  jobId: string;
  request: StoredPlanRequest;
  cost: number;
  now: Date;
}
type Charged = Omit<CreatedScreenshotSet, 'warnings'>;

/** One set of batches per pool (tests run many databases in one process). */
const batchesByDb = new WeakMap<Queryable, ChargeBatches<ChargeItem, Charged>>();

function chargeBatchesOf(db: Queryable): ChargeBatches<ChargeItem, Charged> {
  let batches = batchesByDb.get(db);
  if (!batches) {
    batches = new ChargeBatches<ChargeItem, Charged>({
      one: (i) => chargeAndEnqueue(db, i.accountId, i.appId, i.jobId, i.request, i.cost, i.now),
      many: (items) => chargeAndEnqueueMany(db, items),
    });
    batchesByDb.set(db, batches);
  }
  return batches;
}

/** Items of one account and one credit period (the batches' key). */
async function chargeAndEnqueueMany(q: Queryable, items: ChargeItem[]): Promise<Charged[] | null> {
  const total = items.reduce((n, i) => n + i.cost, 0);
  const { rows } = await q.query<{ remaining: number | null }>({
    name: 'charge-and-enqueue-many',
    text: CHARGE_AND_ENQUEUE_MANY,
    values: [
      items[0].accountId,
      periodStart(items[0].now),
      total,
      items.map((i) => i.appId),
      items.map((i) => i.jobId),
      items.map((i) => JSON.stringify(i.request)),
      items.map((i) => i.cost),
    ],
  });
  const remaining = rows[0].remaining;
  if (remaining === null) return null;
  // Each answers the balance right after its own charge, as if they had run one after another.
  let after = remaining + total;
  return items.map((i) => {
    after -= i.cost;
    return { jobId: i.jobId, credits: { cost: i.cost, remaining: after } };
  });
}

// Named: each connection parses and plans this four-part statement once, not per create (in the
// create bench that planning was a third of PostgreSQL's time).
async function chargeAndEnqueue(
  q: Queryable,
  accountId: string,
  appId: string,
  jobId: string,
  request: StoredPlanRequest,
  cost: number,
  now: Date,
): Promise<Omit<CreatedScreenshotSet, 'warnings'>> {
  const period = periodStart(now);
  const run = async () =>
    (
      await q.query<{ remaining: number | null; app_found: boolean }>({
        name: 'charge-and-enqueue',
        text: CHARGE_AND_ENQUEUE,
        values: [accountId, period, cost, appId, jobId, JSON.stringify(request)],
      })
    ).rows[0];
  let outcome = await run();
  if (!outcome.app_found) throw appNotFound(appId);
  if (outcome.remaining === null) {
    // Either the month's period row does not exist yet (the first charge of a month) or the
    // credits are short: create the row and try once more.
    await ensurePeriod(q, accountId, period);
    outcome = await run();
    if (outcome.remaining === null) throw await insufficientCredits(q, accountId, cost, now);
  }
  return { jobId, credits: { cost, remaining: outcome.remaining } };
}
