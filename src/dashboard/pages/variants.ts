/**
 * Variants in the dashboard. An app page's variants: its custom product pages and its tests'
 * treatments side by side, each with its store preview (the first three slides of the set it
 * came from, as a shopper sees them at the top of the page), its state on the App Store and its
 * publication; read from App Store Connect with the same function as GET /apps/{appId}/variants,
 * and only for an app shotgen has published a variant of, so other app pages make no store call.
 * The publish form's choice of target, a publication's Submit for review, and a test's Start: the
 * same domain calls as the API, each only on its own button.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../apps/apps.ts';
import { pictureLinks } from '../../http/picture-links.ts';
import { isId } from '../../core/ids.ts';
import { isProblem, validationFailed } from '../../core/problem.ts';
import type { VariantTarget } from '../../publishing/app-store/variants.ts';
import type { viewPublication } from '../../publishing/publications.ts';
import { listVariants, startExperiment, submitPublication } from '../../publishing/variants.ts';
import { field, notFound, PageError, requireSession, seeOther, type Dashboard } from '../context.ts';
import { html, safeUrl, type Html } from '../html.ts';
import { csrfField, when, type PageContext } from '../layout.ts';
import { publishingOf } from './connections.ts';

/** One attempt and a short wait: a slow store must not hold the app page. */
const DASHBOARD_RETRY = { attempts: 2, baseDelayMs: 200, maxDelayMs: 500, maxRetryAfterMs: 1_000 };

interface Card {
  title: string;
  kind: string;
  state: string | null;
  url?: string | null;
  jobId: string | null;
  publicationId: string | null;
}

/** The first three slides of a set, as the top of a product page shows them. */
async function preview(request: FastifyRequest, dash: Dashboard, accountId: string, jobId: string | null): Promise<Html> {
  const job = jobId ? await dash.services.jobs.get(accountId, jobId, pictureLinks(dash.services, request)) : null;
  const slides = (job?.result?.slides ?? []).slice(0, 3);
  if (!slides.length) return html`<p class="hint">Not published from a shotgen set.</p>`;
  return html`<ol class="store-preview">
    ${slides.map((s) => {
      const src = s.image ? safeUrl(s.image.url) : '';
      return html`<li>${src ? html`<img src="${src}" alt="Slide ${s.index}: ${s.headline}" loading="lazy" />` : html`<span>${s.headline}</span>`}</li>`;
    })}
  </ol>`;
}

async function card(request: FastifyRequest, dash: Dashboard, accountId: string, c: Card, start: Html | ''): Promise<Html> {
  const link = safeUrl(c.url);
  return html`<li class="card variant">
    <p class="muted">${c.kind}</p>
    <h3>${link ? html`<a href="${link}" rel="noopener noreferrer">${c.title}</a>` : c.title}</h3>
    ${await preview(request, dash, accountId, c.jobId)}
    <p>
      <span class="badge">${c.state ?? 'unknown'}</span>
      ${c.jobId ? html` · <a href="/sets/${c.jobId}">set</a>` : ''}
      ${c.publicationId ? html` · <a href="/publications/${c.publicationId}">publication</a>` : ''}
    </p>
    ${start}
  </li>`;
}

export async function variantsSection(
  request: FastifyRequest,
  dash: Dashboard,
  ctx: PageContext,
  accountId: string,
  app: App,
): Promise<Html | ''> {
  const p = dash.services.publishing;
  if (!p || !app.iosListing) return '';
  const { rows } = await dash.services.db.query(
    `SELECT 1 FROM publications WHERE account_id = $1 AND store = 'app-store' AND store_app_id = $2 AND variant IS NOT NULL LIMIT 1`,
    [accountId, app.iosListing.storeId],
  );
  if (!rows.length) return '';
  const heading = html`<h2 id="variants">Variants on the App Store</h2>`;
  let variants: Awaited<ReturnType<typeof listVariants>>;
  try {
    variants = await listVariants(dash.services.db, () => ({ ...p, retry: DASHBOARD_RETRY }), accountId, app.id);
  } catch (e) {
    if (!isProblem(e)) throw e;
    return html`<section aria-labelledby="variants">${heading}<p class="card">App Store Connect could not be read: ${e.detail}</p></section>`;
  }
  const cards: (Card & { experimentId?: string; startable?: boolean })[] = [
    ...variants.customProductPages.map((pg) => ({
      title: pg.name,
      kind: 'Custom product page',
      state: pg.state,
      url: pg.url,
      jobId: pg.jobId,
      publicationId: pg.publicationId,
    })),
    ...variants.experiments.flatMap((e) =>
      e.treatments.map((t) => ({
        title: `${e.name}: ${t.name}`,
        kind: 'Test treatment',
        state: e.running ? 'RUNNING' : e.state,
        jobId: t.jobId,
        publicationId: t.publicationId,
        experimentId: e.id,
        startable: !e.running && ['APPROVED', 'ACCEPTED'].includes(e.state),
      })),
    ),
  ];
  const rendered: Html[] = [];
  const started = new Set<string>();
  for (const c of cards) {
    // One Start per test, under its first treatment: starting shows every treatment to shoppers.
    const start =
      c.startable && c.experimentId && !started.has(c.experimentId)
        ? html`<form method="post" action="/experiments/${c.experimentId}/start?app=${app.id}">
            ${csrfField(ctx)}<button type="submit">Start the test</button>
            <p class="hint">Approved by App Review. Starting shows its treatments to App Store visitors now.</p>
          </form>`
        : '';
    if (c.experimentId) started.add(c.experimentId);
    rendered.push(await card(request, dash, accountId, c, start));
  }
  return html`<section aria-labelledby="variants">
    ${heading}
    ${rendered.length ? html`<ul class="variants">${rendered}</ul>` : html`<p>None on the store any more.</p>`}
  </section>`;
}

/** The publish form's choice of where the set goes (App Store sets only). */
export function targetFieldset(body: unknown): Html {
  const kind = field(body, 'target') || 'product-page';
  const checked = (k: string) => (k === kind ? html`checked` : '');
  return html`<fieldset>
    <legend>Where on the App Store</legend>
    <label class="choice"><input type="radio" name="target" value="product-page" ${checked('product-page')} /> The product page</label>
    <label class="choice"
      ><input type="radio" name="target" value="custom-product-page" ${checked('custom-product-page')} /> A custom product page</label
    >
    <p class="indent">
      <label for="pageName">Page name</label>
      <input id="pageName" name="pageName" maxlength="100" value="${field(body, 'pageName')}" />
    </p>
    <label class="choice"
      ><input type="radio" name="target" value="experiment-treatment" ${checked('experiment-treatment')} /> A treatment of a product page
      optimization test</label
    >
    <p class="indent">
      <label for="experimentName">Test name</label>
      <input id="experimentName" name="experimentName" maxlength="100" value="${field(body, 'experimentName')}" />
      <label for="treatmentName">Treatment name</label>
      <input id="treatmentName" name="treatmentName" maxlength="100" value="${field(body, 'treatmentName')}" />
    </p>
    <p class="hint">A page or test is found by its name, else made when you approve. Nothing is sent to App Review or started.</p>
  </fieldset>`;
}

/** The target the form names; a name left empty is the field's error. */
export function targetFromForm(body: unknown): VariantTarget | undefined {
  const kind = field(body, 'target');
  const name = (f: string) => {
    const v = field(body, f).trim();
    if (!v) throw validationFailed([{ field: f, message: 'give a name' }]);
    return v;
  };
  if (kind === 'custom-product-page') return { kind, name: name('pageName') };
  if (kind === 'experiment-treatment') return { kind, experiment: { name: name('experimentName') }, treatment: name('treatmentName') };
  return undefined;
}

type Publication = NonNullable<Awaited<ReturnType<typeof viewPublication>>>;

/** A published variant's way to App Review, or where it went. */
export function submitSection(ctx: PageContext, p: Publication): Html | '' {
  if (p.target.kind === 'product-page' || p.status !== 'published') return '';
  if (p.submission) return html`<p class="card">Sent to App Review ${when(p.submission.submittedAt)}.</p>`;
  return html`<form method="post" action="/publications/${p.id}/submit" class="card">
    ${csrfField(ctx)}
    <p>
      The ${p.target.kind === 'custom-product-page' ? 'custom product page' : 'test'} is ready in App Store Connect, not yet reviewed.
      ${p.variant?.url ? html`Its page: <a href="${safeUrl(p.variant.url)}" rel="noopener noreferrer">${p.variant.url}</a>.` : ''}
    </p>
    <button type="submit">Submit for review</button>
  </form>`;
}

export function variantPages(app: FastifyInstance, dash: Dashboard): void {
  const { db, clock } = dash.services;
  const refused = (reply: FastifyReply, e: unknown) => {
    if (isProblem(e) && e.status < 500) throw new PageError(e.status, 'The store said no', e.detail);
    throw e;
  };

  app.post('/publications/:id/submit', async (request, reply) => {
    const session = requireSession(request);
    const { id } = request.params as { id: string };
    if (!isId('pub', id)) throw notFound();
    try {
      await submitPublication(db, () => publishingOf(dash), session.user.accountId, id, clock());
    } catch (e) {
      if (isProblem(e) && e.code === 'publication_not_found') throw notFound();
      return refused(reply, e);
    }
    return seeOther(reply, `/publications/${id}`);
  });

  app.post('/experiments/:id/start', async (request, reply) => {
    const session = requireSession(request);
    const { id } = request.params as { id: string };
    const appId = (request.query as { app?: string }).app ?? '';
    try {
      await startExperiment(db, () => publishingOf(dash), session.user.accountId, id);
    } catch (e) {
      if (isProblem(e) && e.code === 'experiment_not_found') throw notFound();
      return refused(reply, e);
    }
    return seeOther(reply, isId('app', appId) ? `/apps/${appId}#variants` : '/apps');
  });
}
