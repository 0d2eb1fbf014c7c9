/** API keys: list, create (the secret shown once), revoke after a confirmation. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createApiKey, listApiKeys, revokeApiKey, type ApiKeyInfo } from '../../accounts/api-keys.ts';
import { isId } from '../../core/ids.ts';
import { field, notFound, pageContext, requireSession, seeOther, sendPage, type Dashboard } from '../context.ts';
import { html } from '../html.ts';
import { confirmCard, csrfField, page, when } from '../layout.ts';

const NAME_MAX = 100;

function keyRow(key: ApiKeyInfo) {
  return html`<tr>
    <td data-label="Name">${key.name ?? html`<span class="muted">unnamed</span>`}</td>
    <td data-label="Prefix"><code>${key.prefix}…</code></td>
    <td data-label="Created">${when(key.createdAt)}</td>
    <td data-label="Last used">${when(key.lastUsedAt, 'never')}</td>
    <td data-label="Status">
      ${key.revokedAt ? html`<span class="badge failed">Revoked</span> ${when(key.revokedAt)}` : html`<span class="badge succeeded">Active</span>`}
    </td>
    <td>
      ${key.revokedAt ? '' : html`<a class="button secondary small" href="/keys/${key.id}/revoke">Revoke<span class="visually-hidden"> ${key.name ?? key.prefix}</span></a>`}
    </td>
  </tr>`;
}

async function keysPage(
  request: FastifyRequest,
  reply: FastifyReply,
  dash: Dashboard,
  created: (ApiKeyInfo & { key: string }) | null,
  status = 200,
) {
  const session = requireSession(request);
  const ctx = pageContext(request, reply, dash);
  const keys = await listApiKeys(dash.services.db, session.user.accountId);
  const welcome = (request.query as Record<string, string | undefined>).welcome === '1';
  // The origin people reach this server at: PUBLIC_URL, else the one this request came to.
  const origin = (dash.publicUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, '');
  return sendPage(
    reply,
    page(ctx, {
      title: 'API keys',
      notice: welcome
        ? { kind: 'ok', text: 'Your account is ready, with 50 free credits this month. Create a key to call the API.' }
        : null,
      body: html`${
        created
          ? html`<section class="card secret" aria-labelledby="new-key">
                <h2 id="new-key">Your new key${created.name ? html` “${created.name}”` : ''}</h2>
                <p>
                  <strong>Copy it now: it is shown only this once.</strong> Store it as a server-side secret; a lost key cannot be
                  recovered, only revoked and replaced.
                </p>
                <div class="copy-row">
                  <input id="secret" class="mono" readonly value="${created.key}" aria-label="The new API key" />
                  <button type="button" data-copy="secret" data-copied="The key is on your clipboard.">Copy</button>
                </div>
                <p class="hint" data-copy-status="secret" role="status"></p>
                <p class="hint">
                  Use it as <code>Authorization: Bearer …</code> or <code>x-api-key: …</code> on <code>${dash.basePath}/public/v1/…</code>.
                  Your first call, ready to paste:
                </p>
                <div class="copy-row">
                  <input
                    id="first-call"
                    class="mono"
                    readonly
                    value="curl -H 'Authorization: Bearer ${created.key}' ${origin}${dash.basePath}/public/v1/account"
                    aria-label="Your first call, with the key"
                  />
                  <button type="button" data-copy="first-call" data-copied="The command is on your clipboard: paste it in a terminal.">Copy command</button>
                </div>
                <p class="hint" data-copy-status="first-call" role="status"></p>
              </section>`
          : ''
      }
        <section aria-labelledby="create-key">
          <h2 id="create-key">Create a key</h2>
          <form method="post" action="/keys" class="inline">
            ${csrfField(ctx)}
            <label for="name">Name <span class="muted">(optional, e.g. “CI”)</span></label>
            <input id="name" name="name" maxlength="${NAME_MAX}" autocomplete="off" />
            <button type="submit">Create key</button>
          </form>
        </section>
        <section aria-labelledby="your-keys">
          <h2 id="your-keys">Your keys</h2>
          ${
            keys.length
              ? html`<div class="table-wrap">
                  <table class="stack">
                    <thead>
                      <tr>
                        <th scope="col">Name</th>
                        <th scope="col">Prefix</th>
                        <th scope="col">Created</th>
                        <th scope="col">Last used</th>
                        <th scope="col">Status</th>
                        <th scope="col"><span class="visually-hidden">Actions</span></th>
                      </tr>
                    </thead>
                    <tbody>
                      ${keys.map(keyRow)}
                    </tbody>
                  </table>
                </div>`
              : html`<p>No keys yet.</p>`
          }
        </section>`,
    }),
    status,
  );
}

export function keyPages(app: FastifyInstance, dash: Dashboard): void {
  const { db, authenticator } = dash.services;

  app.get('/keys', async (request, reply) => keysPage(request, reply, dash, null));

  app.post('/keys', async (request, reply) => {
    const session = requireSession(request);
    const name = field(request.body, 'name').trim().slice(0, NAME_MAX) || null;
    const created = await createApiKey(db, session.user.accountId, name);
    // Answered on this page, not after a redirect: the secret must never sit in a URL or a
    // cache, and reloading only asks to send the form again.
    return keysPage(request, reply, dash, created, 201);
  });

  app.get('/keys/:id/revoke', async (request, reply) => {
    const session = requireSession(request);
    const { id } = request.params as { id: string };
    const key = isId('key', id) ? (await listApiKeys(db, session.user.accountId)).find((k) => k.id === id) : undefined;
    if (!key) throw notFound();
    const ctx = pageContext(request, reply, dash);
    return sendPage(
      reply,
      page(ctx, {
        title: 'Revoke this key?',
        body: key.revokedAt
          ? html`<p>This key was already revoked ${when(key.revokedAt)}.</p>
              <p><a href="/keys">Back to API keys</a></p>`
          : confirmCard(ctx, {
              what: html`Key <strong>${key.name ?? 'unnamed'}</strong> (<code>${key.prefix}…</code>), created ${when(key.createdAt)}, last
                used ${when(key.lastUsedAt, 'never')}.`,
              consequence: 'Every request with it will be refused (401) from the next one on.',
              action: `/keys/${key.id}/revoke`,
              button: 'Revoke key',
              cancel: '/keys',
            }),
      }),
    );
  });

  app.post('/keys/:id/revoke', async (request, reply) => {
    const session = requireSession(request);
    const { id } = request.params as { id: string };
    const revoked = isId('key', id) ? await revokeApiKey(db, session.user.accountId, id) : null;
    if (!revoked) throw notFound();
    // Other processes hear of it through the trigger's NOTIFY; this one forgets the key now.
    authenticator.forget(revoked.hashHex);
    return seeOther(reply, '/keys');
  });
}
