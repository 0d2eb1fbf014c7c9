/** What every client command works with: the typed client, how to print, how to report progress. */
import { createShotgenClient, type ShotgenClient } from '@shotgen/client';
import type { Printable } from '../cli/output.ts';
import { createReporter, type Reporter } from './progress.ts';
import { clientSettings, type ClientSettings } from './settings.ts';

export interface ClientContext {
  settings: ClientSettings;
  client: ShotgenClient;
  json: boolean;
  out: (value: Printable) => void;
  reporter: Reporter;
}

/** Bounded: a server that stays down for ~8 s (no Retry-After) or says to wait over 30 s ends the command (exit 5). */
export const RETRY = { retries: 4, maxDelayMs: 30_000 };

export function clientContext(opts: { json: boolean; out: (value: Printable) => void }): ClientContext {
  const settings = clientSettings();
  const reporter = createReporter({ json: opts.json });
  const client = createShotgenClient({
    ...settings,
    retry: {
      ...RETRY,
      onRetry: ({ status, delayMs }) =>
        reporter.line(`${status === null ? 'connection failed' : `HTTP ${status}`}: retrying in ${Math.ceil(delayMs / 1000)} s`),
    },
  });
  return { settings, client, json: opts.json, out: opts.out, reporter };
}
