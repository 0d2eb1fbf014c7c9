/**
 * `shotgen demo` (`npm run demo`): the whole first flow in one command, with nothing but localhost.
 * It makes an account, an API key and a dashboard user, then, over the HTTP API as any client
 * would, an app from a bundled sample listing (Fernly, a plant-care app that is in no store), its
 * icon and five screens (./demo/, drawn by scripts/demo-screens.ts), a screenshot set; it waits for
 * the set, downloads its slides and ZIP, and prints where they are and the dashboard page to look at.
 *
 * It uses the server that answers on PORT when there is one (`npm start` in another terminal, on
 * the same database), else starts one in this process and keeps it running for the dashboard
 * until Ctrl-C (`--stop`: stop it when done). No store is asked anything: the app has no store URL,
 * its icon and screens are uploaded, and the captions come from the listing's own words unless a
 * caption model is configured (LLM_BASE_URL).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createAccount } from '../accounts/accounts.ts';
import { createApiKey } from '../accounts/api-keys.ts';
import type { Printable } from './output.ts';
import { ClientFailure, EXIT } from '../client/exit-codes.ts';
import type { Config } from '../config.ts';
import { openDatabase, type Database } from '../db/database.ts';
import { createLogger } from '../logger.ts';

const ASSETS = new URL('./demo/', import.meta.url);
/** In the order the demo set's slides frame them (scripts/demo-screens.ts draws them to match). */
export const DEMO_SCREENS = [
  'screen-1-today.png',
  'screen-2-identify.png',
  'screen-3-reminders.png',
  'screen-4-schedule.png',
  'screen-5-light.png',
];
const DEVICE = 'iphone-69';

export interface DemoOptions {
  /** Where the slides and the ZIP go. */
  out: string;
  /** Stop the server this command started once the demo is done (default: keep it for the dashboard). */
  stop: boolean;
  /** Give up waiting for the set after this many seconds. */
  timeout: number;
  json: boolean;
}

const asset = (name: string): Buffer => readFileSync(new URL(name, ASSETS));

/** The origin a server of this config answers on from this machine. */
function localOrigin(config: Pick<Config, 'host' | 'port'>): string {
  const host = ['0.0.0.0', '::', ''].includes(config.host) ? '127.0.0.1' : config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${config.port}`;
}

async function answers(origin: string): Promise<boolean> {
  try {
    return (await fetch(`${origin}/healthz`, { signal: AbortSignal.timeout(2_000) })).ok;
  } catch {
    return false;
  }
}

interface Server {
  origin: string;
  db: Database;
  /** Whether this process started it (and so stops it). */
  own: boolean;
  close(): Promise<void>;
}

/** The running server on PORT, or one started here; either way the database it uses. */
async function server(config: Config): Promise<Server> {
  const running = config.port !== 0 && (await answers(localOrigin(config)));
  if (running) {
    const db = await openDatabase(config, { role: 'command', migrate: true });
    return { origin: localOrigin(config), db, own: false, close: () => db.close() };
  }
  const { startService } = await import('../service.ts');
  // Its log goes to stderr and says only what is wrong (LOG_LEVEL overrides): stdout is the demo's.
  const logger = process.env.LOG_LEVEL
    ? createLogger(config, process.stderr)
    : createLogger({ ...config, logLevel: 'warn' }, process.stderr);
  const service = await startService(config, { role: 'all', logger });
  const address = new URL(service.address!);
  const origin = localOrigin({ host: address.hostname.replace(/^\[|\]$/g, ''), port: Number(address.port) });
  return { origin, db: service.database, own: true, close: () => service.close() };
}

/**
 * Runs the demo; resolves when it is done, or with the server it started, when the caller's
 * `until` resolves (a signal).
 */
export async function runDemo(config: Config, opts: DemoOptions, out: (value: Printable) => void, until: Promise<unknown>): Promise<void> {
  const { createShotgenClient } = await import('@shotgen/client');
  const { createReporter } = await import('../client/progress.ts');
  const reporter = createReporter({ json: opts.json });
  const listing = JSON.parse(asset('listing.json').toString('utf8')) as Record<string, string>;
  const s = await server(config);
  try {
    reporter.line(s.own ? `started a server at ${s.origin}` : `using the server at ${s.origin}`);
    const account = await createAccount(s.db.pool, {
      name: `Demo ${new Date().toISOString().slice(0, 16).replace('T', ' ')}`,
      plan: 'free',
    });
    const key = await createApiKey(s.db.pool, account.id, 'demo');
    const password = randomBytes(12).toString('base64url');
    const email = `demo-${account.id.slice(-8).toLowerCase()}@example.com`;
    const { createUser } = await import('../users/users.ts');
    await createUser(s.db.pool, { accountId: account.id, email, password });
    reporter.line(`account ${account.id}, key ${key.prefix}…, dashboard user ${email}`);

    const baseUrl = `${s.origin}${config.basePath}`;
    const client = createShotgenClient({ baseUrl, apiKey: key.key, retry: { retries: 4, maxDelayMs: 30_000 } });
    const app = await client.createApp({ listing: listing as never });
    reporter.line(`app ${app.appId}: ${app.name} (${app.category}), from its listing text: no store asked`);
    await client.uploadAppIcon(app.appId, asset('icon.png'), { contentType: 'image/png' });
    const screenIds: string[] = [];
    for (const name of DEMO_SCREENS) {
      const screen = await client.uploadScreen(app.appId, asset(name), { contentType: 'image/png', family: 'iphone' });
      screenIds.push(screen.screenId);
    }
    reporter.line(`uploaded the icon and ${screenIds.length} screens`);
    const accepted = await client.createScreenshotSet(
      { appId: app.appId, device: DEVICE, count: DEMO_SCREENS.length, screenIds },
      { idempotencyKey: randomUUID() },
    );
    reporter.line(`set ${accepted.jobId}: ${accepted.credits.cost} credits, ${accepted.credits.remaining} left`);
    const job = await client.waitForJob(accepted.jobId, { timeoutMs: opts.timeout * 1000, onProgress: (j) => reporter.job(j) });
    reporter.end();
    if (job.status === 'failed')
      throw new ClientFailure(
        `the demo set failed: ${job.error?.message ?? 'no reason given'} (${job.error?.code ?? 'unknown'})`,
        EXIT.jobFailed,
      );
    const files = await client.downloadSet(job, opts.out);
    const zip = files.archive ? path.resolve(files.archive.path) : null;
    const value = {
      server: s.origin,
      dashboard: `${s.origin}/sets/${job.id}`,
      signIn: { url: `${s.origin}/sign-in`, email, password },
      apiKey: key.key,
      accountId: account.id,
      appId: app.appId,
      jobId: job.id,
      zip,
      slides: files.slides.map((f) => path.resolve(f.path)),
      headlines: (job.result?.slides ?? []).map((slide) => slide.headline),
      serving: s.own && !opts.stop,
    };
    const text = [
      `The set is ready: ${value.headlines.map((h) => `"${h}"`).join(', ')}.`,
      `ZIP:       ${zip}`,
      `Slides:    ${path.resolve(opts.out)}`,
      `Dashboard: ${value.dashboard}`,
      `           sign in as ${email} with password ${password}`,
      `API key:   ${key.key}  (export SHOTGEN_API_KEY=…, then try the client commands)`,
      ...(value.serving ? ['', 'The server keeps running for the dashboard: press Ctrl-C to stop it.'] : []),
    ].join('\n');
    out({ kind: 'object', value, text });
    if (value.serving) await until;
  } finally {
    reporter.end();
    await s.close();
  }
}
