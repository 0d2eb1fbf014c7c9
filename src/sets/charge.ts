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
import { ChargeGather } from './charge-gather.ts';
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
 * Several accounts' creates in one statement (./charge-gather.ts): items of groups, a group being one
 * account's creates in one credit period. A group is written whole only if every app of it is the
 * account's and still says what its check read, and its credits cover them all; the others write
 * nothing. The credit rows are locked in account order first, so two such statements (of two
 * processes) do not wait on each other's rows crosswise; a single-row charge locks one row only.
 */
const CHARGE_AND_ENQUEUE_GATHERED = `
  WITH items AS (
    SELECT * FROM unnest($1::int[], $2::text[], $3::date[], $4::text[], $5::text[], $6::text[], $7::int[], $8::text[], $9::text[], $10::boolean[], $11::int[])
      WITH ORDINALITY AS i(grp, account_id, period, app_id, job_id, request, cost, extra_context, family, has_screens, listings_version, ord)),
  checked AS (
    SELECT i.grp, min(i.account_id) AS account_id, min(i.period) AS period, sum(i.cost)::int AS cost,
      bool_and(a.id IS NOT NULL AND a.extra_context IS NOT DISTINCT FROM i.extra_context AND a.listings_version = i.listings_version
        AND (i.family IS NULL OR i.has_screens = EXISTS (
          SELECT 1 FROM screens s WHERE s.app_id = i.app_id AND s.account_id = i.account_id AND s.family = i.family AND s.deleted_at IS NULL))) AS ok
    FROM items i LEFT JOIN apps a ON a.id = i.app_id AND a.account_id = i.account_id
    GROUP BY i.grp),
  locked AS MATERIALIZED (
    SELECT c.account_id, c.period_start, k.grp, k.cost FROM credit_periods c JOIN checked k ON k.account_id = c.account_id AND k.period = c.period_start
    WHERE k.ok ORDER BY c.account_id, c.period_start FOR UPDATE OF c),
  charged AS (
    UPDATE credit_periods c SET used = c.used + l.cost FROM locked l
    WHERE c.account_id = l.account_id AND c.period_start = l.period_start AND c.allowance + c.granted - c.used >= l.cost
    RETURNING l.grp, c.allowance + c.granted - c.used AS remaining),
  ledger AS (
    INSERT INTO credit_ledger (account_id, period_start, kind, amount, job_id)
    SELECT i.account_id, i.period, 'charge', i.cost, i.job_id FROM items i JOIN charged g ON g.grp = i.grp ORDER BY i.ord),
  job AS (
    INSERT INTO jobs (id, account_id, app_id, request, cost, period_start)
    SELECT i.job_id, i.account_id, i.app_id, i.request::jsonb, i.cost, i.period FROM items i JOIN charged g ON g.grp = i.grp ORDER BY i.ord)
  SELECT grp, remaining FROM charged`;

/** One account's batches, and the statements they share with other accounts, per pool (tests run many databases in one process). */
const batchesByDb = new WeakMap<Queryable, ChargeBatches<ChargeItem, Charged>>();
/** Gathered statements in flight at once: a few of the pool's connections (10 by default), the rest for everything else. */
const GATHERED_IN_FLIGHT = 3;

/** Charge and queue on `db`, sharing a statement with the account's creates in flight, and with other accounts'. */
export function chargeBatched(db: Queryable, item: ChargeItem): Promise<Charged> {
  let batches = batchesByDb.get(db);
  if (!batches) {
    const gather = new ChargeGather<ChargeItem[], Charged[]>((groups) => chargeGathered(db, groups), GATHERED_IN_FLIGHT);
    batches = new ChargeBatches<ChargeItem, Charged>({
      // Not charged in the gathered statement: alone, for its own answer (402, 404, a stale check) or the month's first charge.
      one: async (i) => (await gather.charge([i]))?.[0] ?? chargeAndEnqueue(db, i),
      // Null: ChargeBatches charges each alone, in order.
      many: (items) => gather.charge(items),
    });
    batchesByDb.set(db, batches);
  }
  return batches.charge(`${item.accountId} ${periodStart(item.now)}`, item);
}

/** Groups of one account and one credit period each (the batches' key): their answers, null for a group not charged. */
async function chargeGathered(q: Queryable, groups: ChargeItem[][]): Promise<(Charged[] | null)[]> {
  const items = groups.flatMap((g, grp) => g.map((i) => ({ grp, i })));
  const { rows } = await q.query<{ grp: number; remaining: number }>({
    name: 'charge-and-enqueue-gathered',
    text: CHARGE_AND_ENQUEUE_GATHERED,
    values: [
      items.map((x) => x.grp),
      items.map((x) => x.i.accountId),
      items.map((x) => periodStart(x.i.now)),
      items.map((x) => x.i.appId),
      items.map((x) => x.i.jobId),
      items.map((x) => JSON.stringify(x.i.request)),
      items.map((x) => x.i.cost),
      items.map((x) => x.i.checked.extraContext),
      items.map((x) => x.i.checked.family),
      items.map((x) => x.i.checked.hasScreens),
      items.map((x) => x.i.checked.listingsVersion),
    ],
  });
  const remaining = new Map(rows.map((r) => [r.grp, r.remaining]));
  return groups.map((g, grp) => {
    const left = remaining.get(grp);
    if (left === undefined) return null;
    // Each answers the balance right after its own charge, as if they had run one after another.
    let after = left + g.reduce((n, i) => n + i.cost, 0);
    return g.map((i) => {
      after -= i.cost;
      return { jobId: i.jobId, credits: { cost: i.cost, remaining: after } };
    });
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
