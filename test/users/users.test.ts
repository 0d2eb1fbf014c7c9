import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/accounts/accounts.ts';
import { findSession } from '../../src/users/sessions.ts';
import { signIn } from '../../src/users/sign-in.ts';
import { createUser, signUp } from '../../src/users/users.ts';
import { ROOT } from '../cli/helpers.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';

const PASSWORD = 'correct horse battery';
const LIMITS = { perEmail: 3, perAddress: 100, windowMs: 60_000 };

describe('users and sign-in', () => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await createTestDatabase();
  });
  afterEach(async () => t.drop());

  it('signs in with the right password only; unknown email and wrong password look the same', async () => {
    await signUp(t.pool, { email: 'u@example.com', password: PASSWORD });
    const now = new Date();
    const ok = await signIn(t.pool, { email: 'U@example.com', password: PASSWORD, address: '10.0.0.1' }, now, LIMITS);
    expect(ok.ok).toBe(true);
    if (!ok.ok) return;
    expect(ok.user).not.toHaveProperty('passwordHash');
    expect((await findSession(t.pool, ok.token, now))?.user.email).toBe('u@example.com');
    expect(await signIn(t.pool, { email: 'u@example.com', password: 'not the password', address: '10.0.0.1' }, now, LIMITS)).toEqual({
      ok: false,
      reason: 'invalid',
    });
    expect(await signIn(t.pool, { email: 'nobody@example.com', password: PASSWORD, address: '10.0.0.1' }, now, LIMITS)).toEqual({
      ok: false,
      reason: 'invalid',
    });
    expect(await signIn(t.pool, { email: 'u@example.com', password: 'x'.repeat(10_000), address: '10.0.0.1' }, now, LIMITS)).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });

  it('a throttled email is free again when its window has passed, and a success clears its count', async () => {
    await signUp(t.pool, { email: 'w@example.com', password: PASSWORD });
    const t0 = new Date('2026-11-23T10:00:00Z');
    for (let i = 0; i < 3; i++) await signIn(t.pool, { email: 'w@example.com', password: 'wrong password', address: 'a' }, t0, LIMITS);
    const blocked = await signIn(
      t.pool,
      { email: 'w@example.com', password: PASSWORD, address: 'a' },
      new Date(t0.getTime() + 30_000),
      LIMITS,
    );
    expect(blocked).toEqual({ ok: false, reason: 'throttled', retryAfterSeconds: 30 });
    const later = new Date(t0.getTime() + 61_000);
    expect((await signIn(t.pool, { email: 'w@example.com', password: PASSWORD, address: 'a' }, later, LIMITS)).ok).toBe(true);
    // Cleared by the success: three more failures are allowed before the next refusal.
    for (let i = 0; i < 3; i++)
      expect((await signIn(t.pool, { email: 'w@example.com', password: 'wrong password', address: 'a' }, later, LIMITS)).ok).toBe(false);
    expect(await signIn(t.pool, { email: 'w@example.com', password: PASSWORD, address: 'a' }, later, LIMITS)).toMatchObject({
      reason: 'throttled',
    });
  });

  it('a sign-in prunes expired sessions and stale throttle counters', async () => {
    await signUp(t.pool, { email: 'p@example.com', password: PASSWORD });
    const t0 = new Date('2026-11-01T00:00:00Z');
    const first = await signIn(t.pool, { email: 'p@example.com', password: PASSWORD, address: 'x' }, t0, LIMITS);
    await signIn(t.pool, { email: 'other@example.com', password: PASSWORD, address: 'y' }, t0, LIMITS);
    expect((await t.pool.query('SELECT count(*)::int AS n FROM sign_in_failures')).rows[0].n).toBe(3);
    const later = new Date(t0.getTime() + 15 * 24 * 3600 * 1000);
    const second = await signIn(t.pool, { email: 'p@example.com', password: PASSWORD, address: 'z' }, later, LIMITS);
    expect(first.ok && second.ok).toBe(true);
    const { rows } = await t.pool.query('SELECT expires_at FROM sessions');
    expect(rows).toHaveLength(1);
    expect(rows[0].expires_at.getTime()).toBeGreaterThan(later.getTime());
    expect((await t.pool.query(`SELECT subject FROM sign_in_failures ORDER BY subject`)).rows.map((r) => r.subject)).toEqual(['addr:z']);
  });

  it('createUser gives an existing account an owner; refuses unknown accounts and taken emails', async () => {
    const account = await createAccount(t.pool, { name: 'Operator made', plan: 'pro' });
    const user = await createUser(t.pool, { accountId: account.id, email: 'boss@example.com', password: PASSWORD });
    expect(user).toMatchObject({ accountId: account.id, email: 'boss@example.com', id: expect.stringMatching(/^usr_/) });
    await expect(
      createUser(t.pool, { accountId: 'acc_01JD2ZK5T8Q3W4E5R6T7Y8U9AB', email: 'x@example.com', password: PASSWORD }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(createUser(t.pool, { accountId: account.id, email: 'BOSS@example.com', password: PASSWORD })).rejects.toMatchObject({
      code: 'validation_failed',
    });
  });
});

describe('shotgen users create', () => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await createTestDatabase();
  });
  afterEach(async () => t.drop());

  async function run(args: string[], stdin?: string) {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'shotgen.js'), ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: t.url, LOG_LEVEL: 'warn' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdin.end(stdin ?? '');
    const [code] = (await once(child, 'close')) as [number];
    return { code, stdout, stderr };
  }

  it('generates a password and prints it once, or reads it from stdin; the owner can then sign in', async () => {
    const account = await createAccount(t.pool, { name: 'Acme', plan: 'free' });
    const generated = await run(['users', 'create', '--account', account.id, '--email', 'gen@example.com', '--json']);
    expect(generated.code, generated.stderr).toBe(0);
    const out = JSON.parse(generated.stdout);
    expect(out).toMatchObject({ accountId: account.id, email: 'gen@example.com', password: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/) });
    expect((await signIn(t.pool, { email: 'gen@example.com', password: out.password, address: 'cli' }, new Date())).ok).toBe(true);

    const piped = await run(
      ['users', 'create', '--account', account.id, '--email', 'piped@example.com', '--password-stdin', '--json'],
      'a piped passphrase\n',
    );
    expect(piped.code, piped.stderr).toBe(0);
    expect(JSON.parse(piped.stdout)).not.toHaveProperty('password');
    expect((await signIn(t.pool, { email: 'piped@example.com', password: 'a piped passphrase', address: 'cli' }, new Date())).ok).toBe(
      true,
    );
  });

  it('refuses a short password, an unknown account and an empty stdin with a one-line message', async () => {
    const account = await createAccount(t.pool, { name: 'Acme', plan: 'free' });
    const short = await run(['users', 'create', '--account', account.id, '--email', 's@example.com', '--password-stdin'], 'short\n');
    expect(short.code).toBe(2);
    expect(short.stderr).toBe('shotgen: password: must be at least 10 characters\n');
    const unknown = await run(['users', 'create', '--account', 'acc_01JD2ZK5T8Q3W4E5R6T7Y8U9AB', '--email', 'u@example.com']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No account');
    const empty = await run(['users', 'create', '--account', account.id, '--email', 'e@example.com', '--password-stdin']);
    expect(empty.code).toBe(2);
    expect((await t.pool.query('SELECT count(*)::int AS n FROM users')).rows[0].n).toBe(0);
  });
});
