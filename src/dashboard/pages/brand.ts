/** The brand kit on an app's page: the colours its sets are drawn with, and a form to change the kit. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { brandKitView, checkBrandKit, findAppBrand, saveBrandKit } from '../../brand/kit.ts';
import { derivedAccent, kitSecondary } from '../../brand/palette.ts';
import { BRAND_FONT_IDS, BRAND_FONTS, THEME_IDS, THEMES } from '../../core/themes.ts';
import { isId } from '../../core/ids.ts';
import { field, notFound, requireSession, seeOther, type Dashboard } from '../context.ts';
import { html } from '../html.ts';
import { csrfField, type PageContext } from '../layout.ts';

export type BrandView = ReturnType<typeof brandKitView>;

const SOURCE_LABEL = {
  'brand-kit': 'your brand kit',
  icon: "the app's icon",
  'app-name': "the app's name (the icon has not been read yet: the next set reads it)",
};

// A fill attribute, not a style: the dashboard's CSP allows no inline styles.
const swatch = (color: string) =>
  html`<svg class="swatch" width="28" height="28" viewBox="0 0 28 28" aria-hidden="true">
    <rect width="28" height="28" rx="6" fill="${color}" stroke="#0000001f" />
  </svg>`;

const selected = (on: boolean) => (on ? html` selected` : '');

export function brandSection(ctx: PageContext, appId: string, view: BrandView) {
  const { effective } = view;
  const primary = view.colors?.primary ?? effective.primary;
  const own = {
    primary,
    secondary: view.colors?.secondary ?? (view.colors ? kitSecondary(primary) : effective.secondary),
    accent: view.colors?.accent ?? effective.accent ?? derivedAccent(primary),
  };
  return html`<section aria-labelledby="brand">
    <h2 id="brand">Brand</h2>
    <p>
      ${swatch(effective.primary)} ${swatch(effective.secondary)} ${swatch(own.accent)} <code>${effective.primary}</code> ·
      <code>${effective.secondary}</code>, accent <code>${own.accent}</code>${effective.accent ? '' : ' (derived)'}, text
      <code>${effective.textColor}</code>: from ${SOURCE_LABEL[effective.source]}.
    </p>
    <form method="post" action="/apps/${appId}/brand" class="card grid" novalidate>
      ${csrfField(ctx)}
      <fieldset>
        <legend>Colours</legend>
        <label class="choice"
          ><input type="checkbox" name="ownColors" value="1" ${view.colors ? html` checked` : ''} /> Use my own colours instead of the
          icon's</label
        >
        <label for="brand-primary">Primary</label>
        <input id="brand-primary" name="primary" type="color" value="${own.primary.toLowerCase()}" />
        <label for="brand-secondary">Secondary</label>
        <input id="brand-secondary" name="secondary" type="color" value="${own.secondary.toLowerCase()}" />
        <label for="brand-accent">Accent</label>
        <input id="brand-accent" name="accent" type="color" value="${own.accent.toLowerCase()}" />
        <p class="hint">
          Text sits on the primary and the secondary: one text colour must be readable on both (WCAG AA, 4.5:1). The accent marks each
          headline's key word and may be any colour (an amber on a purple brand).
        </p>
      </fieldset>
      <div>
        <label for="brand-font">Font</label>
        <select id="brand-font" name="font">
          ${BRAND_FONT_IDS.map(
            (f) => html`<option value="${f}" ${selected(f === view.font)}>${BRAND_FONTS[f].name}: ${BRAND_FONTS[f].use}</option>`,
          )}
        </select>
        <p class="hint">Headlines and subheadlines (Playfair Display: headlines only); Korean, Arabic and other scripts keep their own.</p>
        <label for="brand-theme">Default theme</label>
        <select id="brand-theme" name="defaultTheme">
          ${THEME_IDS.map((t) => html`<option value="${t}" ${selected(t === view.defaultTheme)}>${THEMES[t].name}</option>`)}
        </select>
        <label class="choice"
          ><input type="checkbox" name="iconBadge" value="1" ${view.iconBadge ? html` checked` : ''} /> Show the app icon as a badge on the
          slides</label
        >
      </div>
      <div class="submit"><button type="submit">Save brand kit</button></div>
    </form>
  </section>`;
}

/** The app's brand as its page shows it; null when it is not this account's app. */
export async function brandView(dash: Dashboard, accountId: string, appId: string): Promise<BrandView | null> {
  const brand = await findAppBrand(dash.services.db, accountId, appId);
  return brand ? brandKitView(appId, brand) : null;
}

type AppPage = (
  request: FastifyRequest,
  reply: FastifyReply,
  dash: Dashboard,
  appId: string,
  form: null,
  status?: number,
  notice?: string,
) => Promise<unknown>;

export function brandPages(app: FastifyInstance, dash: Dashboard, appPage: AppPage): void {
  app.post('/apps/:id/brand', async (request, reply) => {
    const session = requireSession(request);
    const appId = (request.params as { id: string }).id;
    if (!isId('app', appId)) throw notFound();
    const own = field(request.body, 'ownColors') === '1';
    const { errors, kit } = checkBrandKit({
      colors: own
        ? {
            primary: field(request.body, 'primary'),
            secondary: field(request.body, 'secondary'),
            ...(field(request.body, 'accent') ? { accent: field(request.body, 'accent') } : {}),
          }
        : null,
      font: field(request.body, 'font') || undefined,
      iconBadge: field(request.body, 'iconBadge') === '1',
      defaultTheme: field(request.body, 'defaultTheme') || undefined,
    });
    if (errors.length) {
      const notice = `The brand kit was not saved: ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}.`;
      return appPage(request, reply, dash, appId, null, 400, notice);
    }
    if (!(await saveBrandKit(dash.services.db, session.user.accountId, appId, kit))) throw notFound();
    return seeOther(reply, `/apps/${appId}#brand`);
  });
}
