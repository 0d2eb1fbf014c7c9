/**
 * Publishing a set: pick a connection (from the set's page), read the plan as a table with the
 * set's slides, approve it, and watch it go live. The same domain calls as POST /publications,
 * GET /publications/{id} and POST /publications/{id}/approve; the page's script only polls a JSON
 * view of the status, and without it the page shows the state as of its load and a refresh link.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isId } from '../../core/ids.ts';
import { findJobSummary, type JobSummary } from '../../sets/list.ts';
import { DEVICES } from '../../core/devices.ts';
import { listJobFiles, slideFileName, type JobFile } from '../../sets/files.ts';
import type { Slide } from '../../core/set.ts';
import { isProblem } from '../../core/problem.ts';
import { getConnection, listConnections, type StoreConnection } from '../../publishing/connections.ts';
import { createPublication } from '../../publishing/create.ts';
import { approve, viewPublication, type PublicationStatus } from '../../publishing/publications.ts';
import { field, notFound, pageContext, PageError, requireSession, seeOther, sendPage, type Dashboard } from '../context.ts';
import { html, safeUrl } from '../html.ts';
import { csrfField, page, when, type PageContext } from '../layout.ts';
import { deviceName, plural } from '../names.ts';
import { connectionLabel, publishingOf, STORE_NAME } from './connections.ts';
import { submitSection, targetFieldset, targetFromForm } from './variants.ts';

/** Where on the store, when not the product page. */
const targetLabel = (p: Publication) =>
  p.target.kind === 'custom-product-page'
    ? html`, custom product page <strong>${p.target.name}</strong>`
    : p.target.kind === 'experiment-treatment'
      ? html`, treatment <strong>${p.target.treatment}</strong> of the test <strong>${p.target.experiment.name}</strong>`
      : '';

type Publication = NonNullable<Awaited<ReturnType<typeof viewPublication>>>;
type PlanItem = Publication['plan']['items'][number];

export const PUBLICATION_STATUS: Record<PublicationStatus, { label: string; badge: string }> = {
  planning: { label: 'Planning', badge: 'queued' },
  awaiting_approval: { label: 'Waiting for your approval', badge: 'queued' },
  applying: { label: 'Publishing', badge: 'running' },
  verifying: { label: 'Checking the store', badge: 'running' },
  published: { label: 'Published', badge: 'succeeded' },
  failed: { label: 'Failed', badge: 'failed' },
};
/** Statuses that change by themselves: the page polls while in one of them. */
const MOVING: ReadonlySet<string> = new Set(['planning', 'applying', 'verifying']);

const ACTION_LABEL: Record<PlanItem['action'], string> = { keep: 'Kept', upload: 'Upload', reorder: 'Move', delete: 'Delete' };

function itemLabel(item: PlanItem, status: PublicationStatus): string {
  if (item.action === 'keep') return 'Nothing to do';
  if (item.state === 'failed') return 'Failed';
  if (item.state === 'done') return 'Done';
  if (status === 'awaiting_approval' || status === 'planning') return 'Not started';
  if (status === 'failed') return 'Not done';
  return { pending: 'Waiting', reserved: 'Uploading', uploaded: 'Uploaded', committed: 'Processing' }[item.state] ?? item.state;
}

/** A kept image is 'done' from the start; it is shown as nothing to do, not as progress. */
const stateOf = (item: PlanItem): string => (item.action === 'keep' ? 'keep' : item.state);

const SLOT_LABEL: Record<string, string> = {
  APP_IPHONE_67: 'iPhone 6.9″ and 6.7″',
  APP_IPHONE_65: 'iPhone 6.5″',
  APP_IPHONE_61: 'iPhone 6.3″ and 6.1″',
  APP_IPAD_PRO_3GEN_129: 'iPad 13″ and 12.9″',
  phoneScreenshots: 'Phone',
  sevenInchScreenshots: '7-inch tablet',
  tenInchScreenshots: '10-inch tablet',
  featureGraphic: 'Feature graphic',
};

/** Work still to do, as the progress bar counts it: everything but what is kept. */
function progressOf(p: Publication) {
  const work = p.plan.items.filter((i) => i.action !== 'keep');
  const done = work.filter((i) => i.state === 'done').length;
  // Before approval nothing is under way: the Approve form says what would change.
  const started = p.approvedAt !== null && work.length > 0;
  return { done, total: work.length, text: started ? `${done} of ${plural(work.length, 'change')} done` : '' };
}

/** What the page's script polls: the status and each item's state, labelled as the page labels them. */
export function statusView(p: Publication) {
  return {
    status: p.status,
    label: PUBLICATION_STATUS[p.status].label,
    badge: PUBLICATION_STATUS[p.status].badge,
    progress: progressOf(p),
    error: p.error?.message ?? null,
    items: p.plan.items.map((i) => ({ state: stateOf(i), label: itemLabel(i, p.status), error: i.error })),
  };
}

function thumbnail(dash: Dashboard, jobId: string, slides: Slides, item: PlanItem) {
  const f = item.file ? slides.files.get(item.file) : undefined;
  if (!f)
    return item.action === 'delete'
      ? html`<span class="muted">Image now on the store${item.remoteId ? html` <code class="small">${item.remoteId.slice(0, 8)}</code>` : ''}</span>`
      : html`<span class="muted">${item.file}</span>`;
  const caption = slides.captions.get(f.name);
  // Same origin: the API's signed picture URL, as the set's gallery uses, without the API key.
  const src = safeUrl(dash.services.signer.sign(`${dash.basePath}/public/v1/jobs/${jobId}/${f.name}`, dash.services.clock()));
  return html`<span class="slide-cell"
    ><img class="thumb" src="${src}" alt="" width="${f.width ?? 60}" height="${f.height ?? 130}" loading="lazy" /><span
      >${caption ?? f.name}</span
    ></span
  >`;
}

/** The set's pictures by file name, and each one's caption from the set's plan. */
interface Slides {
  files: Map<string, JobFile>;
  captions: Map<string, string>;
}

async function slidesOf(dash: Dashboard, accountId: string, jobId: string): Promise<Slides> {
  const [files, job] = await Promise.all([listJobFiles(dash.services.db, jobId), dash.services.jobs.get(accountId, jobId)]);
  const captions = new Map<string, string>();
  const add = (slides: Slide[], locale: string | null) => slides.forEach((x) => captions.set(slideFileName(x.index, locale), x.headline));
  if (job?.result?.slides) add(job.result.slides, null);
  job?.result?.locales?.forEach((l, i) => i > 0 && add(l.slides, l.locale));
  return { files: new Map(files.map((f) => [f.name, f])), captions };
}

function planTables(dash: Dashboard, p: Publication, slides: Slides) {
  const groups = new Map<string, { locale: string; slot: string; rows: { item: PlanItem; index: number }[] }>();
  p.plan.items.forEach((item, index) => {
    const key = `${item.locale}\u0000${item.slot}`;
    if (!groups.has(key)) groups.set(key, { locale: item.locale, slot: item.slot, rows: [] });
    groups.get(key)!.rows.push({ item, index });
  });
  // In each slot the images as they will stand, then what goes.
  const order = (r: { item: PlanItem }) => r.item.position ?? Number.MAX_SAFE_INTEGER;
  return [...groups.values()].map(
    (g, n) => html`<div class="table-wrap">
      <table class="stack plan">
        <caption id="slot-${n}">${g.locale} · ${SLOT_LABEL[g.slot] ?? g.slot}</caption>
        <thead>
          <tr>
            <th scope="col">Place</th>
            <th scope="col">Slide</th>
            <th scope="col">Plan</th>
            <th scope="col">Progress</th>
          </tr>
        </thead>
        <tbody>
          ${[...g.rows]
            .sort((a, b) => order(a) - order(b))
            .map(
              ({ item, index }) => html`<tr class="plan-${item.action}">
                <td data-label="Place" class="num">${item.position ?? '—'}</td>
                <td data-label="Slide">${thumbnail(dash, p.jobId, slides, item)}</td>
                <td data-label="Plan"><span class="action ${item.action}">${ACTION_LABEL[item.action]}</span></td>
                <td data-label="Progress">
                  <span data-item="${index}" data-state="${stateOf(item)}">${itemLabel(item, p.status)}</span>
                  <span class="field-error" data-item-error="${index}">${item.error ?? ''}</span>
                </td>
              </tr>`,
            )}
        </tbody>
      </table>
    </div>`,
  );
}

function publicationBody(
  ctx: PageContext,
  dash: Dashboard,
  p: Publication,
  set: JobSummary | null,
  connection: StoreConnection | null,
  slides: Slides,
) {
  const s = PUBLICATION_STATUS[p.status];
  const prog = progressOf(p);
  const moving = MOVING.has(p.status);
  const counts = p.plan;
  return html`<p class="meta">
      ${set ? html`<a href="/sets/${set.id}">${set.appName}, ${deviceName(set.request.device)}</a> ·` : ''} ${STORE_NAME[p.store]}
      <code>${p.storeAppId}</code>${targetLabel(p)} · ${connection ? connectionLabel(connection) : html`<span class="muted">connection deleted</span>`} ·
      created ${when(p.createdAt)} · <code>${p.id}</code>
    </p>
    <div class="card live"${moving ? html` data-publication="/publications/${p.id}/status" data-status="${p.status}" data-items="${p.plan.items.length}"` : ''}>
      <p role="status" aria-live="polite">
        <span class="badge ${s.badge}" data-pub-badge>${s.label}</span>
        <span data-pub-progress>${prog.text}</span>
      </p>
      ${p.status === 'applying' || p.status === 'verifying' ? html`<progress data-pub-bar max="${Math.max(prog.total, 1)}" value="${prog.done}"></progress>` : ''}
      ${moving ? html`<p class="hint">This page updates by itself. Without JavaScript, <a href="/publications/${p.id}">refresh it</a>.</p>` : ''}
      ${p.status === 'planning' ? html`<p class="hint">Reading what the store holds now, to plan only what changes.</p>` : ''}
      ${p.status === 'published' ? html`<p>The store page holds this set, checked image by image. Finished ${when(p.finishedAt)}.</p>` : ''}
    </div>
    ${p.error ? html`<div class="notice error" role="alert"><p><strong>${p.error.code}</strong>: ${p.error.message}</p></div>` : ''}
    ${submitSection(ctx, p)}
    ${
      p.status === 'awaiting_approval'
        ? html`<form method="post" action="/publications/${p.id}/approve" class="card approve">
            ${csrfField(ctx)}
            <p>
              <strong>${plural(counts.upload, 'upload')}, ${plural(counts.reorder, 'move')}, ${plural(counts.delete, 'deletion')}</strong>;
              ${plural(counts.keep, 'image')} kept as ${counts.keep === 1 ? 'it is' : 'they are'}. Nothing on the store changes until you
              approve. Planned ${when(p.plannedAt)}; a plan older than an hour, or a store that changed since, is planned again first.
            </p>
            <button type="submit">Approve and publish</button>
          </form>`
        : ''
    }
    ${
      p.plan.items.length
        ? html`<section aria-labelledby="the-plan">
            <h2 id="the-plan">The plan</h2>
            <p class="hint">Per store locale and screenshot slot: each image as it will stand, and what happens to it.</p>
            ${planTables(dash, p, slides)}
          </section>`
        : ''
    }
    <script src="/assets/publication.js" defer></script>`;
}

async function publicationPage(request: FastifyRequest, reply: FastifyReply, dash: Dashboard) {
  const session = requireSession(request);
  const { id } = request.params as { id: string };
  const { db } = dash.services;
  const p = isId('pub', id) ? await viewPublication(db, session.user.accountId, id) : null;
  if (!p) throw notFound();
  const [set, connection, slides] = await Promise.all([
    findJobSummary(db, session.user.accountId, p.jobId),
    p.connectionId ? getConnection(db, session.user.accountId, p.connectionId) : null,
    slidesOf(dash, session.user.accountId, p.jobId),
  ]);
  const ctx = pageContext(request, reply, dash);
  return sendPage(reply, page(ctx, { title: 'Publication', body: publicationBody(ctx, dash, p, set, connection, slides) }));
}

async function publishForm(request: FastifyRequest, reply: FastifyReply, dash: Dashboard, notice: string | null = null, status = 200) {
  const session = requireSession(request);
  const { id } = request.params as { id: string };
  const { db } = dash.services;
  const set = isId('job', id) ? await findJobSummary(db, session.user.accountId, id) : null;
  if (!set) throw notFound();
  const store = DEVICES[set.request.device]?.store as StoreConnection['store'] | undefined;
  const [connections, earlier] = await Promise.all([
    listConnections(db, session.user.accountId),
    db.query<{ id: string; status: PublicationStatus; created_at: Date }>(
      `SELECT id, status, created_at FROM publications WHERE job_id = $1 AND account_id = $2 ORDER BY created_at DESC, id DESC LIMIT 20`,
      [set.id, session.user.accountId],
    ),
  ]);
  const usable = connections.filter((c) => c.store === store);
  const ctx = pageContext(request, reply, dash);
  const chosen = field(request.body, 'connectionId') || usable[0]?.id;
  const body = html`<p class="meta">
      <a href="/sets/${set.id}">${set.appName}, ${deviceName(set.request.device)}</a> · <code>${set.id}</code>
    </p>
    ${
      set.status !== 'succeeded'
        ? html`<p>Only a finished set can be published; this one is ${set.status}.</p>`
        : !store || !usable.length
          ? html`<p>
              This set is for ${store ? STORE_NAME[store] : 'no store'}, and there is no ${store ? STORE_NAME[store] : ''} connection yet.
              <a href="/connections">Add one on Store connections</a>, then come back.
            </p>`
          : html`<form method="post" action="/sets/${set.id}/publish" class="card narrow">
              ${csrfField(ctx)}
              <fieldset>
                <legend>Publish to</legend>
                ${usable.map(
                  (c) =>
                    html`<label class="choice"
                      ><input type="radio" name="connectionId" value="${c.id}" ${c.id === chosen ? html`checked` : ''} required />
                      ${connectionLabel(c)}</label
                    >`,
                )}
              </fieldset>
              ${store === 'app-store' ? targetFieldset(request.body) : ''}
              <p class="hint">
                shotgen first reads the store page and shows you the plan: what is kept, uploaded, moved and deleted. Nothing on the store
                changes until you approve it. Each set locale goes to the store locale of the same name (<code>en</code> → <code>en-US</code>).
              </p>
              <button type="submit">Plan the publication</button>
            </form>`
    }
    ${
      earlier.rows.length
        ? html`<section aria-labelledby="earlier">
            <h2 id="earlier">Earlier publications of this set</h2>
            <ul>
              ${earlier.rows.map(
                (r) => html`<li><a href="/publications/${r.id}">${when(r.created_at)}</a> · ${PUBLICATION_STATUS[r.status].label}</li>`,
              )}
            </ul>
          </section>`
        : ''
    }`;
  return sendPage(reply, page(ctx, { title: 'Publish this set', notice: notice ? { kind: 'error', text: notice } : null, body }), status);
}

/** The set page's way in (the set page itself belongs to the editor). */
export const publishLink = (jobId: string) =>
  html`<p><a class="button secondary" href="/sets/${jobId}/publish">Publish to the store…</a></p>`;

export function publicationPages(app: FastifyInstance, dash: Dashboard): void {
  const { db, clock } = dash.services;

  app.get('/sets/:id/publish', (request, reply) => publishForm(request, reply, dash));

  app.post('/sets/:id/publish', async (request, reply) => {
    const session = requireSession(request);
    const p = publishingOf(dash);
    const { id } = request.params as { id: string };
    if (!isId('job', id)) throw notFound();
    try {
      const target = targetFromForm(request.body);
      const pubId = await createPublication(db, session.user.accountId, {
        jobId: id,
        connectionId: field(request.body, 'connectionId'),
        ...(target ? { target } : {}),
      });
      await p.advance(pubId);
      return seeOther(reply, `/publications/${pubId}`);
    } catch (error) {
      if (isProblem(error) && error.code === 'job_not_found') throw notFound();
      if (!isProblem(error) || error.status >= 500) throw error;
      const errors = (error.extensions.errors as { message: string }[] | undefined) ?? [];
      return publishForm(request, reply, dash, errors.length ? errors.map((e) => e.message).join('; ') : error.detail, error.status);
    }
  });

  app.get('/publications/:id', (request, reply) => publicationPage(request, reply, dash));

  app.post('/publications/:id/approve', async (request, reply) => {
    const session = requireSession(request);
    const { id } = request.params as { id: string };
    if (!isId('pub', id)) throw notFound();
    const p = publishingOf(dash);
    try {
      if (await approve(db, session.user.accountId, id, clock())) await p.advance(id);
    } catch (error) {
      if (isProblem(error) && error.code === 'publication_not_found') throw notFound();
      if (isProblem(error) && error.code === 'publication_not_ready')
        throw new PageError(409, 'Still planning', 'The plan is not ready yet. Go back, wait for it to appear, and approve it then.');
      throw error;
    }
    return seeOther(reply, `/publications/${id}`);
  });

  // The page's script polls this every second or so: one read, scoped to the session's account.
  app.get('/publications/:id/status', async (request, reply) => {
    const session = requireSession(request);
    const { id } = request.params as { id: string };
    const p = isId('pub', id) ? await viewPublication(db, session.user.accountId, id) : null;
    if (!p) throw notFound();
    return reply.type('application/json; charset=utf-8').send(statusView(p));
  });
}
