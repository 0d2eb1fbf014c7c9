/** Apps: add one from store URLs or its own listing text, list them, and an app's page (its sets, a new set). */
import { plural } from '../names.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { checkCreateAppInput, createApp, findApp, listApps, setGuidance, type App } from '../../apps/apps.ts';
import { isId } from '../../core/ids.ts';
import { listJobs } from '../../sets/list.ts';
import { isProblem } from '../../core/problem.ts';
import { field, notFound, pageContext, requireSession, seeOther, sendPage, type Dashboard } from '../context.ts';
import { html, safeUrl } from '../html.ts';
import { csrfField, describedBy, fieldError, page, when, type FieldError } from '../layout.ts';
import { createSetForm, setsTable, type SetFormState } from './set-form.ts';
import { listScreens } from '../../screens/screens.ts';
import { screenPages, screensSection } from './screens.ts';
import { brandPages, brandSection, brandView } from './brand.ts';
import { refusalFixes } from './fixes.ts';
import { EMPTY_LISTING, iconSection, iconSrc, listingForm, listingPages, storeSection, type ListingValues } from './app-listing.ts';
import { variantsSection } from './variants.ts';

/** The app's guidance for the captions, editable where a refused set sends the user (#guidance). */
function guidanceSection(ctx: ReturnType<typeof pageContext>, app: App, errors: FieldError[]) {
  return html`<section aria-labelledby="guidance">
    <h2 id="guidance">Guidance for the captions</h2>
    <form method="post" action="/apps/${app.id}/guidance" class="card grid" novalidate>
      ${csrfField(ctx)}
      <div>
        <label for="extraContext">What the app does, feature by feature <span class="muted">(used with the store listing)</span></label>
        <textarea id="extraContext" name="extraContext" rows="4" maxlength="2000" ${describedBy(errors, 'extraContext')}>
${app.extraContext ?? ''}</textarea
        >
        ${fieldError(errors, 'extraContext')}
      </div>
      <div class="submit"><button type="submit">Save guidance</button></div>
    </form>
  </section>`;
}

interface AddState {
  values: { iosUrl: string; androidUrl: string; extraContext: string };
  /** The listing form's (./app-listing.ts); its fields' errors are named listing.*, so one list serves both forms. */
  listing: ListingValues;
  errors: FieldError[];
  notice?: string;
}

const EMPTY: AddState = { values: { iosUrl: '', androidUrl: '', extraContext: '' }, listing: EMPTY_LISTING, errors: [] };

/**
 * The store's icon over the app's initial. When the store's image host cannot be reached Chromium
 * still draws a broken-image mark for an empty alt; a broken image draws its ::after (a loaded one
 * never does), which the stylesheet fills with the initial (data-initial), and dashboard.js hides
 * the picture, so the initial shows through either way.
 */
export const appIcon = (app: Pick<App, 'id' | 'artworkUrl' | 'icon' | 'name'>, size = 48) => {
  const initial = [...app.name.trim()][0]?.toUpperCase() ?? '?';
  const src = safeUrl(iconSrc(app));
  return html`<span class="icon icon-${size}" aria-hidden="true"
    ><span class="icon-initial">${initial}</span
    >${src ? html`<img src="${src}" alt="" width="${size}" height="${size}" data-initial="${initial}" />` : ''}</span
  >`;
};

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
              ? html`<ul class="apps">
                  ${apps.map(
                    (app) =>
                      html`<li>
                        <a href="/apps/${app.id}"
                          >${appIcon(app)}<span
                            ><strong>${app.name}</strong><br /><span class="muted"
                              >${app.category} · added ${when(app.createdAt)}</span
                            ></span
                          ></a
                        >
                      </li>`,
                  )}
                </ul>`
              : html`<p>No apps yet. Your first set, step by step:</p>
                  <ol class="checklist">
                    <li>Add your app from its App Store or Google Play URL, or before launch from its listing text (below).</li>
                    <li>On the app's page, upload your app's own screens (PNG or JPEG) for the slides to frame.</li>
                    <li>Create a set for one device: 5 credits, ready in seconds.</li>
                    <li>Edit its captions, screens, order or theme, and save a revision: free.</li>
                    <li>Download the ZIP (laid out for fastlane), or call the API with a key from <a href="/keys">API keys</a>.</li>
                  </ol>`
          }
        </section>
        <section aria-labelledby="add-app">
          <h2 id="add-app">Add an app</h2>
          <h3>From its store page</h3>
          <form method="post" action="/apps" class="card" novalidate>
            ${csrfField(ctx)}
            <p class="hint">
              Give its App Store URL, its Google Play URL, or both. The service reads the listing (name, icon, description, screenshots)
              from the store.
            </p>
            <label for="iosUrl">App Store URL</label>
            <input
              id="iosUrl"
              name="iosUrl"
              type="url"
              inputmode="url"
              placeholder="https://apps.apple.com/us/app/…/id123456789"
              value="${values.iosUrl}"
              ${describedBy(errors, 'iosUrl')}
            />
            ${fieldError(errors, 'iosUrl')}
            <label for="androidUrl">Google Play URL</label>
            <input
              id="androidUrl"
              name="androidUrl"
              type="url"
              inputmode="url"
              placeholder="https://play.google.com/store/apps/details?id=com.example"
              value="${values.androidUrl}"
              ${describedBy(errors, 'androidUrl')}
            />
            ${fieldError(errors, 'androidUrl')}
            <label for="extraContext">Guidance for the captions <span class="muted">(optional)</span></label>
            <textarea id="extraContext" name="extraContext" rows="3" maxlength="2000" ${describedBy(errors, 'extraContext')}>
${values.extraContext}</textarea>
            ${fieldError(errors, 'extraContext')}
            <button type="submit">Add app</button>
          </form>
          <h3>Before launch, from its listing</h3>
          ${listingForm(ctx, state.listing, errors)}
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
  guidanceErrors: FieldError[] = [],
  storeErrors: FieldError[] = [],
) {
  const session = requireSession(request);
  const app = isId('app', appId) ? await findApp(dash.services.db, session.user.accountId, appId) : null;
  if (!app) throw notFound();
  // After an upload (?uploaded=N): say it worked, and how many.
  const uploaded = Math.min(10, Math.max(0, Number((request.query as Record<string, string | undefined>).uploaded) || 0));
  const saved = (request.query as Record<string, string | undefined>).saved === 'guidance';
  const ctx = pageContext(request, reply, dash);
  const [sets, screens, brand, variants] = await Promise.all([
    listJobs(dash.services.db, session.user.accountId, { appId: app.id }),
    listScreens(dash.services.db, session.user.accountId, app.id),
    brandView(dash, session.user.accountId, app.id),
    variantsSection(request, dash, ctx, session.user.accountId, app),
  ]);
  const stores = [
    app.iosListing ? html`<a href="${safeUrl(app.iosListing.url)}" rel="noopener noreferrer">App Store</a>` : '',
    app.androidListing ? html`<a href="${safeUrl(app.androidListing.url)}" rel="noopener noreferrer">Google Play</a>` : '',
  ].filter(Boolean);
  return sendPage(
    reply,
    page(ctx, {
      title: app.name,
      notice:
        form?.notice || notice
          ? { kind: 'error', text: (form?.notice || notice)! }
          : uploaded
            ? { kind: 'ok', text: `Uploaded ${plural(uploaded, 'screen')}: the app's sets of that device family will frame them.` }
            : saved
              ? { kind: 'ok', text: 'Guidance saved: the next sets of this app are planned with it.' }
              : null,
      body: html`<div class="app-head">
          ${appIcon(app, 72)}
          <p>
            ${app.category} ·
            ${stores.length ? stores.map((s, i) => html`${i ? ' · ' : ''}${s}`) : html`not in a store yet (<a href="#store-page">add its store page</a>)`}
            · added ${when(app.createdAt)}
          </p>
        </div>
        ${refusalFixes(app.id, form?.fixes)} ${guidanceSection(ctx, app, guidanceErrors)} ${screensSection(ctx, app.id, screens, !app.iosListing && !app.androidListing)}
        ${iconSection(ctx, app)} ${storeSection(ctx, app, storeErrors)}
        ${brand ? brandSection(ctx, app.id, brand) : ''}
        <section aria-labelledby="new-set">
          <h2 id="new-set">Create a screenshot set</h2>
          ${createSetForm(ctx, app.id, form, brand?.defaultTheme)}
        </section>
        <section aria-labelledby="sets">
          <h2 id="sets">Sets of this app</h2>
          ${setsTable(sets, false)}
        </section>
        ${variants}`,
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
      await dash.services.planFillChecks?.(created);
      return seeOther(reply, `/apps/${created.id}`);
    } catch (e) {
      if (!isProblem(e) || (e.status >= 500 && e.code !== 'store_unavailable')) throw e;
      const errors = (e.extensions.errors as FieldError[] | undefined) ?? [];
      const notice = e.code === 'validation_failed' ? 'Please correct the fields below.' : e.detail;
      if (e.headers['Retry-After']) reply.header('retry-after', e.headers['Retry-After']);
      return appsPage(request, reply, dash, { values, listing: EMPTY_LISTING, errors, notice }, e.status);
    }
  });

  app.get('/apps/:id', async (request, reply) => appPage(request, reply, dash, (request.params as { id: string }).id, null));
  app.post('/apps/:id/guidance', async (request, reply) => {
    const session = requireSession(request);
    const appId = (request.params as { id: string }).id;
    if (!isId('app', appId)) throw notFound();
    // The API's own check of the field, so the page and POST /apps accept the same text.
    const { errors, checked } = checkCreateAppInput({ extraContext: field(request.body, 'extraContext') });
    const own = errors.filter((e) => e.field === 'extraContext');
    if (own.length) return appPage(request, reply, dash, appId, null, 400, 'The guidance was not saved: please correct it below.', own);
    if (!(await setGuidance(db, session.user.accountId, appId, checked.extraContext))) throw notFound();
    // New guidance is a new source of captions: what a create's check reads is planned for it.
    const guided = dash.services.planFillChecks && (await findApp(db, session.user.accountId, appId));
    if (guided) await dash.services.planFillChecks!(guided);
    return seeOther(reply, `/apps/${appId}?saved=guidance#guidance`);
  });
  screenPages(app, dash, appPage);
  listingPages(
    app,
    dash,
    (request, reply, d, state, status) => appsPage(request, reply, d, { ...EMPTY, ...state }, status),
    (request, reply, d, appId, status, notice, storeErrors) => appPage(request, reply, d, appId, null, status, notice, [], storeErrors),
  );
  brandPages(app, dash, appPage);
}
