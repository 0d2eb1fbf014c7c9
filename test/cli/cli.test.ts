/**
 * The `shotgen` command end to end, as the operator runs it: a child process of bin/shotgen.js,
 * configured by environment only. Most runs use the embedded database in a temp DATA_DIR, which
 * each command starts and stops itself unless `serve` is running; one suite uses DATABASE_URL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { isAlive } from '../../src/db/embedded.ts';
import {
  freePort,
  killPostmasters,
  postmasterPid,
  postmastersFor,
  shotgen,
  shotgenJson,
  startServe,
  waitForDeath,
  type Serve,
} from './helpers.ts';
import { scaled } from '../support/timing.ts';

interface Account {
  id: string;
  name: string;
  plan: string;
}
interface Key {
  id: string;
  accountId: string;
  prefix: string;
  key?: string;
  revokedAt: string | null;
}

const dirs: string[] = [];
function tempDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotgen-cli-'));
  dirs.push(dir);
  return dir;
}

afterAll(async () => {
  for (const dir of dirs) {
    await killPostmasters(dir);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/** The embedded server of this DATA_DIR is down and left no pid file behind. */
function expectNoServer(dataDir: string): void {
  expect(postmastersFor(dataDir)).toEqual([]);
  expect(postmasterPid(dataDir)).toBeNull();
}

describe('shotgen with the embedded database and no server running', () => {
  let env: { DATA_DIR: string };
  beforeAll(() => {
    env = { DATA_DIR: tempDataDir() };
  });

  it(
    'creates and lists accounts, keys and credits, starting and stopping the server for each command',
    async () => {
      const account = await shotgenJson<Account>(['accounts', 'create', '--name', 'Acme', '--plan', 'pro'], env);
      expect(account).toMatchObject({ name: 'Acme', plan: 'pro' });
      expect(account.id).toMatch(/^acc_/);
      expectNoServer(env.DATA_DIR);

      const other = await shotgenJson<Account>(['accounts', 'create', '--name', 'Defaults'], env);
      expect(other.plan).toBe('free');
      const accounts = await shotgenJson<Account[]>(['accounts', 'list'], env);
      expect(accounts.map((a) => a.id)).toEqual(expect.arrayContaining([account.id, other.id]));

      const created = await shotgenJson<Key>(['keys', 'create', '--account', account.id, '--name', 'ci'], env);
      expect(created.id).toMatch(/^key_/);
      expect(created.key).toMatch(/^sk_live_[0-9A-Za-z]{40}$/);
      expect(created.key!.startsWith(created.prefix)).toBe(true);
      expectNoServer(env.DATA_DIR);

      // The full key is shown once: listings, JSON or text, carry the prefix only.
      const listed = await shotgenJson<Key[]>(['keys', 'list', '--account', account.id], env);
      expect(listed).toEqual([expect.objectContaining({ id: created.id, prefix: created.prefix, revokedAt: null })]);
      expect(listed[0]).not.toHaveProperty('key');
      const text = await shotgen(['keys', 'list', '--account', account.id], env);
      expect(text.code).toBe(0);
      expect(text.stdout).toContain(created.prefix);
      expect(text.stdout).not.toContain(created.key);

      const revoked = await shotgenJson<Key>(['keys', 'revoke', created.id], env);
      expect(revoked.id).toBe(created.id);
      expect(revoked.revokedAt).not.toBeNull();
      expect(revoked).not.toHaveProperty('key');

      const granted = await shotgenJson<{ account: string; granted: number; remaining: number }>(
        ['credits', 'grant', '--account', account.id, '--amount', '25'],
        env,
      );
      expect(granted).toMatchObject({ account: account.id, granted: 25 });
      const again = await shotgenJson<{ remaining: number }>(
        ['credits', 'grant', '--account', account.id, '--amount', '5', '--note', 'goodwill'],
        env,
      );
      expect(again.remaining).toBe(granted.remaining + 5);

      // Every command above migrated on open, so there is nothing left to apply.
      expect(await shotgenJson(['migrate'], env)).toEqual({ applied: [] });
      expectNoServer(env.DATA_DIR);
    },
    scaled(120_000),
  );

  it(
    'rejects bad input with a non-zero exit and one line on stderr',
    async () => {
      const { id: account } = await shotgenJson<Account>(['accounts', 'create', '--name', 'Target'], env);
      const cases: [string[], RegExp][] = [
        [['accounts', 'create', '--name', 'X', '--plan', 'platinum'], /'platinum' is invalid.*free, starter, pro, scale/],
        [['accounts', 'create'], /required option '--name <name>' not specified/],
        [['credits', 'grant', '--account', account, '--amount', '-3'], /--amount must be a positive whole number, got "-3"/],
        [['credits', 'grant', '--account', account, '--amount', '2.5'], /--amount must be a positive whole number/],
        [['credits', 'grant', '--account', 'acc_nope', '--amount', '3'], /no account acc_nope/],
        [['keys', 'create', '--account', 'acc_nope'], /no account acc_nope/],
        [['keys', 'list', '--account', 'acc_nope'], /no account acc_nope/],
        [['keys', 'revoke', 'key_nope'], /no key key_nope/],
        [['keys', 'revoke'], /missing required argument 'keyId'/],
        [['frobnicate'], /unknown command 'frobnicate'/],
        [['accounts', 'create', '--name', 'X', '--colour', 'red'], /unknown option '--colour'/],
        [['serve', '--role', 'janitor'], /'janitor' is invalid/],
      ];
      // In parallel on purpose: concurrent commands on one DATA_DIR must share one server safely.
      const results = await Promise.all(cases.map(([args]) => shotgen(args, env)));
      results.forEach((r, i) => {
        const [args, message] = cases[i];
        const name = args.join(' ');
        expect(r.code, name).toBe(2);
        expect(r.stdout, name).toBe('');
        expect(r.stderr.split('\n'), name).toEqual([expect.stringMatching(/^shotgen: /), '']);
        expect(r.stderr, name).toMatch(message);
      });
      expectNoServer(env.DATA_DIR);
    },
    scaled(120_000),
  );

  it('reports a bad setting as one line naming it', async () => {
    const r = await shotgen(['accounts', 'list'], { ...env, DATABASE_URL: 'mysql://nope' });
    expect(r.code).not.toBe(0);
    expect(r.stderr.split('\n')).toEqual(['shotgen: Invalid setting DATABASE_URL: expected a postgres:// or postgresql:// URL', '']);
  });
});

describe('shotgen while `shotgen serve` runs on the embedded database', () => {
  let serve: Serve | null = null;
  let dataDir: string;
  afterEach(async () => {
    if (serve) await serve.terminate();
    serve = null;
  });

  it(
    'attaches to the server serve started, revocation takes effect on the next request, and SIGTERM leaves no postgres',
    async () => {
      dataDir = tempDataDir();
      const env = { DATA_DIR: dataDir, PORT: String(await freePort()) };
      serve = await startServe(env);
      expect(serve.address).toBe(`http://127.0.0.1:${env.PORT}`);
      const postmaster = postmasterPid(dataDir)!;
      expect(postmastersFor(dataDir)).toEqual([postmaster]);

      const account = await shotgenJson<Account>(['accounts', 'create', '--name', 'Live'], env);
      const { id: keyId, key } = await shotgenJson<Key>(['keys', 'create', '--account', account.id], env);
      // The commands used serve's server and left it running.
      expect(postmastersFor(dataDir)).toEqual([postmaster]);

      const get = () => fetch(`${serve!.address}/api/v1/public/v1/account`, { headers: { authorization: `Bearer ${key}` } });
      const before = await get();
      expect(before.status).toBe(200);
      expect(((await before.json()) as { id: string }).id).toBe(account.id);

      await shotgenJson(['keys', 'revoke', keyId], env);
      const after = await get();
      expect(after.status).toBe(401);
      expect(((await after.json()) as { code: string }).code).toBe('revoked_api_key');
      expect(postmastersFor(dataDir)).toEqual([postmaster]);

      expect(await serve.terminate()).toBe(0);
      serve = null;
      await waitForDeath(postmaster);
      expectNoServer(dataDir);
    },
    scaled(120_000),
  );

  it(
    'a command and serve starting together on a fresh DATA_DIR share one server, and serve stops it',
    async () => {
      dataDir = tempDataDir();
      const env = { DATA_DIR: dataDir, PORT: String(await freePort()) };
      // Which of the two starts the server depends on timing; either way the command must end (not
      // wait on a server serve took over) and serve must leave nothing behind. The takeover itself is
      // pinned down in test/db/embedded.test.ts.
      const command = shotgen(['accounts', 'create', '--name', 'Early', '--json'], env);
      serve = await startServe(env);
      const created = await command;
      expect(created.code).toBe(0);
      const postmaster = postmasterPid(dataDir)!;
      expect(isAlive(postmaster)).toBe(true);
      expect(await shotgenJson<Account[]>(['accounts', 'list'], env)).toHaveLength(1);

      expect(await serve.terminate()).toBe(0);
      serve = null;
      await waitForDeath(postmaster);
      expectNoServer(dataDir);
    },
    scaled(120_000),
  );
});

describe('shotgen with DATABASE_URL', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await t?.drop();
  });

  it(
    'uses the external database and never starts the embedded one',
    async () => {
      const dataDir = tempDataDir();
      const env = { DATA_DIR: dataDir, DATABASE_URL: t.url };
      expect(await shotgenJson(['migrate'], env)).toEqual({ applied: [] });
      const account = await shotgenJson<Account>(['accounts', 'create', '--name', 'External', '--plan', 'starter'], env);
      const key = await shotgenJson<Key>(['keys', 'create', '--account', account.id], env);
      await shotgenJson(['credits', 'grant', '--account', account.id, '--amount', '7'], env);
      await shotgenJson(['keys', 'revoke', key.id], env);

      const { rows } = await t.pool.query<{ plan: string; revoked: boolean }>(
        'SELECT a.plan_id AS plan, k.revoked_at IS NOT NULL AS revoked FROM accounts a JOIN api_keys k ON k.account_id = a.id WHERE a.id = $1',
        [account.id],
      );
      expect(rows).toEqual([{ plan: 'starter', revoked: true }]);
      expect(fs.readdirSync(dataDir)).toEqual([]);
    },
    scaled(120_000),
  );
});
