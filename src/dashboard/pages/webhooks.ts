/** Webhook endpoints: list, add (the signing secret shown once), delete after a confirmation. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isId } from '../../core/ids.ts';
import { isProblem } from '../../core/problem.ts';
import { STRICT } from '../../webhooks/address-check.ts';
import {
  createEndpoint,
  deleteEndpoint,
  listEndpoints,
  MAX_ENDPOINTS,
  WEBHOOK_EVENTS,
  type WebhookEndpoint,
  type WebhookEvent,
} from '../../webhooks/endpoints.ts';
import { field, notFound, pageContext, requireSession, seeOther, sendPage, type Dashboard } from '../context.ts';
import { html } from '../html.ts';
import { confirmCard, csrfField, describedBy, fieldError, page, when, type FieldError } from '../layout.ts';

const EVENT_LABEL: Record<WebhookEvent, string> = {
  'job.succeeded': 'A set is ready (job.succeeded)',
  'job.failed': 'A set failed (job.failed)',
  'publication.published': 'A set is live on a store (publication.published)',
  'publication.failed': 'A publication failed (publication.failed)',
};

function endpointRow(w: WebhookEndpoint) {
  return html`<tr>
    <td data-label="URL"><code>${w.url}</code></td>
    <td data-label="Events">${w.events.join(', ')}</td>
    <td data-label="Created">${when(w.createdAt)}</td>
    <td>
      <a class="button secondary small" href="/webhooks/${w.id}/delete">Delete<span class="visually-hidden"> ${w.url}</span></a>
    </td>
  </tr>`;
}

interface FormState {
  url: string;
  events: WebhookEvent[];
  errors: FieldError[];
  notice: string | null;
}

const emptyForm: FormState = { url: '', events: [...WEBHOOK_EVENTS], errors: [], notice: null };

async function webhooksPage(
  request: FastifyRequest,
  reply: FastifyReply,
  dash: Dashboard,
  created: (WebhookEndpoint & { secret: string }) | null,
  form: FormState = emptyForm,
  status = 200,
) {
  const session = requireSession(request);
  const ctx = pageContext(request, reply, dash);
  const endpoints = await listEndpoints(dash.services.db, session.user.accountId);
  return sendPage(
    reply,
    page(ctx, {
      title: 'Webhooks',
      notice: form.notice ? { kind: 'error', text: form.notice } : null,
      body: html`${
        created
          ? html`<section class="card secret" aria-labelledby="new-secret">
              <h2 id="new-secret">Signing secret for <code>${created.url}</code></h2>
              <p>
                <strong>Copy it now: it is shown only this once.</strong> Your receiver verifies each delivery’s
                <code>webhook-signature</code> header with it (Standard Webhooks).
              </p>
              <div class="copy-row">
                <input id="secret" class="mono" readonly value="${created.secret}" aria-label="The signing secret" />
                <button type="button" data-copy="secret">Copy</button>
              </div>
              <p class="hint" data-copy-status="secret" role="status"></p>
            </section>`
          : ''
      }
<section aria-labelledby="add-webhook">
<h2 id="add-webhook">Add an endpoint</h2>
<p class="hint">When a set is ready or fails, shotgen POSTs the job to this URL, and retries for about 7 hours until it answers 2xx. At most ${MAX_ENDPOINTS} endpoints.</p>
<form method="post" action="/webhooks">
  ${csrfField(ctx)}
  <label for="url">URL <span class="muted">(https)</span></label>
  <input id="url" name="url" type="url" inputmode="url" maxlength="2048" required placeholder="https://example.com/hooks/shotgen" value="${form.url}"${describedBy(form.errors, 'url')}>
  ${fieldError(form.errors, 'url')}
  <fieldset${describedBy(form.errors, 'events')}><legend>Events</legend>
  ${WEBHOOK_EVENTS.map((e) => html`<label><input type="checkbox" name="events" value="${e}" ${form.events.includes(e) ? html` checked` : ''} /> ${EVENT_LABEL[e]}</label>`)}
  </fieldset>
  ${fieldError(form.errors, 'events')}
  <button type="submit">Add endpoint</button>
</form>
</section>
<section aria-labelledby="your-webhooks">
<h2 id="your-webhooks">Your endpoints</h2>
${
  endpoints.length
    ? html`<div class="table-wrap">
        <table class="stack">
          <thead>
            <tr>
              <th scope="col">URL</th>
              <th scope="col">Events</th>
              <th scope="col">Created</th>
              <th scope="col"><span class="visually-hidden">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            ${endpoints.map(endpointRow)}
          </tbody>
        </table>
      </div>`
    : html`<p>No endpoints yet.</p>`
}
</section>`,
    }),
    status,
  );
}

function eventsOf(body: unknown): WebhookEvent[] {
  const raw = body && typeof body === 'object' ? (body as Record<string, unknown>).events : undefined;
  const values = Array.isArray(raw) ? raw : [raw];
  return WEBHOOK_EVENTS.filter((e) => values.includes(e));
}

export function webhookPages(app: FastifyInstance, dash: Dashboard): void {
  const { db } = dash.services;
  const rules = dash.services.config.webhooks ?? STRICT;

  app.get('/webhooks', async (request, reply) => webhooksPage(request, reply, dash, null));

  app.post('/webhooks', async (request, reply) => {
    const session = requireSession(request);
    const url = field(request.body, 'url').trim();
    const events = eventsOf(request.body);
    try {
      const created = await createEndpoint(db, session.user.accountId, { url, events }, rules, dash.services.publishing?.keyring ?? null);
      // Answered on this page, not after a redirect: the secret must never sit in a URL or a cache.
      return await webhooksPage(request, reply, dash, created, emptyForm, 201);
    } catch (error) {
      if (!isProblem(error) || (error.status !== 400 && error.status !== 409)) throw error;
      const errors = (error.extensions.errors as FieldError[] | undefined) ?? [];
      return webhooksPage(
        request,
        reply,
        dash,
        null,
        { url, events, errors, notice: errors.length ? 'The endpoint was not added; see below.' : error.detail },
        error.status,
      );
    }
  });

  const mine = async (request: FastifyRequest) => {
    const session = requireSession(request);
    const { id } = request.params as { id: string };
    const endpoint = isId('whk', id) ? (await listEndpoints(db, session.user.accountId)).find((w) => w.id === id) : undefined;
    if (!endpoint) throw notFound();
    return { session, endpoint };
  };

  app.get('/webhooks/:id/delete', async (request, reply) => {
    const { endpoint } = await mine(request);
    const ctx = pageContext(request, reply, dash);
    return sendPage(
      reply,
      page(ctx, {
        title: 'Delete this endpoint?',
        body: confirmCard(ctx, {
          what: html`Endpoint <code>${endpoint.url}</code> (${endpoint.events.join(', ')}), added ${when(endpoint.createdAt)}.`,
          consequence: 'No more events will be sent to it, including retries still owed.',
          action: `/webhooks/${endpoint.id}/delete`,
          button: 'Delete endpoint',
          cancel: '/webhooks',
        }),
      }),
    );
  });

  app.post('/webhooks/:id/delete', async (request, reply) => {
    const session = requireSession(request);
    const { id } = request.params as { id: string };
    if (!isId('whk', id) || !(await deleteEndpoint(db, session.user.accountId, id))) throw notFound();
    return seeOther(reply, '/webhooks');
  });
}
