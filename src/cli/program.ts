/**
 * The `shotgen` command line: the operator's commands (serve, migrate, accounts, keys, users,
 * credits) and, through src/client/, the client commands. main.ts only runs it and turns failures
 * into exit codes, so tests can call main() in-process.
 */
import { Command, Option } from 'commander';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { createAccount, listAccounts, getAccount } from '../accounts/accounts.ts';
import { createApiKey, listApiKeys, revokeApiKeyAsOperator } from '../accounts/api-keys.ts';
import { grant } from '../accounts/credits.ts';
import { PLAN_IDS } from '../accounts/plans.ts';
import { loadConfig } from '../config.ts';
import { openDatabase, type Database } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { waitForNotification } from '../db/wait-for-notification.ts';
import { createLogger } from '../logger.ts';
import type { ServiceRole } from '../service.ts';
import { printResult, type Printable } from './output.ts';
import { registerClientCommands } from '../client/commands.ts';

export class UsageError extends Error {}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function withDatabase<T>(fn: (db: Database) => Promise<T>): Promise<T> {
  const db = await openDatabase(loadConfig(), { role: 'command', migrate: true });
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

function positiveInt(name: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) <= 0) throw new UsageError(`${name} must be a positive whole number, got "${value}"`);
    return Number(value);
  };
}

/** A whole number from 0 to `max` (a port: 0 asks for any free one). */
function wholeNumber(name: string, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) > max) throw new UsageError(`${name} must be a whole number up to ${max}, got "${value}"`);
    return Number(value);
  };
}

interface FakeStoresFlags {
  host: string;
  appStorePort: number;
  playPort: number;
  dir?: string;
  appStoreApp?: string;
  playPackage?: string;
  locales: string;
  versionState?: string;
  processingDelay: number;
}

export function program(): Command {
  const cli = new Command('shotgen')
    .description(
      'Operate the shotgen screenshot service (settings from the environment: DATABASE_URL, DATA_DIR, PORT, ...; see README), or use one over HTTP: generate, jobs, mcp (SHOTGEN_URL, SHOTGEN_API_KEY).',
    )
    .option('--json', 'machine-readable output')
    // Usage errors are printed by main() as one line like every other error. Subcommands inherit
    // these settings because they are made after them.
    .configureOutput({ outputError: () => undefined })
    // Every command takes --json: say so in each command's help, not only in the top-level one.
    .configureHelp({ showGlobalOptions: true })
    .exitOverride();

  const out = (value: Printable) => printResult(value, cli.opts().json === true);

  cli
    .command('serve')
    .description('run the HTTP API and the job worker')
    .addOption(new Option('--role <role>', 'run only the API or only the worker').choices(['all', 'api', 'worker']).default('all'))
    .action(async (opts: { role: ServiceRole }) => {
      const config = loadConfig();
      const log = createLogger(config);
      // Listen for signals before starting: one that arrives while the service is still starting
      // must still end in a graceful shutdown, not the default instant death.
      // A second signal means "now": it ends the process even if shutdown or start-up is stuck.
      let signals = 0;
      const signalled = new Promise<string>((resolve) => {
        const onSignal = (signal: NodeJS.Signals) => {
          if (++signals > 1) process.exit(signal === 'SIGINT' ? 130 : 143);
          resolve(signal);
        };
        process.on('SIGTERM', onSignal);
        process.on('SIGINT', onSignal);
      });
      // The HTTP server, worker and planner take about two seconds to load: only serve needs them,
      // so the operator's one-off commands stay quick.
      const { startService } = await import('../service.ts');
      const service = await startService(config, { role: opts.role, logger: log });
      // Before any set's request can need it, not during one (captions/nlp.ts). Only where HTTP
      // requests are answered: a worker's loop serves no polls, and one that never runs a job (a
      // spare, one stopped while idle) spent ~0.3 CPU-s, a third of its start, on a model it never
      // read; its first job's archive loads it when it needs it.
      // A failure here is logged, not thrown: the first caption would load it again and say why.
      if (opts.role !== 'worker')
        setImmediate(() =>
          import('../captions/nlp.ts')
            .then((m) => m.preloadNlp())
            .catch((err: unknown) => log.warn({ err }, 'the caption language model did not load at start')),
        );
      log.info(
        { address: service.address, role: opts.role, database: service.database.embedded ? 'embedded' : 'external' },
        'shotgen started',
      );
      if (cli.opts().json) out({ kind: 'object', value: { address: service.address, role: opts.role } });
      const signal = await signalled;
      log.info({ signal }, 'shutting down');
      try {
        await service.close();
        log.info('stopped');
      } catch (e) {
        log.error({ err: e }, 'shutdown failed');
        process.exitCode = 1;
      }
    });

  cli
    .command('migrate')
    .description('bring the database schema up to date')
    .action(() =>
      withDatabase(async (db) => {
        const applied = await migrate(db.pool);
        out({ kind: 'object', value: { applied }, text: applied.length ? `applied: ${applied.join(', ')}` : 'schema is up to date' });
      }),
    );

  const accounts = cli.command('accounts').description('create and list accounts');
  accounts
    .command('create')
    .description('create an account; prints its id')
    .requiredOption('--name <name>', 'account name')
    .addOption(new Option('--plan <plan>', 'plan').choices(PLAN_IDS).default('free'))
    .action((opts: { name: string; plan: string }) =>
      withDatabase(async (db) => out({ kind: 'object', value: await createAccount(db.pool, opts) })),
    );
  accounts
    .command('list')
    .description('list accounts')
    .action(() => withDatabase(async (db) => out({ kind: 'table', value: await listAccounts(db.pool) })));

  const keys = cli.command('keys').description('create, list and revoke API keys');
  keys
    .command('create')
    .description('create a key; the full key is printed once and cannot be shown again')
    .requiredOption('--account <id>', 'account id')
    .option('--name <name>', 'a label for the key')
    .action((opts: { account: string; name?: string }) =>
      withDatabase(async (db) => {
        if (!(await getAccount(db.pool, opts.account))) throw new UsageError(`no account ${opts.account}`);
        const key = await createApiKey(db.pool, opts.account, opts.name ?? null);
        out({ kind: 'object', value: key, text: `${JSON.stringify(key, null, 2)}\nStore the key now: it is shown only once.` });
      }),
    );
  keys
    .command('list')
    .description('list an account’s keys (prefixes only)')
    .requiredOption('--account <id>', 'account id')
    .action((opts: { account: string }) =>
      withDatabase(async (db) => {
        // A mistyped id would otherwise look like an account without keys.
        if (!(await getAccount(db.pool, opts.account))) throw new UsageError(`no account ${opts.account}`);
        out({ kind: 'table', value: await listApiKeys(db.pool, opts.account) });
      }),
    );
  keys
    .command('revoke')
    .description('revoke a key; refused by every server from its next request')
    .argument('<keyId>', 'the key id (key_...)')
    .action((keyId: string) =>
      withDatabase(async (db) => {
        // Return only once the revocation's notification has gone out to every listening server.
        const revoked = await waitForNotification(db.url, 'shotgen_api_keys', () => revokeApiKeyAsOperator(db.pool, keyId));
        if (!revoked) throw new UsageError(`no key ${keyId}`);
        out({ kind: 'object', value: revoked });
      }),
    );

  const users = cli.command('users').description('give an account an owner who signs in to the dashboard');
  users
    .command('create')
    .description('create a dashboard user for an account; without --password-stdin a password is generated and printed once')
    .requiredOption('--account <id>', 'account id')
    .requiredOption('--email <email>', 'the address the owner signs in with')
    .option('--password-stdin', 'read the password from standard input (never from an argument, which other users can see in ps)')
    .action((opts: { account: string; email: string; passwordStdin?: boolean }) =>
      withDatabase(async (db) => {
        const generated = !opts.passwordStdin;
        const password = generated ? randomBytes(18).toString('base64url') : (await readStdin()).replace(/\r?\n$/, '');
        if (!generated && !password) throw new UsageError('--password-stdin: standard input was empty');
        // Loaded here: the argon2 binding is not worth loading for every other command.
        const { createUser } = await import('../users/users.ts');
        const user = await createUser(db.pool, { accountId: opts.account, email: opts.email, password });
        const value = {
          id: user.id,
          accountId: user.accountId,
          email: user.email,
          createdAt: user.createdAt,
          ...(generated ? { password } : {}),
        };
        const text = generated
          ? `${JSON.stringify(value, null, 2)}\nGive the owner this password now: it is shown only once.`
          : JSON.stringify(value, null, 2);
        out({ kind: 'object', value, text });
      }),
    );

  users
    .command('unlock')
    .description('lift the sign-in lock on an email (and, with --address, on a client address) after failed attempts')
    .requiredOption('--email <email>', 'the address the owner signs in with')
    .option('--address <ip>', 'also lift the lock on this client address')
    .action((opts: { email: string; address?: string }) =>
      withDatabase(async (db) => {
        const { liftLock } = await import('../users/throttle.ts');
        const { cleared } = await liftLock(db.pool, opts);
        const value = { email: opts.email, ...(opts.address ? { address: opts.address } : {}), cleared: cleared.length > 0 };
        const text =
          cleared.length > 0 ? `Lifted the sign-in lock on ${cleared.join(', ')}.` : 'No failed sign-ins were counted: nothing to lift.';
        out({ kind: 'object', value, text });
      }),
    );

  const credits = cli.command('credits').description('grant credits');
  credits
    .command('grant')
    .description('grant extra credits for the current period')
    .requiredOption('--account <id>', 'account id')
    .requiredOption('--amount <n>', 'credits to add', positiveInt('--amount'))
    .option('--note <text>', 'why, for the ledger')
    .action((opts: { account: string; amount: number; note?: string }) =>
      withDatabase(async (db) => {
        if (!(await getAccount(db.pool, opts.account))) throw new UsageError(`no account ${opts.account}`);
        const balance = await grant(db.pool, opts.account, opts.amount, new Date(), opts.note ?? null);
        out({
          kind: 'object',
          value: {
            account: opts.account,
            granted: opts.amount,
            allowance: balance.allowance,
            used: balance.used,
            remaining: balance.remaining,
          },
        });
      }),
    );

  cli
    .command('secrets')
    .description('secrets at rest (store connections)')
    .command('rotate')
    .description('re-wrap every stored secret under the current key (SECRETS_KEY; on the embedded default a new generated key)')
    .action(() =>
      withDatabase(async (db) => {
        const { rotateCommand } = await import('../secrets/command.ts');
        out({ kind: 'object', value: await rotateCommand(loadConfig(), db.pool) });
      }),
    );

  cli
    .command('fake-stores')
    .description('run fake App Store Connect and Google Play servers with throwaway credentials, to try publishing locally')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--app-store-port <port>', 'App Store Connect port (0: any free one)', wholeNumber('--app-store-port', 65535), 4731)
    .option('--play-port <port>', 'Google Play port (0: any free one)', wholeNumber('--play-port', 65535), 4732)
    .option('--dir <path>', 'where to write the .p8 key and the service-account JSON (default: DATA_DIR/fake-stores)')
    .option('--app-store-app <id>', 'seed an App Store Connect app with this id and an editable iOS version')
    .option('--play-package <name>', 'seed a Google Play package')
    .option('--locales <list>', 'the seeded apps’ languages (App Store localizations, Play listings), comma-separated', 'en-US')
    .option('--version-state <state>', 'the seeded version’s state (e.g. WAITING_FOR_REVIEW to see publishing refused)')
    .option('--processing-delay <ms>', 'how long uploads stay UPLOAD_COMPLETE before COMPLETE', wholeNumber('--processing-delay'), 0)
    .action(async (opts: FakeStoresFlags) => {
      // Loaded here: only this command needs the fakes and their crypto.
      const { runFakeStores, describeStarted } = await import('../fake-stores/cli.ts');
      const until = new Promise((resolve) => ['SIGINT', 'SIGTERM'].forEach((signal) => process.once(signal, resolve)));
      await runFakeStores(
        {
          ...opts,
          dir: opts.dir ?? path.join(loadConfig().dataDir, 'fake-stores'),
          locales: opts.locales
            .split(',')
            .map((l) => l.trim())
            .filter(Boolean),
          processingDelayMs: opts.processingDelay,
          until,
        },
        (started) => out({ kind: 'object', value: started, text: describeStarted(started) }),
      );
    });

  cli
    .command('demo')
    .description(
      'try shotgen in one command, with no network beyond localhost: an account, a key, a sample app from its listing text with its icon and screens, a set; prints the ZIP and the dashboard page',
    )
    .option('--out <dir>', 'where to write the slides and the ZIP', 'shotgen-demo')
    .option('--stop', 'stop the server the demo started once it is done (default: keep it running for the dashboard until Ctrl-C)')
    .option('--timeout <seconds>', 'give up waiting for the set after this long', positiveInt('--timeout'), 300)
    .action(async (opts: { out: string; stop?: boolean; timeout: number }) => {
      const until = new Promise((resolve) => ['SIGINT', 'SIGTERM'].forEach((signal) => process.once(signal, resolve)));
      const config = loadConfig();
      const { runDemo } = await import('./demo.ts');
      try {
        await runDemo(
          config,
          { out: opts.out, stop: opts.stop === true, timeout: opts.timeout, json: cli.opts().json === true },
          out,
          until,
        );
      } catch (error) {
        // The API's answers end the command as the client commands' do: one line and their exit code.
        const { toFailure } = await import('../client/failures.ts');
        throw error instanceof Error && error.name === 'Problem' ? error : toFailure(error, `http://localhost:${config.port}`);
      }
    });

  registerClientCommands(cli, out);
  return cli;
}
