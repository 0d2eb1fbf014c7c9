/**
 * Store connections: list (never a secret), add an App Store Connect API key or a Google Play
 * service account (a file or pasted text), delete after a confirmation. The same domain calls as
 * POST/GET/DELETE /store-connections: the credentials are tried against the store before they are kept.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isId } from '../../core/ids.ts';
import { isProblem } from '../../core/problem.ts';
import {
  createConnection,
  deleteConnection,
  getConnection,
  listConnections,
  type AppStoreUpload,
  type StoreConnection,
} from '../../publishing/connections.ts';
import type { PublishingServices } from '../../publishing/services.ts';
import { field, notFound, pageContext, PageError, requireSession, seeOther, sendPage, type Dashboard } from '../context.ts';
import { html } from '../html.ts';
import { confirmCard, csrfField, describedBy, fieldError, page, when, type FieldError } from '../layout.ts';

const ID_MAX = 100;
/** A .p8 is about 250 bytes and a key file about 2.4 KB; anything past this is not one. */
const SECRET_MAX = 10_000;

export const STORE_NAME: Record<StoreConnection['store'], string> = { 'app-store': 'App Store Connect', 'google-play': 'Google Play' };

/** What names a connection to a person: the key id, or the service account's email. */
/** How an App Store connection puts screenshots on the version (docs/publishing.md). */
export const UPLOAD_NAME: Record<AppStoreUpload, string> = {
  'screenshot-sets': 'Screenshot sets',
  'asset-library': 'App Asset Library',
};
const UPLOADS = Object.keys(UPLOAD_NAME) as AppStoreUpload[];

export const connectionLabel = (c: StoreConnection): string =>
  c.store === 'app-store' ? `${STORE_NAME[c.store]} key ${c.keyId}` : `${STORE_NAME[c.store]} · ${c.clientEmail}`;

export function publishingOf(dash: Dashboard): PublishingServices {
  const p = dash.services.publishing;
  if (!p) throw new PageError(503, 'Publishing is not running', 'Publishing is not running on this server. Try again in a minute.');
  return p;
}

function connectionRow(c: StoreConnection) {
  return html`<tr>
    <td data-label="Store">${STORE_NAME[c.store]}</td>
    <td data-label="Key">
      ${
        c.store === 'app-store'
          ? html`<code>${c.keyId}</code><br /><span class="muted small">issuer <code>${c.issuerId}</code></span><br /><span
                  class="muted small"
                  >${`uploads to ${UPLOAD_NAME[c.appStoreUpload ?? 'screenshot-sets']}`}</span
                >`
          : html`<code>${c.clientEmail}</code>`
      }
    </td>
    <td data-label="Added">${when(c.createdAt)}</td>
    <td data-label="Last used">${when(c.lastUsedAt, 'never')}</td>
    <td>
      <a class="button secondary small" href="/connections/${c.id}/delete"
        >Delete<span class="visually-hidden"> ${connectionLabel(c)}</span></a
      >
    </td>
  </tr>`;
}

interface FormState {
  /** Which form the values and errors belong to. */
  store: StoreConnection['store'] | null;
  issuerId: string;
  keyId: string;
  appStoreUpload: AppStoreUpload;
  errors: FieldError[];
  notice: { kind: 'ok' | 'error'; text: string } | null;
}

const emptyForm: FormState = { store: null, issuerId: '', keyId: '', appStoreUpload: 'screenshot-sets', errors: [], notice: null };

async function connectionsPage(request: FastifyRequest, reply: FastifyReply, dash: Dashboard, form: FormState = emptyForm, status = 200) {
  const session = requireSession(request);
  const ctx = pageContext(request, reply, dash);
  const connections = await listConnections(dash.services.db, session.user.accountId);
  const asc = form.store === 'app-store' ? form : emptyForm;
  const play = form.store === 'google-play' ? form : emptyForm;
  const added = (request.query as Record<string, string | undefined>).added;
  const notice =
    form.notice ?? (added && isId('sc', added) ? { kind: 'ok' as const, text: 'Connected: the store accepted the key.' } : null);
  return sendPage(
    reply,
    page(ctx, {
      title: 'Store connections',
      notice,
      body: html`<p class="hint">
          A connection lets shotgen put a finished set on your App Store or Google Play page. Keys are tried once against the store,
          then stored encrypted; they are never shown again, here or in the API.
        </p>
        <section aria-labelledby="your-connections">
          <h2 id="your-connections">Your connections</h2>
          ${
            connections.length
              ? html`<div class="table-wrap">
                <table class="stack">
                  <thead>
                    <tr>
                      <th scope="col">Store</th>
                      <th scope="col">Key</th>
                      <th scope="col">Added</th>
                      <th scope="col">Last used</th>
                      <th scope="col"><span class="visually-hidden">Actions</span></th>
                    </tr>
                  </thead>
                  <tbody>
                    ${connections.map(connectionRow)}
                  </tbody>
                </table>
              </div>`
              : html`<p>No connections yet.</p>`
          }
        </section>
        <div class="connect-forms">
          <section class="card" aria-labelledby="add-app-store">
            <h2 id="add-app-store">Add an App Store Connect key</h2>
            <p class="hint">
              App Store Connect → Users and Access → Integrations → App Store Connect API: a team key with the App Manager role.
            </p>
            <form method="post" action="/connections/app-store" enctype="multipart/form-data">
              ${csrfField(ctx)}
              <label for="issuerId">Issuer ID</label>
              <input id="issuerId" name="issuerId" required maxlength="${ID_MAX}" autocomplete="off" spellcheck="false" class="mono"
                value="${asc.issuerId}"${describedBy(asc.errors, 'issuerId')} />
              ${fieldError(asc.errors, 'issuerId')}
              <label for="keyId">Key ID</label>
              <input id="keyId" name="keyId" required maxlength="${ID_MAX}" autocomplete="off" spellcheck="false" class="mono"
                value="${asc.keyId}"${describedBy(asc.errors, 'keyId')} />
              ${fieldError(asc.errors, 'keyId')}
              <label for="p8File">Private key file <span class="muted">(AuthKey_….p8)</span></label>
              <input id="p8File" name="privateKeyFile" type="file" accept=".p8,application/x-pem-file,text/plain"${describedBy(asc.errors, 'privateKey')} />
              <label for="p8Text">…or paste its text</label>
              <textarea id="p8Text" name="privateKey" rows="4" maxlength="4000" autocomplete="off" spellcheck="false" class="mono"
                placeholder="-----BEGIN PRIVATE KEY-----"${describedBy(asc.errors, 'privateKey')}></textarea>
              ${fieldError(asc.errors, 'privateKey')}
              <fieldset>
                <legend>Upload screenshots to</legend>
                ${UPLOADS.map(
                  (u) =>
                    html`<label class="choice"
                      ><input type="radio" name="appStoreUpload" value="${u}" ${u === asc.appStoreUpload ? html`checked` : ''} />
                      ${UPLOAD_NAME[u]}</label
                    >`,
                )}
                ${fieldError(asc.errors, 'appStoreUpload')}
              </fieldset>
              <p class="hint">
                Screenshot sets: each version localization's sets, as fastlane does. App Asset Library (App Store Connect API 4.5): each
                picture uploaded once into the app's library and placed per localization.
              </p>
              <button type="submit">Connect App Store</button>
            </form>
          </section>
          <section class="card" aria-labelledby="add-google-play">
            <h2 id="add-google-play">Add a Google Play service account</h2>
            <p class="hint">
              Google Cloud → IAM → Service accounts → Keys → Add key (JSON), with the account invited in Play Console (Users and
              permissions) to manage your store listing.
            </p>
            <form method="post" action="/connections/google-play" enctype="multipart/form-data">
              ${csrfField(ctx)}
              <label for="saFile">Key file <span class="muted">(.json)</span></label>
              <input id="saFile" name="serviceAccountFile" type="file" accept=".json,application/json"${describedBy(play.errors, 'serviceAccount')} />
              <label for="saText">…or paste its text</label>
              <textarea id="saText" name="serviceAccount" rows="4" maxlength="4000" autocomplete="off" spellcheck="false" class="mono"
                placeholder='{ "type": "service_account", … }'${describedBy(play.errors, 'serviceAccount')}></textarea>
              ${fieldError(play.errors, 'serviceAccount')}
              <button type="submit">Connect Google Play</button>
            </form>
          </section>
        </div>`,
    }),
    status,
  );
}

/** A form's secret: the uploaded file if one was chosen, else the pasted text. */
function secretOf(body: unknown, fileField: string, textField: string): string {
  const file = body && typeof body === 'object' ? (body as Record<string, unknown>)[fileField] : undefined;
  const first = Array.isArray(file) ? file[0] : file;
  if (Buffer.isBuffer(first) && first.length > 0) return first.toString('utf8').trim();
  return field(body, textField).trim();
}

/** The domain's field names (serviceAccount/private_key, …) mapped onto this page's inputs. */
const onForm = (errors: FieldError[], store: StoreConnection['store']): FieldError[] =>
  errors.map((e) => ({
    field: store === 'app-store' ? e.field : 'serviceAccount',
    message: store === 'app-store' || e.field === 'serviceAccount' ? e.message : `${e.field.replace(/^serviceAccount\//, '')} ${e.message}`,
  }));

export function connectionPages(app: FastifyInstance, dash: Dashboard): void {
  const { db } = dash.services;

  app.get('/connections', async (request, reply) => connectionsPage(request, reply, dash));

  const add = async (request: FastifyRequest, reply: FastifyReply, store: StoreConnection['store']) => {
    const session = requireSession(request);
    const p = publishingOf(dash);
    const issuerId = store === 'app-store' ? field(request.body, 'issuerId').trim() : '';
    const keyId = store === 'app-store' ? field(request.body, 'keyId').trim() : '';
    const chosen = field(request.body, 'appStoreUpload');
    const appStoreUpload = UPLOADS.find((u) => u === chosen) ?? 'screenshot-sets';
    // The secret is never put back into the page: after a refusal it is chosen or pasted again.
    const refuse = (errors: FieldError[], text: string, status: number) =>
      connectionsPage(request, reply, dash, { store, issuerId, keyId, appStoreUpload, errors, notice: { kind: 'error', text } }, status);
    let input;
    if (store === 'app-store') {
      const privateKey = secretOf(request.body, 'privateKeyFile', 'privateKey');
      const errors: FieldError[] = [];
      if (!issuerId) errors.push({ field: 'issuerId', message: 'Enter the issuer ID shown above your keys.' });
      if (!keyId) errors.push({ field: 'keyId', message: 'Enter the key’s ID.' });
      if (!privateKey) errors.push({ field: 'privateKey', message: 'Choose the .p8 file, or paste its text.' });
      // The API's schema bounds (its body is validated before the domain sees it; a form is not).
      if (issuerId.length > ID_MAX) errors.push({ field: 'issuerId', message: `At most ${ID_MAX} characters.` });
      if (keyId.length > ID_MAX) errors.push({ field: 'keyId', message: `At most ${ID_MAX} characters.` });
      if (privateKey.length > SECRET_MAX) errors.push({ field: 'privateKey', message: 'This is far longer than a .p8 key file.' });
      // A choice the form does not offer is refused, not quietly replaced by the default.
      if (chosen && !UPLOADS.some((u) => u === chosen))
        errors.push({ field: 'appStoreUpload', message: `Choose ${UPLOADS.map((u) => UPLOAD_NAME[u]).join(' or ')}.` });
      if (errors.length) return refuse(errors, 'The key was not added; see below.', 400);
      input = { store, issuerId, keyId, privateKey, appStoreUpload } as const;
    } else {
      const text = secretOf(request.body, 'serviceAccountFile', 'serviceAccount');
      if (text.length > SECRET_MAX)
        return refuse(
          [{ field: 'serviceAccount', message: 'This is far longer than a key file.' }],
          'The service account was not added; see below.',
          400,
        );
      let serviceAccount: unknown;
      try {
        serviceAccount = text ? JSON.parse(text) : null;
      } catch {
        serviceAccount = undefined;
      }
      if (!serviceAccount || typeof serviceAccount !== 'object' || Array.isArray(serviceAccount)) {
        const message = text ? 'This is not a JSON key file.' : 'Choose the key file, or paste its text.';
        return refuse([{ field: 'serviceAccount', message }], 'The service account was not added; see below.', 400);
      }
      input = { store, serviceAccount: serviceAccount as Record<string, unknown> } as const;
    }
    try {
      const created = await createConnection(db, p.keyring, session.user.accountId, input, {
        check: p.check,
        allowedTokenOrigins: p.allowedTokenOrigins,
      });
      return seeOther(reply, `/connections?added=${created.id}`);
    } catch (error) {
      if (!isProblem(error) || error.status === 500) throw error;
      const errors = onForm((error.extensions.errors as FieldError[] | undefined) ?? [], store);
      return refuse(errors, errors.length ? 'The key was not added; see below.' : error.detail, error.status);
    }
  };
  app.post('/connections/app-store', (request, reply) => add(request, reply, 'app-store'));
  app.post('/connections/google-play', (request, reply) => add(request, reply, 'google-play'));

  const mine = async (request: FastifyRequest) => {
    const session = requireSession(request);
    const { id } = request.params as { id: string };
    const connection = isId('sc', id) ? await getConnection(db, session.user.accountId, id) : null;
    if (!connection) throw notFound();
    return { session, connection };
  };

  app.get('/connections/:id/delete', async (request, reply) => {
    const { connection } = await mine(request);
    const ctx = pageContext(request, reply, dash);
    return sendPage(
      reply,
      page(ctx, {
        title: 'Delete this connection?',
        body: confirmCard(ctx, {
          what: html`<strong>${connectionLabel(connection)}</strong>, added ${when(connection.createdAt)}, last used
            ${when(connection.lastUsedAt, 'never')}.`,
          consequence: 'Its encrypted key is deleted, and publications still running on it fail.',
          action: `/connections/${connection.id}/delete`,
          button: 'Delete connection',
          cancel: '/connections',
        }),
      }),
    );
  });

  app.post('/connections/:id/delete', async (request, reply) => {
    const session = requireSession(request);
    const { id } = request.params as { id: string };
    if (!isId('sc', id) || !(await deleteConnection(db, session.user.accountId, id))) throw notFound();
    return seeOther(reply, '/connections');
  });
}
