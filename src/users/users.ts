/**
 * Users: the people who sign in to the dashboard. A user owns one account; an account may have
 * several users (the operator's `shotgen users create` adds one to any account).
 */
import { createAccount, getAccount } from '../accounts/accounts.ts';
import { isUniqueViolation, transaction, type Db, type Queryable } from '../db/pool.ts';
import { newId } from '../core/ids.ts';
import { Problem, validationFailed, type FieldError } from '../core/problem.ts';
import { hashPassword, passwordProblem } from './passwords.ts';

export interface User {
  id: string;
  accountId: string;
  email: string;
  createdAt: Date;
}

interface UserRow {
  id: string;
  account_id: string;
  email: string;
  created_at: Date;
}

export const toUser = (r: UserRow): User => ({ id: r.id, accountId: r.account_id, email: r.email, createdAt: r.created_at });

// Deliberately loose (one @, a dot in the domain, no spaces): mail is never sent, so the address
// is a name to sign in with; a stricter rule would only refuse real addresses.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const normalizeEmail = (email: string): string => email.trim();

function checkCredentials(email: string, password: string): FieldError[] {
  const errors: FieldError[] = [];
  if (!EMAIL.test(email) || email.length > 254)
    errors.push({ field: 'email', message: 'must be an email address such as you@example.com' });
  const pw = passwordProblem(password);
  if (pw) errors.push({ field: 'password', message: pw });
  return errors;
}

const emailTaken = () => validationFailed([{ field: 'email', message: 'is already registered; sign in instead' }]);

async function insertUser(q: Queryable, accountId: string, email: string, passwordHash: string): Promise<User> {
  const { rows } = await q.query<UserRow>(
    'INSERT INTO users (id, account_id, email, password_hash) VALUES ($1, $2, $3, $4) RETURNING id, account_id, email, created_at',
    [newId('usr'), accountId, email, passwordHash],
  );
  return toUser(rows[0]);
}

/** Give an existing account a user (the operator's command). */
export async function createUser(db: Queryable, input: { accountId: string; email: string; password: string }): Promise<User> {
  const email = normalizeEmail(input.email);
  const errors = checkCredentials(email, input.password);
  if (errors.length) throw validationFailed(errors);
  if (!(await getAccount(db, input.accountId))) throw new Problem('not_found', `No account ${input.accountId}`);
  const passwordHash = await hashPassword(input.password);
  try {
    return await insertUser(db, input.accountId, email, passwordHash);
  } catch (e) {
    if (isUniqueViolation(e)) throw emailTaken();
    throw e;
  }
}

/** Sign up: a new account on the free plan and its first user, together or not at all. */
export async function signUp(db: Db, input: { email: string; password: string }): Promise<User> {
  const email = normalizeEmail(input.email);
  const errors = checkCredentials(email, input.password);
  if (errors.length) throw validationFailed(errors);
  // Hash outside the transaction: no connection is held for the 80 ms it takes.
  const passwordHash = await hashPassword(input.password);
  try {
    return await transaction(db, async (tx) => {
      const account = await createAccount(tx, { name: email, plan: 'free' });
      return insertUser(tx, account.id, email, passwordHash);
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw emailTaken();
    throw e;
  }
}

/** The user and stored hash for a sign-in, by email in any letter case. */
export async function findUserByEmail(db: Queryable, email: string): Promise<(User & { passwordHash: string }) | null> {
  const { rows } = await db.query<UserRow & { password_hash: string }>(
    'SELECT id, account_id, email, created_at, password_hash FROM users WHERE lower(email) = lower($1)',
    [normalizeEmail(email)],
  );
  return rows[0] ? { ...toUser(rows[0]), passwordHash: rows[0].password_hash } : null;
}
