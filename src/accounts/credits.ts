/**
 * Monthly credits. A period row per account and calendar month (UTC) is created on first use with
 * the plan's allowance. Charges happen only in the statement that creates a screenshot set
 * (sets/create.ts, built on CHARGE_UPDATE); refund and grant each change the balance and
 * write a ledger row in the caller's transaction. Overspending is impossible: the charge's UPDATE only matches while
 * enough remain (re-checked after any concurrent update to the row), and a CHECK constraint
 * backs it up.
 */
import type { Queryable } from '../db/pool.ts';
import { Problem } from '../core/problem.ts';

export type Clock = () => Date;

/** First day of the month of `now`, UTC, as YYYY-MM-DD. */
export function periodStart(now: Date): string {
  return `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}-01`;
}

/** When the period containing `now` ends: the first instant of the next UTC month. */
export function periodEnd(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

export const formatInstant = (d: Date): string => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * The guarded balance update behind every charge ($1 account, $2 period, $3 amount). It matches
 * only while enough credits remain, and PostgreSQL re-checks that condition against the latest row
 * after waiting for a concurrent charge, so charges can never overspend. Callers append RETURNING.
 */
export const CHARGE_UPDATE = `UPDATE credit_periods SET used = used + $3
  WHERE account_id = $1 AND period_start = $2::date AND allowance + granted - used >= $3`;

/** Create the account's period row for `period` with the plan's allowance, if it is not there. */
export async function ensurePeriod(q: Queryable, accountId: string, period: string): Promise<void> {
  await q.query(
    `INSERT INTO credit_periods (account_id, period_start, allowance)
     SELECT a.id, $2, p.monthly_credits FROM accounts a JOIN plans p ON p.id = a.plan_id WHERE a.id = $1
     ON CONFLICT DO NOTHING`,
    [accountId, period],
  );
}

/** The 402 for a charge of `amount` that did not fit, with the balance as it is now. */
export async function insufficientCredits(q: Queryable, accountId: string, amount: number, now: Date): Promise<Problem> {
  const balance = await getBalance(q, accountId, now);
  const resetsAt = formatInstant(balance.resetsAt);
  return new Problem('insufficient_credits', `This request costs ${amount} credits; ${balance.remaining} remain until ${resetsAt}.`, {
    cost: amount,
    remaining: balance.remaining,
    resetsAt,
  });
}

/**
 * Give back a job's charge. Within the month it was charged, the charge is undone; a job that
 * fails after the month turned is refunded into the current month (as extra credits), where they
 * can still be spent. The ledger's unique index on (job_id) for refunds makes a second refund of
 * one job fail instead of paying twice.
 */
export async function refund(
  q: Queryable,
  accountId: string,
  chargedPeriod: string,
  amount: number,
  jobId: string,
  now: Date,
): Promise<void> {
  // 'YYYY-MM-01' strings order as the months do. A refunding clock behind the charging one (two
  // hosts) still undoes the charge in its own month.
  const undo = periodStart(now) <= chargedPeriod;
  const period = undo ? chargedPeriod : periodStart(now);
  if (!undo) await ensurePeriod(q, accountId, period);
  await q.query(`INSERT INTO credit_ledger (account_id, period_start, kind, amount, job_id) VALUES ($1, $2, 'refund', $3, $4)`, [
    accountId,
    period,
    amount,
    jobId,
  ]);
  const column = undo ? 'used = used - $3' : 'granted = granted + $3';
  await q.query(`UPDATE credit_periods SET ${column} WHERE account_id = $1 AND period_start = $2`, [accountId, period, amount]);
}

/** Extra credits for the current period (an operator's grant). */
export async function grant(q: Queryable, accountId: string, amount: number, now: Date, note: string | null = null): Promise<Balance> {
  if (!Number.isInteger(amount) || amount <= 0) throw new Problem('validation_failed', 'amount must be a positive whole number');
  const period = periodStart(now);
  await ensurePeriod(q, accountId, period);
  const res = await q.query('UPDATE credit_periods SET granted = granted + $3 WHERE account_id = $1 AND period_start = $2', [
    accountId,
    period,
    amount,
  ]);
  if (res.rowCount === 0) throw new Problem('not_found', `No account ${accountId}`);
  await q.query(`INSERT INTO credit_ledger (account_id, period_start, kind, amount, note) VALUES ($1, $2, 'grant', $3, $4)`, [
    accountId,
    period,
    amount,
    note,
  ]);
  return getBalance(q, accountId, now);
}

export interface Balance {
  accountName: string;
  plan: string;
  /** The plan's allowance plus grants for this period. */
  allowance: number;
  used: number;
  remaining: number;
  resetsAt: Date;
}

/** The balance as of `now`, without creating the period (a period not yet used is full). */
export async function getBalance(q: Queryable, accountId: string, now: Date): Promise<Balance> {
  const { rows } = await q.query<{ name: string; plan_id: string; allowance: number; used: number }>(
    `SELECT a.name, a.plan_id, COALESCE(c.allowance + c.granted, p.monthly_credits) AS allowance, COALESCE(c.used, 0) AS used
     FROM accounts a JOIN plans p ON p.id = a.plan_id
     LEFT JOIN credit_periods c ON c.account_id = a.id AND c.period_start = $2
     WHERE a.id = $1`,
    [accountId, periodStart(now)],
  );
  if (!rows[0]) throw new Problem('not_found', `No account ${accountId}`);
  const { name, plan_id, allowance, used } = rows[0];
  return { accountName: name, plan: plan_id, allowance, used, remaining: allowance - used, resetsAt: periodEnd(now) };
}
