/** An app's own screens on its page: upload (several at once), see them, delete one. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isId } from '../../core/ids.ts';
import { isProblem } from '../../core/problem.ts';
import { SCREEN_FAMILIES } from '../../core/families.ts';
import { deleteScreen, screenObjects, uploadScreen, type Screen } from '../../screens/screens.ts';
import type { ScreenshotFamily } from '../../core/listing.ts';
import { field, notFound, requireSession, seeOther, type Dashboard } from '../context.ts';
import { html } from '../html.ts';
import { csrfField, type PageContext } from '../layout.ts';

const FAMILY_LABEL: Record<ScreenshotFamily, string> = {
  iphone: 'iPhone',
  ipad: 'iPad',
  mac: 'Mac',
  'android-phone': 'Android phone',
  'android-tablet': 'Android tablet',
};

/** `storeless`: an app made from its listing has no store screenshots, so its sets need these. */
export function screensSection(ctx: PageContext, appId: string, screens: Screen[], storeless = false) {
  return html`<section aria-labelledby="screens">
    <h2 id="screens">Your screens</h2>
    <p class="hint">
      Raw screenshots of your app, framed by the slides of new sets: a set frames the screens of its device's family, in this order. PNG or
      JPEG, at most 10 MB each.
    </p>
    ${
      screens.length
        ? html`<ol class="screens">
            ${screens.map(
              (s) =>
                html`<li>
                  <figure>
                    <img
                      src="/apps/${appId}/screens/${s.screenId}"
                      alt="Screen ${s.screenId}, ${FAMILY_LABEL[s.family]}"
                      width="${s.width}"
                      height="${s.height}"
                      loading="lazy"
                    />
                    <figcaption>
                      ${FAMILY_LABEL[s.family]} · ${s.width}×${s.height}
                      <form method="post" action="/apps/${appId}/screens/${s.screenId}/delete" class="inline-form">
                        ${csrfField(ctx)}<button type="submit" class="button secondary small">
                          Delete<span class="visually-hidden"> screen ${s.screenId}</span>
                        </button>
                      </form>
                    </figcaption>
                  </figure>
                </li>`,
            )}
          </ol>`
        : storeless
          ? html`<p>No screens yet: the app is in no store to take screenshots from, so its sets need yours.</p>`
          : html`<p>No screens yet: sets frame the listing's own screenshots.</p>`
    }
    <form method="post" action="/apps/${appId}/screens" enctype="multipart/form-data" class="card">
      ${csrfField(ctx)}
      <label for="screen-files">Screens to upload</label>
      <input id="screen-files" name="screens" type="file" accept="image/png,image/jpeg" multiple required />
      <label for="screen-family">Family of these screens</label>
      <select id="screen-family" name="family">
        <option value="">Infer from the picture’s shape</option>
        ${SCREEN_FAMILIES.map((f) => html`<option value="${f}">${FAMILY_LABEL[f]}</option>`)}
      </select>
      <button type="submit">Upload screens</button>
    </form>
  </section>`;
}

/** The app's page, answered with a notice (a refused upload) and its status. */
type AppPage = (
  request: FastifyRequest,
  reply: FastifyReply,
  dash: Dashboard,
  appId: string,
  form: null,
  status: number,
  notice: string,
) => Promise<FastifyReply>;

export function screenPages(app: FastifyInstance, dash: Dashboard, appPage: AppPage): void {
  const { db, objects } = dash.services;

  app.post('/apps/:id/screens', async (request, reply) => {
    const session = requireSession(request);
    const appId = (request.params as { id: string }).id;
    const body = request.body as Record<string, unknown> | undefined;
    const files = [body?.screens].flat().filter((f): f is Buffer => Buffer.isBuffer(f) && f.length > 0);
    const family = field(body, 'family');
    if (!isId('app', appId)) throw notFound();
    if (files.length === 0) return appPage(request, reply, dash, appId, null, 400, 'Choose one or more PNG or JPEG files to upload.');
    try {
      for (const file of files) {
        await uploadScreen(
          db,
          objects,
          session.user.accountId,
          appId,
          file,
          (SCREEN_FAMILIES as readonly string[]).includes(family) ? (family as ScreenshotFamily) : undefined,
        );
      }
    } catch (e) {
      if (isProblem(e) && e.code === 'app_not_found') throw notFound();
      if (!isProblem(e) || e.status >= 500) throw e;
      return appPage(request, reply, dash, appId, null, e.status, e.detail);
    }
    return seeOther(reply, `/apps/${appId}?uploaded=${files.length}#screens`);
  });

  app.post('/apps/:id/screens/:screenId/delete', async (request, reply) => {
    const session = requireSession(request);
    const { id, screenId } = request.params as { id: string; screenId: string };
    try {
      await deleteScreen(db, session.user.accountId, id, screenId);
    } catch (e) {
      if (isProblem(e) && e.status === 404) throw notFound();
      throw e;
    }
    return seeOther(reply, `/apps/${id}#screens`);
  });

  // The screen's bytes for its thumbnail, for the session's own account only.
  app.get('/apps/:id/screens/:screenId', async (request, reply) => {
    const session = requireSession(request);
    const { id, screenId } = request.params as { id: string; screenId: string };
    if (!isId('app', id) || !isId('scr', screenId)) throw notFound();
    const [screen] = await screenObjects(db, session.user.accountId, id, [screenId]);
    const object = screen ? await objects.get(screen.objectKey) : null;
    if (!object) throw notFound();
    return reply
      .type(screen.objectKey.endsWith('.png') ? 'image/png' : 'image/jpeg')
      .header('content-length', object.bytes)
      .header('cache-control', 'private, max-age=3600')
      .send(object.body);
  });
}
