import { newId } from '../core/ids.ts';
import type { Queryable } from '../db/pool.ts';
import { Problem } from '../core/problem.ts';
import { isPlanId, PLAN_IDS, type PlanId } from './plans.ts';

export interface Account {
  id: string;
  name: string;
  plan: PlanId;
  createdAt: Date;
}

interface AccountRow {
  id: string;
  name: string;
  plan_id: PlanId;
  created_at: Date;
}

const toAccount = (r: AccountRow): Account => ({ id: r.id, name: r.name, plan: r.plan_id, createdAt: r.created_at });

export async function createAccount(db: Queryable, input: { name: string; plan?: string }): Promise<Account> {
  const plan = input.plan ?? 'free';
  if (!isPlanId(plan)) throw new Problem('validation_failed', `plan must be one of ${PLAN_IDS.join(', ')}`);
  const name = input.name.trim();
  if (!name) throw new Problem('validation_failed', 'name must not be empty');
  const { rows } = await db.query<AccountRow>('INSERT INTO accounts (id, name, plan_id) VALUES ($1, $2, $3) RETURNING *', [
    newId('acc'),
    name,
    plan,
  ]);
  return toAccount(rows[0]);
}

export async function listAccounts(db: Queryable): Promise<Account[]> {
  const { rows } = await db.query<AccountRow>('SELECT * FROM accounts ORDER BY created_at, id');
  return rows.map(toAccount);
}

export async function getAccount(db: Queryable, id: string): Promise<Account | null> {
  const { rows } = await db.query<AccountRow>('SELECT * FROM accounts WHERE id = $1', [id]);
  return rows[0] ? toAccount(rows[0]) : null;
}
