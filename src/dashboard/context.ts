/** What the dashboard's pages share: the services they call, and how they answer. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AccountViews } from '../accounts/account-views.ts';
import type { Authenticator } from '../accounts/authenticator.ts';
import type { Clock } from '../accounts/credits.ts';
import type { Db } from '../db/pool.ts';
import type { NotifyBatcher } from '../db/notify-batcher.ts';
import type { JobReader } from '../sets/reader.ts';
import type { StoreReaders } from '../stores/index.ts';
import type { ObjectStore } from '../objects/index.ts';
import type { UrlSigner } from '../sets/signed-urls.ts';
import type { Session } from '../users/sessions.ts';
import type { Html } from './html.ts';
import type { PageContext } from './layout.ts';
import { csrfTokenFor, type CookieNames } from './session.ts';
import type { Previewer } from '../sets/revisions/preview.ts';
import type { PublishingServices } from '../publishing/services.ts';
import type { RevisionLimits } from '../sets/revisions/revisions.ts';
import type { App } from '../apps/apps.ts';

/** The same domain services the API is built on (a structural subset of the API's Services). */
export interface DashboardServices {
  /** basePath: the API's BASE_PATH (shown next to keys); publicUrl: https makes cookies Secure; webhooks: WEBHOOK_ALLOW_HTTP/PRIVATE. */
  config: {
    basePath: string;
    publicUrl?: string | null;
    signupEnabled?: boolean;
    webhooks?: { allowHttp: boolean; allowPrivate: boolean };
    revisions?: RevisionLimits;
  };
  db: Db;
  stores: StoreReaders;
  authenticator: Pick<Authenticator, 'forget'>;
  accountViews: Pick<AccountViews, 'invalidate'>;
  jobs: Pick<JobReader, 'get'>;
  notifier: Pick<NotifyBatcher, 'notify'>;
  clock: Clock;
  /** Uploaded screens (and the pictures, served by the API's signed URLs). */
  objects: ObjectStore;
  signer: UrlSigner;
  /** The editor's live previews; none: it shows none. */
  previews?: Pick<Previewer, 'forJob'> | null;
  /**
   * Store connections and publications (absent: adding a connection or publishing says it is not
   * running); its keyring also seals the webhook signing secrets created here.
   */
  publishing?: PublishingServices;
  /** Plans what a create's check reads of an app's sets, when it is created or its guidance changes (src/jobs/fill-checks.ts). */
  planFillChecks?: ((app: App) => Promise<void>) | null;
}

export interface DashboardOptions {
  services: DashboardServices;
}

/** The options as the pages use them, defaults resolved. */
export interface Dashboard extends DashboardOptions {
  publicUrl: string | null;
  signupEnabled: boolean;
  basePath: string;
  names: CookieNames;
}

/** A page that needs a signed-in user was asked for without one: go and sign in. */
export class SignInRequired extends Error {}

/** An HTML error page with this status. */
export class PageError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const notFound = (): PageError => new PageError(404, 'Not found', 'There is nothing here, or it belongs to another account.');

export function requireSession(request: FastifyRequest): Session {
  if (!request.dashboardSession) throw new SignInRequired();
  return request.dashboardSession;
}

export function pageContext(request: FastifyRequest, reply: FastifyReply, dash: Dashboard): PageContext {
  return { session: request.dashboardSession, csrf: csrfTokenFor(request, reply, dash.names), path: request.url.split('?')[0] };
}

export function sendPage(reply: FastifyReply, body: Html, status = 200): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(body.value);
}

/** Form fields as strings: a repeated field keeps its first value, a missing one is ''. */
export function field(body: unknown, name: string): string {
  const value = body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : '';
}

/** 303 See Other: after a POST the browser GETs the next page, so reloading does not resubmit. */
export const seeOther = (reply: FastifyReply, location: string): FastifyReply => reply.code(303).header('location', location).send();
