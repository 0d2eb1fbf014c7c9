/**
 * The statements that charge a create and queue its job, and the batches that share them between
 * one account's concurrent creates (./charge-batches.ts).
 *
 * A create checks its set before the charge from a snapshot of the app that this process keeps
 * (./app-snapshots.ts); the charge then writes only while the app still says what the check read
 * (its guidance, its listings' version, and whether it has uploaded screens of the family). So a snapshot another process
 * made stale can never let a set be charged that the current app would refuse: the statement
 * writes nothing and answers `fresh = false`, and the create checks again from the database.
 */
import { CHARGE_UPDATE, ensurePeriod, insufficientCredits, periodStart } from '../accounts/credits.ts';
import { appNotFound } from '../apps/apps.ts';
import type { Queryable } from '../db/pool.ts';
import type { ScreenshotFamily } from '../core/listing.ts';
import { ChargeBatches } from './charge-batches.ts';
import type { StoredPlanRequest } from './jobs.ts';

/** What the check before the charge read of the app, which the charge requires to be still true. */
export interface CheckedFacts {
  extraContext: string | null;
  /** The app's listings_version: a store listing added since the check changes what was checked. */
  listingsVersion: number;
  /** The family whose uploaded screens the check counted; null when it did not need them. */
  family: ScreenshotFamily | null;
  hasScreens: boolean | null;
}

/** The app no longer says what the check read: nothing was written; check again, fresh. */
export class StaleCheck extends Error {
  constructor(appId: string) {
    super(`app ${appId} changed between the check and the charge`);
  }
}

export interface Charged {
  jobId: string;
  credits: { cost: number; remaining: number };
}

export interface ChargeItem {
  accountId: string;
  appId: string;
  jobId: string;
  request: StoredPlanRequest;
  cost: number;
  now: Date;
  checked: CheckedFacts;
}

/**
 * Check the app, charge, write the ledger row and queue the job in ONE statement: one round trip,
 * and the credit row stays locked only until this statement commits, which is what bounds how
 * many sets one account can create per second. Nothing is written unless the app belongs to the
 * account, still says what the check read, and the credits suffice.
 */
const CHARGE_AND_ENQUEUE = `
  WITH app AS (
    SELECT extra_context IS NOT DISTINCT FROM $7::text AND listings_version = $10::int AND ($8::text IS NULL OR $9::boolean = EXISTS (
      SELECT 1 FROM screens s WHERE s.app_id = $4 AND s.account_id = $1 AND s.family = $8 AND s.deleted_at IS NULL)) AS fresh
    FROM apps WHERE id = $4 AND account_id = $1),
  charged AS (${CHARGE_UPDATE} AND (SELECT fresh FROM app) RETURNING allowance + granted - used AS remaining),
  ledger AS (
    INSERT INTO credit_ledger (account_id, period_start, kind, amount, job_id)
    SELECT $1, $2::date, 'charge', $3, $5 FROM charged),
  job AS (
    INSERT INTO jobs (id, account_id, app_id, request, cost, period_start)
    SELECT $5, $1, $4, $6::jsonb, $3, $2::date FROM charged)
  SELECT (SELECT remaining FROM charged) AS remaining, EXISTS (SELECT 1 FROM app) AS app_found,
    coalesce((SELECT fresh FROM app), false) AS fresh`;

/**
 * Several creates of one account and credit period in one statement, in order: all are written,
 * or none (a null remaining: the credits do not cover them all, an app is not the account's, or
 * one no longer says what its check read).
 */
const CHARGE_AND_ENQUEUE_MANY = `
  WITH items AS (
    SELECT * FROM unnest($4::text[], $5::text[], $6::text[], $7::int[], $8::text[], $9::text[], $10::boolean[], $11::int[])
      WITH ORDINALITY AS i(app_id, job_id, request, cost, extra_context, family, has_screens, listings_version, ord)),
  app AS (
    SELECT count(*) = cardinality($5::text[]) AS ok FROM items JOIN apps a ON a.id = items.app_id AND a.account_id = $1
    WHERE a.extra_context IS NOT DISTINCT FROM items.extra_context AND a.listings_version = items.listings_version AND (items.family IS NULL OR items.has_screens = EXISTS (
      SELECT 1 FROM screens s WHERE s.app_id = items.app_id AND s.account_id = $1 AND s.family = items.family AND s.deleted_at IS NULL))),
  charged AS (${CHARGE_UPDATE} AND (SELECT ok FROM app) RETURNING allowance + granted - used AS remaining),
  ledger AS (
    INSERT INTO credit_ledger (account_id, period_start, kind, amount, job_id)
    SELECT $1, $2::date, 'charge', items.cost, items.job_id FROM items, charged ORDER BY items.ord),
  job AS (
    INSERT INTO jobs (id, account_id, app_id, request, cost, period_start)
    SELECT items.job_id, $1, items.app_id, items.request::jsonb, items.cost, $2::date FROM items, charged ORDER BY items.ord)
  SELECT (SELECT remaining FROM charged) AS remaining`;

/** One set of batches per pool (tests run many databases in one process). */
const batchesByDb = new WeakMap<Queryable, ChargeBatches<ChargeItem, Charged>>();

/** Charge and queue on `db`, sharing a statement with the account's creates in flight. */
export function chargeBatched(db: Queryable, item: ChargeItem): Promise<Charged> {
  let batches = batchesByDb.get(db);
  if (!batches) {
    batches = new ChargeBatches<ChargeItem, Charged>({
      one: (i) => chargeAndEnqueue(db, i),
      many: (items) => chargeAndEnqueueMany(db, items),
    });
    batchesByDb.set(db, batches);
  }
  return batches.charge(`${item.accountId} ${periodStart(item.now)}`, item);
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
      items.map((i) => i.checked.extraContext),
      items.map((i) => i.checked.family),
      items.map((i) => i.checked.hasScreens),
      items.map((i) => i.checked.listingsVersion),
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

/**
 * One create alone (also inside an idempotency transaction). Named: each connection parses and
 * plans this four-part statement once, not per create (in the create bench that planning was a
 * third of PostgreSQL's time).
 */
export async function chargeAndEnqueue(q: Queryable, item: ChargeItem): Promise<Charged> {
  const { accountId, appId, jobId, cost, now, checked } = item;
  const period = periodStart(now);
  const run = async () =>
    (
      await q.query<{ remaining: number | null; app_found: boolean; fresh: boolean }>({
        name: 'charge-and-enqueue',
        text: CHARGE_AND_ENQUEUE,
        values: [
          accountId,
          period,
          cost,
          appId,
          jobId,
          JSON.stringify(item.request),
          checked.extraContext,
          checked.family,
          checked.hasScreens,
          checked.listingsVersion,
        ],
      })
    ).rows[0];
  let outcome = await run();
  if (!outcome.app_found) throw appNotFound(appId);
  if (!outcome.fresh) throw new StaleCheck(appId);
  if (outcome.remaining === null) {
    // Either the month's period row does not exist yet (the first charge of a month) or the
    // credits are short: create the row and try once more.
    await ensurePeriod(q, accountId, period);
    outcome = await run();
    if (!outcome.fresh) throw new StaleCheck(appId);
    if (outcome.remaining === null) throw await insufficientCredits(q, accountId, cost, now);
  }
  return { jobId, credits: { cost, remaining: outcome.remaining } };
}
