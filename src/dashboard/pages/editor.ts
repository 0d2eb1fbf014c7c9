/**
 * The set page as an editor: each slide's caption and screen in a form, the order, the theme and the
 * colours, saved as a revision (src/sets/revisions/). It is a plain form first: up/down buttons post it
 * back in the new order and "Save as revision" creates the revision. /assets/editor.js adds
 * dragging and a live preview (POST /sets/:id/preview, the same renderer as the API's previews).
 *
 * A set in several locales is edited in all of them at once: the form holds every locale's captions
 * (the shown locale's in view, the others hidden), so saving sends each caption edit with its
 * locale and the shared changes (order, screens, theme, colours) once.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { THEME_IDS, THEMES } from '../../core/themes.ts';
import { isId } from '../../core/ids.ts';
import type { PublicJob } from '../../sets/jobs.ts';
import { MAX_COUNT, type Slide } from '../../core/set.ts';
import { isProblem, type FieldError } from '../../core/problem.ts';
import { slideEditWarnings } from '../../sets/revisions/check.ts';
import { createRevision, themeOf } from '../../sets/revisions/revisions.ts';
import type { AddedSlide, RevisionRequest, SlideChanges, SlideEdit } from '../../sets/revisions/types.ts';
import type { Screen } from '../../screens/screens.ts';
import { field, notFound, requireSession, type Dashboard } from '../context.ts';
import { html, safeUrl, type Html } from '../html.ts';
import { csrfField, type PageContext } from '../layout.ts';
import { forPeople } from '../names.ts';
import type { StoredPlanRequest } from '../../sets/jobs.ts';
import { describeLocale } from '../../core/locales.ts';

export interface EditorState {
  /** The parent's slide numbers in the order shown. */
  order: number[];
  /** The set's locales in order; [''] for a set in one locale. */
  locales: string[];
  /** The locale whose captions are in view. */
  shown: string;
  /** Captions by captionKey(): the form's field names end with it. */
  headline: Map<string, string>;
  subheadline: Map<string, string>;
  screen: Map<number, string>;
  removed: Set<number>;
  /** A new slide of the user's own caption, added after the others when its headline is given. */
  added: { headline: string; subheadline: string; screen: string };
  theme: string;
  colors: { bg1: string; bg2: string; text: string };
}

const HEX = /^#[0-9A-Fa-f]{6}$/;

/** Slide k's captions in a locale: `2` in the first (or only) locale, `2-de-DE` in another. */
export const captionKey = (locales: string[], k: number, locale: string) => (locale === locales[0] ? String(k) : `${k}-${locale}`);

/** Each locale of the set with its slides, the first locale's being the set's own. */
export function localeSets(job: PublicJob): { locale: string; slides: Slide[] }[] {
  const r = job.result!;
  return r.locales?.length
    ? r.locales.map((l, i) => ({ locale: l.locale, slides: i === 0 ? r.slides : l.slides }))
    : [{ locale: '', slides: r.slides }];
}

export function initialState(job: PublicJob, request: StoredPlanRequest, shown?: string): EditorState {
  const sets = localeSets(job);
  const locales = sets.map((s) => s.locale);
  const slides = sets[0].slides;
  const first = slides[0];
  const captions = sets.flatMap(({ locale, slides }) => slides.map((s) => ({ key: captionKey(locales, s.index, locale), s })));
  return {
    order: slides.map((s) => s.index),
    locales,
    shown: shown && locales.includes(shown) ? shown : locales[0],
    headline: new Map(captions.map(({ key, s }) => [key, s.headline])),
    subheadline: new Map(captions.map(({ key, s }) => [key, s.subheadline ?? ''])),
    screen: new Map(slides.map((s) => [s.index, s.screenId ?? ''])),
    removed: new Set(),
    added: { headline: '', subheadline: '', screen: '' },
    theme: themeOf({ request, result: job.result }),
    colors: { bg1: first.background.colors[0], bg2: first.background.colors.at(-1)!, text: first.textColor },
  };
}

/** The form as posted, over the set's own values; a `move` ("2:up") is applied to the order. */
export function postedState(body: unknown, base: EditorState): EditorState {
  const n = base.order.length;
  const order = field(body, 'order')
    .split(',')
    .map(Number)
    .filter((k) => Number.isInteger(k) && k >= 1 && k <= n);
  const valid = order.length === n && new Set(order).size === n;
  const shown = field(body, 'locale');
  const state: EditorState = {
    ...base,
    order: valid ? order : base.order,
    shown: base.locales.includes(shown) ? shown : base.shown,
    removed: new Set(),
  };
  for (const k of base.order) {
    for (const key of base.locales.map((l) => captionKey(base.locales, k, l))) {
      state.headline.set(key, field(body, `headline-${key}`));
      state.subheadline.set(key, field(body, `subheadline-${key}`));
    }
    state.screen.set(k, field(body, `screen-${k}`) || (base.screen.get(k) ?? ''));
    if (field(body, `remove-${k}`)) state.removed.add(k);
  }
  state.added = {
    headline: field(body, 'add-headline'),
    subheadline: field(body, 'add-subheadline'),
    screen: isId('scr', field(body, 'add-screen')) ? field(body, 'add-screen') : '',
  };
  state.theme = (THEME_IDS as readonly string[]).includes(field(body, 'theme')) ? field(body, 'theme') : base.theme;
  for (const c of ['bg1', 'bg2', 'text'] as const) if (HEX.test(field(body, c))) state.colors[c] = field(body, c).toUpperCase();
  const [moved, dir] = field(body, 'move').split(':');
  const at = state.order.indexOf(Number(moved));
  const to = dir === 'up' ? at - 1 : at + 1;
  if (at >= 0 && to >= 0 && to < n) [state.order[at], state.order[to]] = [state.order[to], state.order[at]];
  return state;
}

function captionChanges(s: Slide, state: EditorState, key: string): SlideChanges {
  const c: SlideChanges = {};
  const headline = (state.headline.get(key) ?? '').trim();
  const sub = (state.subheadline.get(key) ?? '').trim();
  if (headline !== s.headline) c.headline = headline;
  if (sub !== (s.subheadline ?? '')) c.subheadline = sub || null;
  return c;
}

/**
 * What changed from the set, as a revision; `edited` maps the request's slide edits back to their
 * captionKey(). In a set of several locales each caption edit names its locale, and a slide's
 * screen and colours go once, in an edit without one (every locale shares them).
 */
export function revisionOf(job: PublicJob, base: EditorState, state: EditorState): { request: RevisionRequest; edited: string[] } {
  const sets = localeSets(job);
  const slides = sets[0].slides;
  const several = sets.length > 1;
  const recolour =
    state.colors.bg1 !== base.colors.bg1.toUpperCase() ||
    state.colors.bg2 !== base.colors.bg2.toUpperCase() ||
    state.colors.text !== base.colors.text.toUpperCase();
  const edits: SlideEdit[] = [];
  const edited: string[] = [];
  for (const s of slides) {
    if (state.removed.has(s.index)) continue;
    const key = captionKey(state.locales, s.index, state.locales[0]);
    const c: SlideChanges = several ? {} : captionChanges(s, state, key);
    const screen = state.screen.get(s.index) ?? '';
    if (screen && screen !== (s.screenId ?? '')) c.screenId = screen;
    if (recolour) {
      c.background = { colors: [state.colors.bg1, state.colors.bg2] };
      c.textColor = state.colors.text;
    }
    if (!Object.keys(c).length) continue;
    edits.push({ index: s.index, ...c });
    edited.push(key);
  }
  if (several)
    for (const { locale, slides: own } of sets)
      for (const s of own) {
        if (state.removed.has(s.index)) continue;
        const key = captionKey(state.locales, s.index, locale);
        const c = captionChanges(s, state, key);
        if (!Object.keys(c).length) continue;
        edits.push({ index: s.index, locale, ...c });
        edited.push(key);
      }
  const kept = state.order.filter((k) => !state.removed.has(k));
  const headline = state.added.headline.trim();
  const sub = state.added.subheadline.trim();
  const add: AddedSlide[] = headline
    ? [{ headline, ...(sub ? { subheadline: sub } : {}), ...(state.added.screen ? { screenId: state.added.screen } : {}) }]
    : [];
  const reordered = kept.some((k, i) => k !== slides.filter((s) => !state.removed.has(s.index))[i]?.index);
  const request: RevisionRequest = {
    ...(edits.length ? { slides: edits } : {}),
    ...(state.removed.size ? { remove: [...state.removed] } : {}),
    ...(add.length ? { add } : {}),
    // An added slide is numbered after the parent's, and comes last.
    ...(reordered ? { order: [...kept, ...add.map((_, i) => slides.length + i + 1)] } : {}),
    ...(state.theme !== base.theme ? { theme: state.theme as RevisionRequest['theme'] } : {}),
  };
  return { request, edited };
}

/** A revision's field errors, named by the form's fields. */
function formErrors(errors: FieldError[], edited: string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of errors) {
    const m = /^slides\/(\d+)\/(headline|subheadline)/.exec(e.field);
    const added = /^add\/0\/(headline|subheadline|screenId)/.exec(e.field);
    if (m) out.set(`${m[2]}-${edited[Number(m[1])]}`, e.message);
    else if (added) out.set(`add-${added[1] === 'screenId' ? 'screen' : added[1]}`, e.message);
    else out.set('form', `${e.field ? `${e.field}: ` : ''}${e.message}`);
  }
  return out;
}

/** Shown only while its locale is: the set page's locale switcher (and /assets/editor.js) toggles these. */
export const localePane = (state: EditorState, locale: string, body: Html | string) =>
  state.locales.length > 1 ? html`<div data-locale-pane="${locale}" ${locale === state.shown ? '' : 'hidden'}>${body}</div>` : body;

function captionFields(state: EditorState, k: number, locale: string, errors: Map<string, string>): Html {
  const key = captionKey(state.locales, k, locale);
  const err = (name: string) => errors.get(`${name}-${key}`);
  const invalid = (name: string) => (err(name) ? html` aria-invalid="true" aria-describedby="${name}-${key}-error"` : '');
  const lang = locale ? html` lang="${locale}"` : '';
  const which = state.locales.length > 1 ? html` <span class="muted">in ${describeLocale(locale)}</span>` : '';
  return html`<label for="headline-${key}">Headline${which}</label>
    <input
      id="headline-${key}"
      name="headline-${key}"
      value="${state.headline.get(key) ?? ''}"
      maxlength="60"
      required
      data-field="headline"
      ${lang}
      ${invalid('headline')}
    />
    ${err('headline') ? html`<p class="field-error" id="headline-${key}-error">${err('headline')!}</p>` : ''}
    <label for="subheadline-${key}">Subheadline${which} <span class="muted">(optional)</span></label>
    <input
      id="subheadline-${key}"
      name="subheadline-${key}"
      value="${state.subheadline.get(key) ?? ''}"
      maxlength="140"
      data-field="subheadline"
      ${lang}
      ${invalid('subheadline')}
    />
    ${err('subheadline') ? html`<p class="field-error" id="subheadline-${key}-error">${err('subheadline')!}</p>` : ''}`;
}

function slideItem(
  sets: Map<string, Map<number, Slide>>,
  k: number,
  state: EditorState,
  screens: Screen[],
  errors: Map<string, string>,
  pos: number,
  count: number,
): Html {
  const slide = sets.get(state.locales[0])!.get(k)!;
  const rendered = (locale: string) => {
    const s = sets.get(locale)!.get(k)!;
    const image = s.image && safeUrl(s.image.url);
    const name = locale ? `, ${describeLocale(locale)},` : '';
    return image
      ? html`<img src="${image}" alt="Slide ${k}${name} as rendered" width="${s.image!.width}" height="${s.image!.height}" loading="lazy" />`
      : '';
  };
  return html`<li class="edit-slide" draggable="true" data-slide="${k}">
    <div class="edit-pictures">
      ${state.locales.map((l) => localePane(state, l, rendered(l)))}
      <img class="edit-preview" data-preview="${k}" alt="Preview of slide ${k} with your changes" hidden />
    </div>
    <fieldset>
      <legend>Slide ${k} <span class="muted">(now ${pos + 1} of ${count})</span></legend>
      ${state.locales.map((l) => localePane(state, l, captionFields(state, k, l, errors)))}
      <p class="hint" data-fit="${k}" aria-live="polite"></p>
      <ul class="warnings" data-warnings="${k}" aria-live="polite"></ul>
      ${
        screens.length
          ? html`<label for="screen-${k}">Screen${state.locales.length > 1 ? html` <span class="muted">(every language)</span>` : ''}</label>
              <select id="screen-${k}" name="screen-${k}" data-field="screenId">
                ${slide.screenId ? '' : html`<option value="">The listing's screenshot</option>`}
                ${screens.map((s, i) => html`<option value="${s.screenId}" ${state.screen.get(k) === s.screenId ? 'selected' : ''}>Screen ${i + 1} (${s.width}×${s.height})</option>`)}
              </select>`
          : ''
      }
      <div class="edit-actions">
        <button type="submit" name="move" value="${k}:up" class="secondary" ${pos === 0 ? 'disabled' : ''}>Move slide ${k} up</button>
        <button type="submit" name="move" value="${k}:down" class="secondary" ${pos === count - 1 ? 'disabled' : ''}>
          Move slide ${k} down
        </button>
        <label class="inline"
          ><input type="checkbox" name="remove-${k}" ${state.removed.has(k) ? 'checked' : ''} /> Leave slide ${k} out</label
        >
      </div>
    </fieldset>
  </li>`;
}

/** A slide of the user's own caption, added after the others on save (every language gets the same caption). */
function addedSlide(state: EditorState, screens: Screen[], errors: Map<string, string>, room: boolean): Html {
  if (!room) return html``;
  const field = (name: string, label: Html | string, value: string, maxlength: number) => {
    const err = errors.get(`add-${name}`);
    return html`<label for="add-${name}">${label}</label>
      <input
        id="add-${name}"
        name="add-${name}"
        value="${value}"
        maxlength="${maxlength}"
        ${err ? html` aria-invalid="true" aria-describedby="add-${name}-error"` : ''}
      />
      ${err ? html`<p class="field-error" id="add-${name}-error">${err}</p>` : ''}`;
  };
  const screenError = errors.get('add-screen');
  return html`<fieldset class="edit-add card">
    <legend>Add a slide <span class="muted">(after the others; leave the headline empty for none)</span></legend>
    ${field('headline', 'Headline', state.added.headline, 60)}
    ${field('subheadline', html`Subheadline <span class="muted">(optional)</span>`, state.added.subheadline, 140)}
    ${
      screens.length
        ? html`<label for="add-screen">Screen</label>
            <select id="add-screen" name="add-screen">
              <option value="">None</option>
              ${screens.map((x, i) => html`<option value="${x.screenId}" ${state.added.screen === x.screenId ? 'selected' : ''}>Screen ${i + 1} (${x.width}×${x.height})</option>`)}
            </select>
            ${screenError ? html`<p class="field-error">${screenError}</p>` : ''}`
        : ''
    }
    ${state.locales.length > 1 ? html`<p class="hint">Every language of the set gets this caption as written.</p>` : ''}
  </fieldset>`;
}

/**
 * The set's locales as links (`?locale=`): without JavaScript each is a page of its own; with it,
 * /assets/editor.js switches in place and keeps what was typed in every locale.
 */
export function localeTabs(jobId: string, state: EditorState): Html {
  if (state.locales.length < 2) return html``;
  return html`<nav class="locale-tabs" aria-label="Languages of this set" data-locale-tabs>
    <ul>
      ${state.locales.map(
        (l) =>
          html`<li>
            <a href="/sets/${jobId}?locale=${encodeURIComponent(l)}" data-locale-tab="${l}" ${l === state.shown ? html`aria-current="page"` : ''}
              >${describeLocale(l)} <span class="muted">${l}</span></a
            >
          </li>`,
      )}
    </ul>
    <noscript><p class="hint">Switching language reloads the page: save your changes first.</p></noscript>
  </nav>`;
}

export function editorSection(
  ctx: PageContext,
  job: PublicJob,
  state: EditorState,
  screens: Screen[],
  errors: Map<string, string> = new Map(),
): Html {
  const sets = new Map(localeSets(job).map(({ locale, slides }) => [locale, new Map(slides.map((s) => [s.index, s]))]));
  const several = state.locales.length > 1;
  return html`<section aria-labelledby="edit-heading" class="editor">
    <h2 id="edit-heading">Edit this set</h2>
    <p class="hint">
      Change captions, screens, order, theme or colours, then save: only the slides that change are rendered again, and a revision costs no
      credits.${several ? ' Captions are per language (switch above); screens, order, theme and colours apply to every language.' : ''}
    </p>
    ${errors.get('form') ? html`<p class="notice error" role="alert">${errors.get('form')!}</p>` : ''}
    <form method="post" action="/sets/${job.id}/edit" data-editor="${job.id}" data-locales="${state.locales.join(' ')}">
      ${csrfField(ctx)}
      <input type="hidden" name="order" value="${state.order.join(',')}" data-order />
      ${several ? html`<input type="hidden" name="locale" value="${state.shown}" data-shown />` : ''}
      <div class="edit-set">
        <label for="theme">Theme</label>
        <select id="theme" name="theme" data-field="theme">
          ${THEME_IDS.map((t) => html`<option value="${t}" ${state.theme === t ? 'selected' : ''}>${THEMES[t].name}</option>`)}
        </select>
        <span class="pair"
          ><label for="bg1">Background, top</label
          ><input type="color" id="bg1" name="bg1" value="${state.colors.bg1.toLowerCase()}" data-field="bg1"
        /></span>
        <span class="pair"
          ><label for="bg2">Background, bottom</label
          ><input type="color" id="bg2" name="bg2" value="${state.colors.bg2.toLowerCase()}" data-field="bg2"
        /></span>
        <span class="pair"
          ><label for="text">Text colour</label
          ><input type="color" id="text" name="text" value="${state.colors.text.toLowerCase()}" data-field="text"
        /></span>
      </div>
      <ol class="edit-slides" data-slides>
        ${state.order.map((k, pos) => slideItem(sets, k, state, screens, errors, pos, state.order.length))}
      </ol>
      ${addedSlide(state, screens, errors, state.order.length < MAX_COUNT)}
      <p><button type="submit" name="action" value="save">Save as revision</button></p>
    </form>
    <script src="/assets/editor.js" defer></script>
  </section>`;
}

export type RenderSetPage = (
  request: FastifyRequest,
  reply: FastifyReply,
  editor: { state: EditorState; errors: Map<string, string> } | null,
  status: number,
) => Promise<FastifyReply>;

export function editorRoutes(app: FastifyInstance, dash: Dashboard, render: RenderSetPage): void {
  const { db } = dash.services;

  app.post('/sets/:id/edit', async (request, reply) => {
    const session = requireSession(request);
    const { id } = request.params as { id: string };
    const job = isId('job', id) ? await dash.services.jobs.get(session.user.accountId, id) : null;
    if (!job?.result) throw notFound();
    const { rows } = await db.query<{ request: StoredPlanRequest }>('SELECT request FROM jobs WHERE id = $1 AND account_id = $2', [
      id,
      session.user.accountId,
    ]);
    const base = initialState(job, rows[0].request);
    const state = postedState(request.body, initialState(job, rows[0].request));
    if (field(request.body, 'action') !== 'save') return render(request, reply, { state, errors: new Map() }, 200);
    const { request: revision, edited } = revisionOf(job, base, state);
    try {
      const created = await createRevision(db, session.user.accountId, id, revision, { limits: dash.services.config.revisions });
      return reply.code(303).header('location', `/sets/${created.jobId}`).send();
    } catch (e) {
      if (!isProblem(e) || e.status >= 500) throw e;
      const errors = formErrors((e.extensions.errors as FieldError[] | undefined) ?? [{ field: '', message: e.detail }], edited);
      // A refused caption of another locale than the one in view is brought into view.
      const keys = [...errors.keys()];
      const refusedIn = (l: string) => keys.some((f) => (l === state.locales[0] ? /^(sub)?headline-\d+$/.test(f) : f.endsWith(`-${l}`)));
      if (!refusedIn(state.shown)) state.shown = state.locales.find(refusedIn) ?? state.shown;
      return render(request, reply, { state, errors }, e.status === 429 ? 429 : 400);
    }
  });

  // The live preview: one slide with the form's unsaved values, as a PNG; its fit and warnings in headers.
  app.post('/sets/:id/preview', async (request, reply) => {
    const session = requireSession(request);
    const { id } = request.params as { id: string };
    if (!isId('job', id)) throw notFound();
    const previews = dash.services.previews;
    if (!previews) return reply.code(503).header('retry-after', '60').send();
    const index = Number(field(request.body, 'index'));
    const changes: SlideChanges = {};
    const headline = field(request.body, 'headline').trim();
    if (headline) changes.headline = headline.slice(0, 60);
    const sub = field(request.body, 'subheadline').trim();
    changes.subheadline = sub ? sub.slice(0, 140) : null;
    const screenId = field(request.body, 'screenId');
    if (isId('scr', screenId)) changes.screenId = screenId;
    const colors = ['bg1', 'bg2', 'text'].map((c) => field(request.body, c));
    if (colors.every((c) => HEX.test(c))) {
      changes.background = { colors: [colors[0], colors[1]] };
      changes.textColor = colors[2];
    }
    const theme = field(request.body, 'theme');
    const locale = field(request.body, 'locale').slice(0, 35) || undefined;
    if (!Number.isInteger(index) || index < 1 || index > 10) return reply.code(400).send();
    const [preview, warnings] = await Promise.all([
      previews.forJob(session.user.accountId, {
        jobId: id,
        slide: { index, ...(locale ? { locale } : {}), ...changes },
        ...((THEME_IDS as readonly string[]).includes(theme) ? { theme: theme as RevisionRequest['theme'] } : {}),
      }),
      slideEditWarnings(db, session.user.accountId, id, index, changes, locale),
    ]);
    return reply
      .type('image/png')
      .header('caption-fits', String(preview.fits))
      .header('caption-warnings', encodeURIComponent(JSON.stringify(warnings.map(forPeople))))
      .send(preview.png);
  });
}
