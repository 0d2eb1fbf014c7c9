/** Apps: add one from store URLs, list them, and an app's page (its sets, a new set). */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createApp, findApp, listApps, type App } from '../../apps/apps.ts';
import { isId } from '../../ids.ts';
import { listJobs } from '../../jobs/job-list.ts';
import { isProblem } from '../../problem.ts';
import { field, notFound, pageContext, requireSession, seeOther, sendPage, type Dashboard } from '../context.ts';
import { html, safeUrl } from '../html.ts';
import { csrfField, describedBy, fieldError, page, when, type FieldError } from '../layout.ts';
import { createSetForm, setsTable, type SetFormState } from './set-form.ts';
import { listScreens } from '../../screens/screens.ts';
import { screenPages, screensSection } from './screens.ts';

interface AddState {
  values: { iosUrl: string; androidUrl: string; extraContext: string };
  errors: FieldError[];
  notice?: string;
}

const EMPTY: AddState = { values: { iosUrl: '', androidUrl: '', extraContext: '' }, errors: [] };

export const appIcon = (app: Pick<App, 'artworkUrl'>, size = 48) =>
  safeUrl(app.artworkUrl) ? html`<img class="icon" src="${safeUrl(app.artworkUrl)}" alt="" width="${size}" height="${size}">` : '';

async function appsPage(request: FastifyRequest, reply: FastifyReply, dash: Dashboard, state: AddState, status = 200) {
  const session = requireSession(request);
  const ctx = pageContext(request, reply, dash);
  const [apps, sets] = await Promise.all([
    listApps(dash.services.db, session.user.accountId),
    listJobs(dash.services.db, session.user.accountId, { limit: 10 }),
  ]);
  const { values, errors } = state;
  return sendPage(
    reply,
    page(ctx, {
      title: 'Apps and sets',
      notice: state.notice ? { kind: 'error', text: state.notice } : null,
      body: html`<section aria-labelledby="your-apps">
<h2 id="your-apps">Your apps</h2>
${
  apps.length
    ? html`<ul class="apps">${apps.map((app) => html`<li><a href="/apps/${app.id}">${appIcon(app)}<span><strong>${app.name}</strong><br><span class="muted">${app.category} · added ${when(app.createdAt)}</span></span></a></li>`)}</ul>`
    : html`<p>No apps yet. Add one from its store listing below.</p>`
}
</section>
<section aria-labelledby="add-app">
<h2 id="add-app">Add an app</h2>
<form method="post" action="/apps" class="card" novalidate>
  ${csrfField(ctx)}
  <p class="hint">Give its App Store URL, its Google Play URL, or both. The service reads the listing (name, icon, description, screenshots) from the store.</p>
  <label for="iosUrl">App Store URL</label>
  <input id="iosUrl" name="iosUrl" type="url" inputmode="url" placeholder="https://apps.apple.com/us/app/…/id123456789" value="${values.iosUrl}"${describedBy(errors, 'iosUrl')}>
  ${fieldError(errors, 'iosUrl')}
  <label for="androidUrl">Google Play URL</label>
  <input id="androidUrl" name="androidUrl" type="url" inputmode="url" placeholder="https://play.google.com/store/apps/details?id=com.example" value="${values.androidUrl}"${describedBy(errors, 'androidUrl')}>
  ${fieldError(errors, 'androidUrl')}
  <label for="extraContext">Guidance for the captions <span class="muted">(optional)</span></label>
  <textarea id="extraContext" name="extraContext" rows="3" maxlength="2000"${describedBy(errors, 'extraContext')}>${values.extraContext}</textarea>
  ${fieldError(errors, 'extraContext')}
  <button type="submit">Add app</button>
</form>
</section>
<section aria-labelledby="recent-sets">
<h2 id="recent-sets">Recent sets</h2>
${setsTable(sets, true)}
</section>`,
    }),
    status,
  );
}

export async function appPage(
  request: FastifyRequest,
  reply: FastifyReply,
  dash: Dashboard,
  appId: string,
  form: SetFormState | null,
  status = 200,
  notice?: string,
) {
  const session = requireSession(request);
  const app = isId('app', appId) ? await findApp(dash.services.db, session.user.accountId, appId) : null;
  if (!app) throw notFound();
  const ctx = pageContext(request, reply, dash);
  const [sets, screens] = await Promise.all([
    listJobs(dash.services.db, session.user.accountId, { appId: app.id }),
    listScreens(dash.services.db, session.user.accountId, app.id),
  ]);
  const stores = [
    app.iosListing ? html`<a href="${safeUrl(app.iosListing.url)}" rel="noopener noreferrer">App Store</a>` : '',
    app.androidListing ? html`<a href="${safeUrl(app.androidListing.url)}" rel="noopener noreferrer">Google Play</a>` : '',
  ].filter(Boolean);
  return sendPage(
    reply,
    page(ctx, {
      title: app.name,
      notice: form?.notice || notice ? { kind: 'error', text: (form?.notice || notice)! } : null,
      body: html`<div class="app-head">${appIcon(app, 72)}<p>${app.category} · ${stores.map((s, i) => html`${i ? ' · ' : ''}${s}`)} · added ${when(app.createdAt)}</p></div>
${app.extraContext ? html`<p class="hint">Guidance: ${app.extraContext}</p>` : ''}
${screensSection(ctx, app.id, screens)}
<section aria-labelledby="new-set">
<h2 id="new-set">Create a screenshot set</h2>
${createSetForm(ctx, app.id, form)}
</section>
<section aria-labelledby="sets">
<h2 id="sets">Sets of this app</h2>
${setsTable(sets, false)}
</section>`,
    }),
    status,
  );
}

export function appPages(app: FastifyInstance, dash: Dashboard): void {
  const { db, stores } = dash.services;

  app.get('/apps', async (request, reply) => appsPage(request, reply, dash, EMPTY));

  app.post('/apps', async (request, reply) => {
    const session = requireSession(request);
    const values = {
      iosUrl: field(request.body, 'iosUrl').trim(),
      androidUrl: field(request.body, 'androidUrl').trim(),
      extraContext: field(request.body, 'extraContext'),
    };
    // An empty box is no URL, as if the field had not been sent.
    const input = {
      iosUrl: values.iosUrl || undefined,
      androidUrl: values.androidUrl || undefined,
      extraContext: values.extraContext || undefined,
    };
    try {
      const created = await createApp(db, stores, session.user.accountId, input);
      return seeOther(reply, `/apps/${created.id}`);
    } catch (e) {
      if (!isProblem(e) || (e.status >= 500 && e.code !== 'store_unavailable')) throw e;
      const errors = (e.extensions.errors as FieldError[] | undefined) ?? [];
      const notice = e.code === 'validation_failed' ? 'Please correct the fields below.' : e.detail;
      if (e.headers['Retry-After']) reply.header('retry-after', e.headers['Retry-After']);
      return appsPage(request, reply, dash, { values, errors, notice }, e.status);
    }
  });

  app.get('/apps/:id', async (request, reply) => appPage(request, reply, dash, (request.params as { id: string }).id, null));
  screenPages(app, dash, appPage);
}
