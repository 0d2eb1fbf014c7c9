/** Sets: create one (from an app's page), watch it run, see its slides, download its ZIP. */
import { refusalFixes, SET_FIXES } from './fixes.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isId } from '../../core/ids.ts';
import { findJobSummary } from '../../sets/list.ts';
import type { PublicJob } from '../../sets/jobs.ts';
import { createScreenshotSet } from '../../sets/create.ts';
import { isProblem } from '../../core/problem.ts';
import { field, notFound, pageContext, requireSession, seeOther, sendPage, type Dashboard } from '../context.ts';
import { html, safeUrl } from '../html.ts';
import { page, statusBadge, STATUS_LABEL, when } from '../layout.ts';
import { pictureLinks } from '../../http/picture-links.ts';
import { appPage } from './apps.ts';
import { parseSetForm, type SetFormValues } from './set-form.ts';
import { deviceName, forPeople, plural, voiceName } from '../names.ts';
import { editorRoutes, editorSection, initialState, localePane, localeSets, localeTabs, type RenderSetPage } from './editor.ts';
import { listScreens } from '../../screens/screens.ts';
import { publishLink } from './publications.ts';
import { DEVICES } from '../../core/devices.ts';
import { type Slide } from '../../core/set.ts';

type DashboardJob = PublicJob;

const HEX = /^#[0-9A-Fa-f]{6}$/;
const color = (c: string | undefined, fallback: string) => (c && HEX.test(c) ? c : fallback);
const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

/** Greedy word wrap by an average glyph width: good enough for a preview, not for the render. */
function wrap(text: string, perLine: number, maxLines: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(/\s+/)) {
    const last = lines.at(-1);
    if (last !== undefined && (last + ' ' + word).length <= perLine) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines.length > maxLines
    ? [
        ...lines.slice(0, maxLines - 1),
        `${lines
          .slice(maxLines - 1)
          .join(' ')
          .slice(0, perLine - 1)}…`,
      ]
    : lines;
}

/**
 * Before pictures exist: the slide's plan drawn as SVG, with its colours and caption. Colours go
 * in presentation attributes, not inline styles, so the strict CSP holds.
 */
function planPreview(slide: Slide, width: number, height: number) {
  const [c1, c2] = [color(slide.background.colors[0], '#333333'), color(slide.background.colors.at(-1), '#111111')];
  const fg = color(slide.textColor, '#FFFFFF');
  const id = `g${slide.index}`;
  const size = Math.round(width * 0.085);
  const headline = wrap(slide.headline, Math.floor((width * 0.86) / (size * 0.56)), 3);
  const subSize = Math.round(size * 0.55);
  const sub = slide.subheadline ? wrap(slide.subheadline, Math.floor((width * 0.86) / (subSize * 0.52)), 3) : [];
  const top = height * 0.07;
  return html`<svg viewBox="0 0 ${width} ${height}" role="img" aria-label="Slide ${slide.index} plan: ${slide.headline}" class="slide">
    <defs>
      <linearGradient id="${id}" x1="0" y1="0" x2="0" y2="1">
        <stop offset="0" stop-color="${c1}" />
        <stop offset="1" stop-color="${c2}" />
      </linearGradient>
    </defs>
    <rect width="${width}" height="${height}" fill="url(#${id})" />
    <text
      x="${width / 2}"
      y="${top}"
      fill="${fg}"
      font-family="system-ui, sans-serif"
      font-weight="700"
      font-size="${size}"
      text-anchor="middle"
    >
      ${headline.map((line, i) => html`<tspan x="${width / 2}" dy="${i === 0 ? size : size * 1.15}">${line}</tspan>`)}
    </text>
    ${sub.length ? html`<text x="${width / 2}" y="${top + size * 1.15 * headline.length + subSize * 0.6}" fill="${fg}" fill-opacity="0.85" font-family="system-ui, sans-serif" font-size="${subSize}" text-anchor="middle">${sub.map((line, i) => html`<tspan x="${width / 2}" dy="${i === 0 ? subSize : subSize * 1.2}">${line}</tspan>`)}</text>` : ''}
    <rect
      x="${width * 0.16}"
      y="${height * 0.36}"
      width="${width * 0.68}"
      height="${height * 0.6}"
      rx="${width * 0.07}"
      fill="none"
      stroke="${fg}"
      stroke-opacity="0.55"
      stroke-width="${width * 0.012}"
    />
    <text
      x="${width / 2}"
      y="${height * 0.66}"
      fill="${fg}"
      fill-opacity="0.7"
      font-family="system-ui, sans-serif"
      font-size="${subSize}"
      text-anchor="middle"
    >
      ${slide.screenshotUrl ? 'store screenshot' : 'no screenshot'}
    </text>
  </svg>`;
}

function gallery(job: DashboardJob, slides: Slide[]) {
  const result = job.result!;
  return html`<ol class="gallery">
    ${slides.map((slide) => {
      const image = slide.image && safeUrl(slide.image.url);
      return html`<li>
        <figure>
          ${image ? html`<a href="${image}"><img src="${image}" alt="Slide ${slide.index}: ${slide.headline}" width="${slide.image!.width}" height="${slide.image!.height}" loading="lazy" /></a>` : planPreview(slide, result.width, result.height)}
          <figcaption>
            <span class="muted">${slide.index} · ${slide.role}</span><br /><strong>${slide.headline}</strong
            >${slide.subheadline ? html`<br />${slide.subheadline}` : ''} <br /><span class="swatches"
              >${slide.background.colors.map((c) => html`<code>${c}</code> `)}text <code>${slide.textColor}</code></span
            >
          </figcaption>
        </figure>
      </li>`;
    })}
  </ol>`;
}

function liveStatus(job: DashboardJob) {
  const p = job.progress ?? null;
  return html`<div class="card live" data-live="/sets/${job.id}/status">
    <p role="status" aria-live="polite">
      <span data-live-status>${STATUS_LABEL[job.status]}</span
      ><span data-live-progress>${p ? ` · ${p.done} of ${plural(p.total, 'slide')}` : ''}</span>
    </p>
    <progress data-live-bar max="${p?.total ?? 1}" ${p ? html` value="${p.done}"` : ''}></progress>
    <p class="hint">This page updates by itself. Without JavaScript, reload it.</p>
  </div>`;
}

async function loadSet(request: FastifyRequest, dash: Dashboard) {
  const session = requireSession(request);
  const { id } = request.params as { id: string };
  if (!isId('job', id)) throw notFound();
  // The same reader the API's GET job uses, so both show the same job, pictures signed alike.
  const [found, summary] = await Promise.all([
    dash.services.jobs.get(session.user.accountId, id, pictureLinks(dash.services, request)),
    findJobSummary(dash.services.db, session.user.accountId, id),
  ]);
  if (!found || !summary) throw notFound();
  return { job: found, summary };
}

export function setPages(app: FastifyInstance, dash: Dashboard): void {
  const { db, clock, accountViews, notifier } = dash.services;

  app.post('/apps/:id/sets', async (request, reply) => {
    const session = requireSession(request);
    const appId = (request.params as { id: string }).id;
    const values: SetFormValues = {
      device: field(request.body, 'device'),
      captionStyle: field(request.body, 'captionStyle'),
      captionLength: field(request.body, 'captionLength'),
      narrativeId: field(request.body, 'narrativeId'),
      count: field(request.body, 'count').trim(),
      theme: field(request.body, 'theme'),
      captions: field(request.body, 'captions'),
    };
    const parsed = parseSetForm(appId, values);
    if ('errors' in parsed)
      return appPage(request, reply, dash, appId, { values, errors: parsed.errors, notice: 'Please correct the fields below.' }, 400);
    const once = field(request.body, 'once');
    try {
      const { body } = await createScreenshotSet(db, session.user.accountId, parsed.request, {
        now: clock(),
        idempotencyKey: once ? `dashboard:${once.slice(0, 64)}` : undefined,
        onCharged: (id) => accountViews.invalidate(id),
        notifier,
      });
      return seeOther(reply, `/sets/${body.jobId}`);
    } catch (e) {
      // An unknown or foreign app stays a plain 404; a refused charge is said on the app's page.
      if (isProblem(e) && e.code === 'app_not_found') throw notFound();
      if (!isProblem(e) || e.status >= 500) throw e;
      const fixes = e.code === 'cannot_fill_set' ? (e.extensions.fixes as string[] | undefined) : undefined;
      return appPage(request, reply, dash, appId, { values, errors: [], notice: forPeople(e.detail), fixes }, e.status);
    }
  });

  const setPage: RenderSetPage = async (request, reply, edit, status) => {
    const { job, summary } = await loadSet(request, dash);
    const ctx = pageContext(request, reply, dash);
    const r = summary.request;
    // A succeeded set is edited in place, in each of its locales; its screens to choose from are those of its device.
    const editable = job.status === 'succeeded' && !!job.result;
    const shown = (request.query as { locale?: unknown }).locale;
    const state = job.result ? (edit?.state ?? initialState(job, r, typeof shown === 'string' ? shown : undefined)) : null;
    const family = DEVICES[r.device].family;
    // The slides the set has, not the number asked for: a sparse listing gives fewer (see `short` below).
    const slideCount = job.result?.slides.length ?? r.count;
    const short =
      job.result && slideCount < r.count && !r.revision
        ? html`<div class="notice error" role="status">
            <p>
              This set has ${plural(slideCount, 'slide')}, not the ${r.count} asked for: the listing says too little for more distinct
              captions (the warnings below say what was missing).
            </p>
            <p>Rewrite the captions below and save them as a revision (free), or:</p>
          </div>
          ${refusalFixes(summary.appId, SET_FIXES)}`
        : '';
    const screens = editable
      ? (await listScreens(db, requireSession(request).user.accountId, summary.appId)).filter((x) => x.family === family)
      : [];
    const archive = job.result?.archive && safeUrl(job.result.archive.url);
    return sendPage(
      reply,
      page(ctx, {
        title: `Set for ${summary.appName}`,
        body: html`<p class="meta">
            ${statusBadge(job.status)} <a href="/apps/${summary.appId}">${summary.appName}</a> · ${deviceName(r.device)} ·
            ${voiceName(r.captionStyle)}, ${r.captionLength} · ${plural(slideCount, 'slide')}${r.narrativeId ? ` (${r.narrativeId})` : ''} ·
            created ${when(job.createdAt)} · <code>${job.id}</code>
            ${job.parentJobId ? html` · revision of <a href="/sets/${job.parentJobId}"><code>${job.parentJobId.slice(-8)}</code></a>` : ''}
          </p>
          ${job.status === 'succeeded' ? publishLink(job.id) : ''}
          ${short} ${job.status === 'queued' || job.status === 'running' ? liveStatus(job) : ''}
          ${
            job.status === 'failed'
              ? html`<div class="notice error" role="alert">
                  <p>${job.error?.message ?? 'The set failed.'}</p>
                  <p>The credits it cost were refunded.</p>
                </div>`
              : ''
          }
          ${
            job.result
              ? html`${archive ? html`<p><a class="button" href="${archive}" download>Download ZIP</a> <span class="muted">${mb(job.result.archive!.bytes)}, laid out for fastlane deliver and supply</span></p>` : html`<p class="hint">The plan of this set: captions, colours and layout for each slide.</p>`}
                ${localeTabs(job.id, state!)}
                ${localeSets(job).map(({ locale, slides }, k) => {
                  const warnings = k === 0 ? job.result!.warnings : (job.result!.locales?.[k]?.warnings ?? []);
                  return localePane(
                    state!,
                    locale,
                    html`${
                      warnings.length
                        ? html`<ul class="warnings">
                          ${warnings.map((w) => html`<li>${forPeople(w)}</li>`)}
                        </ul>`
                        : ''
                    }
                    ${gallery(job, slides)}`,
                  );
                })}
                ${editable ? editorSection(ctx, job, state!, screens, edit?.errors) : ''}`
              : ''
          }`,
      }),
      status,
    );
  };
  app.get('/sets/:id', (request, reply) => setPage(request, reply, null, 200));
  editorRoutes(app, dash, setPage);

  // Live status for the set page's script, polled every second: one read of the job, scoped to the
  // session's account, without the page's summary or signed links.
  app.get('/sets/:id/status', async (request, reply) => {
    const session = requireSession(request);
    const { id } = request.params as { id: string };
    const job = isId('job', id) ? await dash.services.jobs.get(session.user.accountId, id) : null;
    if (!job) throw notFound();
    return reply.type('application/json; charset=utf-8').send({ status: job.status, progress: job.progress ?? null });
  });
}
