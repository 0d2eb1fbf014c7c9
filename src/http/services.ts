/**
 * What the HTTP parts (the API, the dashboard) are built from. Its own module so that the parts
 * import it without importing the server that mounts them (that made an http <-> api cycle).
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, FastifyPluginAsync, RawServerDefault } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AccountViews } from '../accounts/account-views.ts';
import type { Authenticator } from '../accounts/authenticator.ts';
import type { Clock } from '../accounts/credits.ts';
import type { Config } from '../config.ts';
import type { NotifyBatcher } from '../db/notify-batcher.ts';
import type { Db } from '../db/pool.ts';
import type { JobReader } from '../sets/reader.ts';
import type { JobWaiters } from '../sets/waiters.ts';
import type { ObjectStore } from '../objects/index.ts';
import type { UrlSigner } from '../sets/signed-urls.ts';
import type { PublishingServices } from '../publishing/services.ts';
import type { ScreenReader } from '../screens/reader.ts';
import type { StoreReaders } from '../stores/index.ts';
import type { RateLimits } from './rate-limit/index.ts';
import type { Previewer } from '../sets/revisions/preview.ts';
import type { App } from '../apps/apps.ts';

export interface Services {
  /** `llm`: whether a caption model is configured decides which locales a set may ask for; publicUrl and signupEnabled are the dashboard's (defaults: null, true); webhooks: what webhook URLs may point at (default: https and public addresses only). */
  config: Pick<Config, 'basePath'> & Partial<Pick<Config, 'llm' | 'publicUrl' | 'signupEnabled' | 'webhooks' | 'revisions'>>;
  db: Db;
  authenticator: Authenticator;
  accountViews: AccountViews;
  stores: StoreReaders;
  jobs: JobReader;
  /** After-commit notifications of creates, batched. */
  notifier: NotifyBatcher;
  clock: Clock;
  /** Per-key and failed-authentication limits; none (unlimited) when absent. */
  rateLimits?: RateLimits | null;
  /** Uploaded screens and rendered pictures. */
  objects: ObjectStore;
  /** Signs and checks the pictures' URLs. */
  signer: UrlSigner;
  /** Long polls waiting for their job to end. */
  waiters: JobWaiters;
  /** Renders the editor's previews (POST /previews); none: that operation answers 503. */
  previews?: Previewer | null;
  /** Reads each uploaded screen's text off this thread (OCR); absent: screens are stored unread. */
  screenReader?: ScreenReader | null;
  /** Store connections and publications; absent, those operations answer 503. */
  publishing?: PublishingServices;
  /**
   * Plans what a create's check reads of an app's sets (src/jobs/fill-checks.ts) when the app is
   * created or its guidance changes: resolves when the usual set is planned (the rest goes on in the
   * background); never rejects. Absent, an app's first creates plan what they need.
   */
  planFillChecks?: ((app: App) => Promise<void>) | null;
}

export type Api = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

/**
 * The owner's dashboard (src/dashboard/), mounted at `/` in its own encapsulated context: it sets
 * its own error and 404 handlers, body parsers (forms) and session hooks, none of which reach the
 * API under BASE_PATH, and the API's key auth, JSON-only parsing and problem+json reach none of it.
 */
export type DashboardPlugin = FastifyPluginAsync<{ services: Services }>;
