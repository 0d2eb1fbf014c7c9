/**
 * Apps before launch on the dashboard: the form that adds an app from its own listing text, and on
 * an app's page its icon (upload, show) and, for an app not in a store yet, the form that adds its
 * store URL. The same domain calls as POST /apps with listing, PUT /apps/{id}/icon and PATCH /apps/{id}.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { addStoreListings, createApp, findApp, type App } from '../../apps/apps.ts';
import { uploadIcon, MIN_ICON_SIDE } from '../../screens/app-icon.ts';
import {
  APP_STORE_CATEGORIES,
  DEFAULT_OWN_LANGUAGE,
  GOOGLE_PLAY_CATEGORIES,
  OWN_DESCRIPTION_MAX,
  OWN_NAME_MAX,
} from '../../apps/own-listing.ts';
import { isId } from '../../core/ids.ts';
import { isProblem } from '../../core/problem.ts';
import { field, notFound, requireSession, seeOther, type Dashboard } from '../context.ts';
import { html } from '../html.ts';
import { csrfField, describedBy, fieldError, type FieldError, type PageContext } from '../layout.ts';

export const LISTING_FIELDS = ['name', 'subtitle', 'description', 'category', 'language', 'price'] as const;
export type ListingValues = Record<(typeof LISTING_FIELDS)[number], string>;
export const EMPTY_LISTING: ListingValues = {
  name: '',
  subtitle: '',
  description: '',
  category: '',
  language: DEFAULT_OWN_LANGUAGE,
  price: '0',
};

/** Each input is named and identified as its API field (listing.name …), so the API's field errors land on it. */
const id = (f: string) => `listing.${f}`;

export function listingForm(ctx: PageContext, values: ListingValues, errors: FieldError[]) {
  const text = (f: 'name' | 'subtitle', label: string, hint: string) =>
    html`<label for="${id(f)}">${label} <span class="muted">(${hint})</span></label>
      <input id="${id(f)}" name="${id(f)}" maxlength="${OWN_NAME_MAX}" value="${values[f]}" ${describedBy(errors, id(f))} />
      ${fieldError(errors, id(f))}`;
  const option = (c: string) => html`<option value="${c}" ${c === values.category ? html` selected` : ''}>${c}</option>`;
  return html`<form method="post" action="/apps/listing" class="card" novalidate>
    ${csrfField(ctx)}
    <p class="hint">
      Not in a store yet? Give the listing text you will publish: the service plans from it without asking any store. Upload your app's
      screens and icon on its page next; add its store URL once it is live.
    </p>
    ${text('name', 'App name', `up to ${OWN_NAME_MAX} characters`)} ${text('subtitle', 'Subtitle', `optional, up to ${OWN_NAME_MAX}`)}
    <label for="${id('description')}">Description <span class="muted">(a line per feature gives the captions the most to work with)</span></label>
    <textarea
      id="${id('description')}"
      name="${id('description')}"
      rows="6"
      maxlength="${OWN_DESCRIPTION_MAX}"
      ${describedBy(errors, id('description'))}
    >
${values.description}</textarea
    >
    ${fieldError(errors, id('description'))}
    <label for="${id('category')}">Category</label>
    <select id="${id('category')}" name="${id('category')}" ${describedBy(errors, id('category'))}>
      <option value="">Choose the store category</option>
      <optgroup label="App Store">${APP_STORE_CATEGORIES.map(option)}</optgroup>
      <optgroup label="Google Play">${GOOGLE_PLAY_CATEGORIES.filter((c) => !(APP_STORE_CATEGORIES as readonly string[]).includes(c)).map(option)}</optgroup>
    </select>
    ${fieldError(errors, id('category'))}
    <label for="${id('language')}">Language <span class="muted">(BCP 47, e.g. en-US, de-DE)</span></label>
    <input id="${id('language')}" name="${id('language')}" value="${values.language}" ${describedBy(errors, id('language'))} />
    ${fieldError(errors, id('language'))}
    <label for="${id('price')}">Price <span class="muted">(0 when free, e.g. 4.99)</span></label>
    <input id="${id('price')}" name="${id('price')}" inputmode="decimal" value="${values.price}" ${describedBy(errors, id('price'))} />
    ${fieldError(errors, id('price'))}
    <button type="submit">Create app from listing</button>
  </form>`;
}

/** The app's icon as the dashboard shows it: the uploaded one through this page's own route, else the store's. */
export const iconSrc = (app: Pick<App, 'id' | 'artworkUrl' | 'icon'>): string | null =>
  app.icon ? `/apps/${app.id}/icon?v=${app.icon.sha256.slice(0, 12)}` : app.artworkUrl;

export function iconSection(ctx: PageContext, app: App) {
  return html`<section aria-labelledby="app-icon">
    <h2 id="app-icon">Icon</h2>
    <p class="hint">
      ${
        app.icon
          ? html`Your uploaded icon (${app.icon.width}×${app.icon.height}): the brand colours, feature graphic and badge are drawn from it.`
          : app.artworkUrl
            ? html`The store's icon. Upload one to use it instead.`
            : html`No icon yet: until there is one, the colours come from the app's name.`
      }
      PNG or JPEG, square, at least ${MIN_ICON_SIDE}×${MIN_ICON_SIDE} px.
    </p>
    <form method="post" action="/apps/${app.id}/icon" enctype="multipart/form-data" class="card">
      ${csrfField(ctx)}
      <label for="icon-file">Icon to upload</label>
      <input id="icon-file" name="icon" type="file" accept="image/png,image/jpeg" required />
      <button type="submit">Upload icon</button>
    </form>
  </section>`;
}

/** For an app made from its own listing: add the store page once it is live. */
export function storeSection(ctx: PageContext, app: App, errors: FieldError[]) {
  if (!app.listing || (app.iosListing && app.androidListing)) return html``;
  return html`<section aria-labelledby="store-page">
    <h2 id="store-page">Store page</h2>
    <p class="hint">
      ${
        app.iosListing || app.androidListing
          ? html`Add the other store's URL too.`
          : html`This app is not in a store yet. Once it is live, add its URL: the listing is read from the store (your own text stays
            where the store has none), and its sets can then be published.`
      }
    </p>
    <form method="post" action="/apps/${app.id}/stores" class="card" novalidate>
      ${csrfField(ctx)}
      <label for="store-iosUrl">App Store URL</label>
      <input id="store-iosUrl" name="iosUrl" type="url" inputmode="url" ${describedBy(errors, 'iosUrl')} />
      ${fieldError(errors, 'iosUrl')}
      <label for="store-androidUrl">Google Play URL</label>
      <input id="store-androidUrl" name="androidUrl" type="url" inputmode="url" ${describedBy(errors, 'androidUrl')} />
      ${fieldError(errors, 'androidUrl')}
      <button type="submit">Add store page</button>
    </form>
  </section>`;
}

/** The apps page answered with the listing form's values and errors. */
type AppsPage = (
  request: FastifyRequest,
  reply: FastifyReply,
  dash: Dashboard,
  state: { listing: ListingValues; errors: FieldError[]; notice?: string },
  status: number,
) => Promise<FastifyReply>;

/** The app's page answered with a notice and, for the store form, its errors. */
type AppPage = (
  request: FastifyRequest,
  reply: FastifyReply,
  dash: Dashboard,
  appId: string,
  status: number,
  notice: string,
  storeErrors?: FieldError[],
) => Promise<FastifyReply>;

export function listingPages(app: FastifyInstance, dash: Dashboard, appsPage: AppsPage, appPage: AppPage): void {
  const { db, stores, objects } = dash.services;

  app.post('/apps/listing', async (request, reply) => {
    const session = requireSession(request);
    const values = Object.fromEntries(LISTING_FIELDS.map((f) => [f, field(request.body, id(f))])) as ListingValues;
    // An empty box is a field not sent: the API's defaults (no subtitle, en-US, free) apply.
    const listing = Object.fromEntries(Object.entries(values).filter(([, v]) => v.trim() !== ''));
    try {
      const created = await createApp(db, stores, session.user.accountId, { listing });
      return seeOther(reply, `/apps/${created.id}`);
    } catch (e) {
      if (!isProblem(e) || e.status >= 500) throw e;
      const errors = (e.extensions.errors as FieldError[] | undefined) ?? [];
      return appsPage(request, reply, dash, { listing: values, errors, notice: 'Please correct the listing below.' }, e.status);
    }
  });

  app.post('/apps/:id/icon', async (request, reply) => {
    const session = requireSession(request);
    const appId = (request.params as { id: string }).id;
    const body = request.body as Record<string, unknown> | undefined;
    const file = [body?.icon].flat().find((f): f is Buffer => Buffer.isBuffer(f) && f.length > 0);
    if (!isId('app', appId)) throw notFound();
    if (!file) return appPage(request, reply, dash, appId, 400, 'Choose a PNG or JPEG icon to upload.');
    try {
      await uploadIcon(db, objects, session.user.accountId, appId, file);
    } catch (e) {
      if (isProblem(e) && e.code === 'app_not_found') throw notFound();
      if (!isProblem(e) || e.status >= 500) throw e;
      return appPage(request, reply, dash, appId, e.status, `The icon was not uploaded: ${e.detail}`);
    }
    return seeOther(reply, `/apps/${appId}#app-icon`);
  });

  // The uploaded icon's bytes, for the session's own account only.
  app.get('/apps/:id/icon', async (request, reply) => {
    const session = requireSession(request);
    const appId = (request.params as { id: string }).id;
    const found = isId('app', appId) ? await findApp(db, session.user.accountId, appId) : null;
    const object = found?.icon ? await objects.get(found.icon.objectKey) : null;
    if (!found?.icon || !object) throw notFound();
    return reply
      .type(found.icon.contentType)
      .header('content-length', object.bytes)
      .header('cache-control', 'private, max-age=3600')
      .send(object.body);
  });

  app.post('/apps/:id/stores', async (request, reply) => {
    const session = requireSession(request);
    const appId = (request.params as { id: string }).id;
    if (!isId('app', appId)) throw notFound();
    const input = {
      iosUrl: field(request.body, 'iosUrl').trim() || undefined,
      androidUrl: field(request.body, 'androidUrl').trim() || undefined,
    };
    try {
      if (!(await addStoreListings(db, stores, objects, session.user.accountId, appId, input))) throw notFound();
    } catch (e) {
      if (!isProblem(e) || (e.status >= 500 && e.code !== 'store_unavailable')) throw e;
      const errors = (e.extensions.errors as FieldError[] | undefined) ?? [];
      if (e.headers['Retry-After']) reply.header('retry-after', e.headers['Retry-After']);
      const notice = e.code === 'validation_failed' ? 'The store page was not added: please correct it below.' : e.detail;
      return appPage(request, reply, dash, appId, e.status, notice, errors);
    }
    return seeOther(reply, `/apps/${appId}#store-page`);
  });
}
