/** The credit ledger as the owner reads it: every charge, refund and grant, newest first. */
import type { Queryable } from '../db/pool.ts';

export interface LedgerEntry {
  id: number;
  periodStart: string;
  kind: 'charge' | 'refund' | 'grant';
  amount: number;
  jobId: string | null;
  note: string | null;
  createdAt: Date;
}

export async function listLedger(db: Queryable, accountId: string, limit = 100): Promise<LedgerEntry[]> {
  const { rows } = await db.query<{
    id: number;
    period_start: string;
    kind: LedgerEntry['kind'];
    amount: number;
    job_id: string | null;
    note: string | null;
    created_at: Date;
  }>(
    `SELECT id, to_char(period_start, 'YYYY-MM-DD') AS period_start, kind, amount, job_id, note, created_at
     FROM credit_ledger WHERE account_id = $1 ORDER BY id DESC LIMIT $2`,
    [accountId, limit],
  );
  return rows.map((r) => ({
    id: r.id,
    periodStart: r.period_start,
    kind: r.kind,
    amount: r.amount,
    jobId: r.job_id,
    note: r.note,
    createdAt: r.created_at,
  }));
}
