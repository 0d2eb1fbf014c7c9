/**
 * The owner's dashboard: an encapsulated Fastify plugin of server-rendered pages at the origin,
 * outside BASE_PATH. Its cookies, form parsers, CSRF check, security headers and HTML error pages
 * stay inside this plugin, so the API beside it keeps its JSON-only, key-only behaviour.
 */
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import type { FastifyError, FastifyInstance } from 'fastify';
import { isConnectionLost } from '../db/pool.ts';
import { fieldName, findIllFormedText } from '../http/text-fields.ts';
import { isProblem } from '../core/problem.ts';
import { serveAssets } from './assets.ts';
import { notFound, PageError, SignInRequired, sendPage, type Dashboard, type DashboardOptions } from './context.ts';
import { html } from './html.ts';
import { page } from './layout.ts';
import { authPages } from './pages/auth.ts';
import { appPages } from './pages/apps.ts';
import { connectionPages } from './pages/connections.ts';
import { keyPages } from './pages/keys.ts';
import { publicationPages } from './pages/publications.ts';
import { variantPages } from './pages/variants.ts';
import { setPages } from './pages/sets.ts';
import { usagePage } from './pages/usage.ts';
import { webhookPages } from './pages/webhooks.ts';
import { cookieNames, csrfOk, csrfTokenFor, loadSession } from './session.ts';

export type { DashboardOptions, DashboardServices } from './context.ts';

/** Uploads are the one large body the dashboard takes: a screen is at most 10 MiB (CONTRACT). */
export const UPLOAD_LIMIT = 10 * 1024 * 1024;

export function securityHeaders(publicUrl: string | null): Record<string, string> {
  // Slide images and archives are served by this origin; app icons come from the stores (https).
  const csp = [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    // blob: the editor's live previews, fetched by its script and shown from memory.
    "img-src 'self' https: blob:",
    "connect-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
  return {
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    ...(publicUrl?.startsWith('https://') ? { 'strict-transport-security': 'max-age=31536000' } : {}),
  };
}

/** The plugin, in the shape of the server's dashboard slot: `(app, { services })`. */
export async function dashboardPlugin(app: FastifyInstance, { services }: DashboardOptions): Promise<void> {
  const publicUrl = services.config.publicUrl ?? null;
  const dash: Dashboard = {
    services,
    publicUrl,
    signupEnabled: services.config.signupEnabled ?? true,
    basePath: services.config.basePath,
    names: cookieNames(publicUrl),
  };
  const headers = securityHeaders(publicUrl);
  const { db, clock } = services;

  await app.register(cookie);
  await app.register(formbody, { bodyLimit: 64 * 1024 });
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fileSize: UPLOAD_LIMIT, files: 10, fields: 10, fieldSize: 4096 },
  });
  app.decorateRequest('dashboardSession', null);

  // The API's rule for text (../http/text-fields.ts) over the forms, which have no schemas: a NUL or
  // a lone surrogate in any field, query or path part is refused before a page reads it.
  app.addHook('preValidation', async (request) => {
    for (const part of [request.body, request.query, request.params]) {
      const [bad] = findIllFormedText(part, 1);
      if (bad)
        throw new PageError(
          400,
          'Bad request',
          `The field “${fieldName(bad.pointer)}” holds a character that cannot be saved (a NUL, U+0000, or half of a UTF-16 surrogate pair). Go back, remove it and try again.`,
        );
    }
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.headers(headers);
    // Account data must not be kept by the browser's or a proxy's cache; assets override this.
    reply.header('cache-control', 'no-store');
    // The stylesheet and script are the same for everyone: no session lookup for them.
    if (!request.url.startsWith('/assets/')) request.dashboardSession = await loadSession(request, db, dash.names, clock());
  });

  // Every state-changing request proves it came from our own form.
  app.addHook('preHandler', async (request) => {
    if (request.method === 'GET' || request.method === 'HEAD') return;
    if (!csrfOk(request, dash.names, (request.body as Record<string, unknown> | undefined)?._csrf)) {
      request.log.info({ requestId: request.id }, 'dashboard form refused: missing or wrong CSRF token');
      throw new PageError(
        403,
        'Form expired',
        'This form could not be accepted: it was not sent from this page, or it has expired. Go back, reload the page and try again.',
      );
    }
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof SignInRequired) {
      const next = request.method === 'GET' ? `?next=${encodeURIComponent(request.url)}` : '';
      return reply.code(303).header('location', `/sign-in${next}`).send();
    }
    let status = 500;
    let title = 'Something went wrong';
    let message = `Something went wrong on our side. Quote ${request.id} if you contact support.`;
    if (error instanceof PageError) {
      ({ status, title, message } = error);
      reply.headers(error.headers);
    } else if (isConnectionLost(error)) {
      // As the API does: nothing is wrong with the request, the database is back in seconds.
      status = 503;
      title = 'Back in a moment';
      message = 'The service cannot reach its database right now. Reload this page in a few seconds.';
      reply.header('retry-after', '2');
    } else if (isProblem(error)) {
      ({ status, title } = error);
      message = error.detail;
      reply.headers(error.headers);
    } else if (error.statusCode === 413 || error.code === 'FST_REQ_FILE_TOO_LARGE' || error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      status = 413;
      title = 'Too large';
      message = 'That upload is too large: a screen may be at most 10 MiB.';
    } else if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      status = 400;
      title = 'Bad request';
      message = 'The form could not be read. Go back and try again.';
    }
    if (status >= 500 && status !== 503) request.log.error({ err: error, requestId: request.id }, 'dashboard page failed');
    const ctx = { session: request.dashboardSession, csrf: csrfTokenFor(request, reply, dash.names), path: request.url };
    return sendPage(
      reply,
      page(ctx, {
        title,
        body: html`<p>${message}</p>
          <p><a href="/">Back to the dashboard</a></p>`,
      }),
      status,
    );
  });

  // Unknown paths outside the API: a page, not JSON. The onRequest hook above has run (headers).
  app.setNotFoundHandler(async () => {
    throw notFound();
  });

  serveAssets(app);
  authPages(app, dash);
  keyPages(app, dash);
  usagePage(app, dash);
  appPages(app, dash);
  setPages(app, dash);
  webhookPages(app, dash);
  connectionPages(app, dash);
  publicationPages(app, dash);
  variantPages(app, dash);
}
