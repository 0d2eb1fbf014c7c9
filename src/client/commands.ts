/**
 * The client commands: `generate`, `jobs get`, `revise`, `publish`, `connect` and `mcp`, which
 * talk to a shotgen server over HTTP (SHOTGEN_URL, SHOTGEN_API_KEY) instead of opening the
 * database. Their code is loaded when one of them runs, so the operator's commands start no slower.
 */
import { Option, type Command } from 'commander';
import type { Printable } from '../cli/output.ts';
import { CAPTION_LENGTH_IDS, CAPTION_STYLE_IDS, MAX_COUNT } from '../core/set.ts';
import { DEVICE_IDS } from '../core/devices.ts';
import { THEME_IDS } from '../core/themes.ts';
import { ORIENTATIONS } from '../core/orientation.ts';
import { ClientFailure, EXIT } from './exit-codes.ts';
import type { ClientContext } from './context.ts';
import { APP_STORE_UPLOADS } from './connect.ts';

const seconds =
  (name: string) =>
  (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) <= 0)
      throw new ClientFailure(`${name} must be a positive whole number of seconds, got "${value}"`, EXIT.usage);
    return Number(value);
  };

const count = (value: string): number => {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > MAX_COUNT)
    throw new ClientFailure(`--count must be a whole number from 1 to ${MAX_COUNT}, got "${value}"`, EXIT.usage);
  return Number(value);
};

const percent = (value: string): number => {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 100)
    throw new ClientFailure(`--traffic-proportion must be a whole number from 1 to 100, got "${value}"`, EXIT.usage);
  return Number(value);
};

interface PublishFlags {
  connection: string;
  yes?: boolean;
  locale?: string[];
  timeout: number;
  customPage?: string;
  experiment?: string;
  treatment?: string;
  trafficProportion?: number;
}

export function registerClientCommands(cli: Command, out: (value: Printable) => void): void {
  const json = () => cli.opts().json === true;
  /** Runs a command with its settings and reporter; any error leaves as a ClientFailure. */
  const run = async (fn: (ctx: ClientContext) => Promise<void>) => {
    const { clientContext } = await import('./context.ts');
    const ctx = clientContext({ json: json(), out });
    try {
      await fn(ctx);
    } catch (error) {
      ctx.reporter.end();
      const { toFailure } = await import('./failures.ts');
      throw toFailure(error, ctx.settings.baseUrl);
    }
  };

  cli
    .command('generate')
    .description(
      'create an app from its store URLs, upload your screens, render a screenshot set and download its PNGs and ZIP (talks to SHOTGEN_URL with SHOTGEN_API_KEY)',
    )
    .option('--ios <url>', 'App Store URL of the app')
    .option('--android <url>', 'Google Play URL of the app')
    .addOption(new Option('--device <device>', 'the device the set is for').choices(DEVICE_IDS).makeOptionMandatory())
    .addOption(new Option('--style <style>', 'caption voice').choices(CAPTION_STYLE_IDS))
    .addOption(new Option('--length <length>', 'caption length').choices(CAPTION_LENGTH_IDS))
    .addOption(new Option('--theme <theme>', "the set's look (default: the app's brand kit theme)").choices(THEME_IDS))
    .addOption(
      new Option('--orientation <orientation>', 'portrait or landscape slides (default: landscape when every screen is)').choices(
        ORIENTATIONS,
      ),
    )
    .option('--count <n>', `slides, 1 to ${MAX_COUNT}`, count)
    .option('--narrative <id>', 'a narrative id (see GET /public/v1/narratives); sets the number of slides')
    .option('--context <text>', 'guidance for the captions (extraContext)')
    .option('--screens <dir>', 'frame these screens: every PNG and JPEG in the directory, in name order')
    .requiredOption('--out <dir>', 'where to write the slide PNGs and the ZIP')
    .option('--timeout <seconds>', 'give up waiting for the job after this long', seconds('--timeout'), 600)
    .action((opts) =>
      run(async (ctx) => {
        const { generate } = await import('./generate.ts');
        await generate(ctx, opts);
      }),
    );

  const jobs = cli.command('jobs').description('look at screenshot-set jobs over the HTTP API');
  jobs
    .command('get')
    .description('print a job; with --wait, wait until it has succeeded or failed (exit 4 when it failed)')
    .argument('<jobId>', 'the job id (job_...)')
    .option('--wait', 'wait for the job to end, showing its progress')
    .option('--timeout <seconds>', 'with --wait: give up after this long', seconds('--timeout'), 600)
    .action((jobId: string, opts: { wait?: boolean; timeout: number }) =>
      run(async (ctx) => {
        const { getJob } = await import('./jobs-get.ts');
        await getJob(ctx, jobId, opts);
      }),
    );

  cli
    .command('revise')
    .description(
      'edit a succeeded set (free): new captions or screen for a slide, another order or theme; waits, and with --out downloads the files',
    )
    .argument('<jobId>', 'the set to edit (job_...)')
    .option('--slide <n>', 'the slide the caption and screen options change (1-based)', (v: string) => {
      if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > MAX_COUNT)
        throw new ClientFailure(`--slide must be 1 to ${MAX_COUNT}, got "${v}"`, EXIT.usage);
      return Number(v);
    })
    .option('--headline <text>', 'the slide’s new headline')
    .option('--subheadline <text>', 'the slide’s new subheadline ("" removes it)')
    .option('--screen <screenId>', 'frame another of the app’s uploaded screens (scr_...)')
    .addOption(new Option('--theme <theme>', 'the whole set’s look').choices([...THEME_IDS]))
    .option('--order <list>', 'the new order of the slides, like 1,3,2')
    .option('--out <dir>', 'download the revised slides and ZIP here')
    .option('--timeout <seconds>', 'give up waiting for the revision after this long', seconds('--timeout'), 600)
    .action((jobId: string, opts) =>
      run(async (ctx) => {
        const { revise } = await import('./revise.ts');
        await revise(ctx, jobId, opts);
      }),
    );

  cli
    .command('publish')
    .description(
      'put a succeeded set on its store page: plan it, show the plan, ask, then apply and verify (talks to SHOTGEN_URL with SHOTGEN_API_KEY)',
    )
    .argument('<jobId>', 'the succeeded job (job_...)')
    .requiredOption('--connection <id>', 'the store connection (sc_...)')
    .option('--yes', 'approve without asking')
    .option('--locale <set=store...>', 'map a set locale to a store locale, e.g. en=en-US (repeatable)')
    .option('--timeout <seconds>', 'give up waiting after this long', seconds('--timeout'), 1800)
    .option('--custom-page <name>', 'App Store: publish to this custom product page (found by name, else made); not submitted for review')
    .option('--experiment <name>', 'App Store: the product page optimization test (found by name, else made) to put --treatment in')
    .option('--treatment <name>', 'App Store: publish as this treatment of --experiment (a test holds three); not submitted or started')
    .option('--traffic-proportion <percent>', 'for a new or unsubmitted --experiment: the share of visitors shown a treatment', percent)
    .action((jobId: string, opts: PublishFlags) =>
      run(async (ctx) => {
        const { publish } = await import('./publish.ts');
        await publish(ctx, jobId, opts);
      }),
    );

  const connect = cli
    .command('connect')
    .description('connect a store account to publish with: the key is read from its file, tried against the store and kept encrypted');
  connect
    .command('app-store')
    .description('an App Store Connect API key (a team key with the App Manager role)')
    .requiredOption('--issuer-id <id>', 'the issuer ID shown above the keys')
    .requiredOption('--key-id <id>', 'the key ID')
    .requiredOption('--private-key <file>', 'the AuthKey_….p8 file')
    .addOption(
      new Option('--app-store-upload <path>', 'how screenshots reach the version: its screenshot sets, or the App Asset Library')
        .choices(APP_STORE_UPLOADS)
        .default('screenshot-sets'),
    )
    .action((opts: { issuerId: string; keyId: string; privateKey: string; appStoreUpload: string }) =>
      run(async (ctx) => {
        const { connect } = await import('./connect.ts');
        await connect(ctx, {
          store: 'app-store',
          issuerId: opts.issuerId,
          keyId: opts.keyId,
          privateKeyPath: opts.privateKey,
          appStoreUpload: opts.appStoreUpload,
        });
      }),
    );
  connect
    .command('google-play')
    .description('a Google Play service account invited in Play Console to manage the store listing')
    .requiredOption('--service-account <file>', 'the service account’s JSON key file')
    .action((opts: { serviceAccount: string }) =>
      run(async (ctx) => {
        const { connect } = await import('./connect.ts');
        await connect(ctx, { store: 'google-play', serviceAccountPath: opts.serviceAccount });
      }),
    );

  cli
    .command('mcp')
    .description('serve the API to an AI agent as a Model Context Protocol server on stdio (talks to SHOTGEN_URL with SHOTGEN_API_KEY)')
    .action(() =>
      run(async (ctx) => {
        const { serveMcp } = await import('./mcp/server.ts');
        await serveMcp(ctx.client);
      }),
    );
}
