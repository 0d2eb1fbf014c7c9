/**
 * The operator's commands run in-process through main(): main.ts only dispatches, so a test needs
 * no child process for them (test/cli/cli.test.ts keeps the cases that are about processes: the
 * embedded server shared between serve and a command).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/main.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { signIn } from '../../src/users/sign-in.ts';

let t: TestDatabase;
let saved: string | undefined;
beforeEach(async () => {
  t = await createTestDatabase();
  saved = process.env.DATABASE_URL;
  process.env.DATABASE_URL = t.url;
});
afterEach(async () => {
  if (saved === undefined) delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL = saved;
  vi.restoreAllMocks();
  await t.drop();
});

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((c) => ((out += String(c)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((c) => ((err += String(c)), true));
  try {
    const code = await main(argv);
    return { code, out, err };
  } finally {
    vi.restoreAllMocks();
  }
}

describe('operator commands in-process', () => {
  it('creates an account and a key, grants credits, and revokes the key', async () => {
    const account = await run('--json', 'accounts', 'create', '--name', 'Acme Apps', '--plan', 'pro');
    expect(account.code, account.err).toBe(0);
    const { id } = JSON.parse(account.out);
    expect(id).toMatch(/^acc_/);
    const key = JSON.parse((await run('--json', 'keys', 'create', '--account', id, '--name', 'ci')).out);
    expect(key.key).toMatch(/^sk_live_/);
    expect((await run('--json', 'credits', 'grant', '--account', id, '--amount', '25')).code).toBe(0);
    const listed = JSON.parse((await run('--json', 'keys', 'list', '--account', id)).out);
    expect(JSON.stringify(listed)).not.toContain(key.key);
    expect((await run('--json', 'keys', 'revoke', key.id)).code).toBe(0);
    const { rows } = await t.pool.query('SELECT revoked_at FROM api_keys WHERE id = $1', [key.id]);
    expect(rows[0].revoked_at).not.toBeNull();
  });

  it('answers usage errors with exit 2 and one line on stderr', async () => {
    const bad = await run('credits', 'grant', '--account', 'acc_nope', '--amount', '-3');
    expect(bad.code).toBe(2);
    expect(bad.err.trim().split('\n')).toHaveLength(1);
    expect((await run('no-such-command')).code).toBe(2);
  });

  it('users unlock lifts a sign-in lock that someone guessing the email set, and only that email’s', async () => {
    const { id } = JSON.parse((await run('--json', 'accounts', 'create', '--name', 'Locked')).out);
    const made = await run('--json', 'users', 'create', '--account', id, '--email', 'owner@example.com');
    const { password } = JSON.parse(made.out);
    const limits = { perEmail: 3, perAddress: 100, windowMs: 15 * 60_000 };
    const attempt = (email: string, pw: string) => signIn(t.pool, { email, password: pw, address: '203.0.113.9' }, new Date(), limits);
    for (let i = 0; i < 4; i++) {
      await attempt('owner@example.com', 'guess');
      await attempt('other@example.com', 'guess');
    }
    expect(await attempt('owner@example.com', password)).toMatchObject({ ok: false, reason: 'throttled' });

    const unlocked = await run('--json', 'users', 'unlock', '--email', ' Owner@Example.com ');
    expect(unlocked.code, unlocked.err).toBe(0);
    expect(JSON.parse(unlocked.out)).toEqual({ email: ' Owner@Example.com ', cleared: true });
    expect(await attempt('owner@example.com', password)).toMatchObject({ ok: true });
    expect(await attempt('other@example.com', 'guess')).toMatchObject({ ok: false, reason: 'throttled' });

    const again = await run('users', 'unlock', '--email', 'nobody@example.com');
    expect(again).toMatchObject({ code: 0, out: 'No failed sign-ins were counted: nothing to lift.\n' });
    expect((await run('users', 'unlock')).code).toBe(2);
  });
});
