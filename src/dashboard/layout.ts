/** The page shell and the small pieces every page uses. */
import { html, type Html, type Part } from './html.ts';
import type { Session } from '../users/sessions.ts';

export interface PageContext {
  session: Session | null;
  csrf: string;
  /** The path of the current page, to mark the navigation. */
  path: string;
}

export interface PageOptions {
  title: string;
  body: Part;
  /** A message shown above the content (after an action). */
  notice?: { kind: 'ok' | 'error'; text: string } | null;
}

const NAV = [
  { href: '/keys', label: 'API keys' },
  { href: '/usage', label: 'Usage' },
  { href: '/apps', label: 'Apps and sets' },
  { href: '/webhooks', label: 'Webhooks' },
  { href: '/connections', label: 'Store connections' },
] as const;

export function page(ctx: PageContext, opts: PageOptions): Html {
  const nav = ctx.session
    ? html`<nav aria-label="Main">
          <ul>
            ${NAV.map(
              (item) =>
                html`<li><a href="${item.href}"${ctx.path.startsWith(item.href) ? html` aria-current="page"` : ''}>${item.label}</a></li>`,
            )}
          </ul>
        </nav>
        <form method="post" action="/sign-out" class="sign-out">
          ${csrfField(ctx)} <span class="who">${ctx.session.user.email}</span> <button type="submit" class="link">Sign out</button>
        </form>`
    : '';
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${opts.title} · shotgen</title>
        <link rel="icon" href="/assets/favicon.svg" type="image/svg+xml" />
        <link rel="stylesheet" href="/assets/dashboard.css" />
        <script src="/assets/dashboard.js" defer></script>
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        <header class="top"><a class="brand" href="/">shotgen</a>${nav}</header>
        <main id="main" tabindex="-1">
          <h1>${opts.title}</h1>
          ${opts.notice ? html`<p class="notice ${opts.notice.kind}" role="${opts.notice.kind === 'error' ? 'alert' : 'status'}">${opts.notice.text}</p>` : ''}
          ${opts.body}
        </main>
      </body>
    </html>`;
}

export const csrfField = (ctx: Pick<PageContext, 'csrf'>): Html => html`<input type="hidden" name="_csrf" value="${ctx.csrf}" />`;

/** The card that asks before something cannot be undone: what it is, what follows, and the one dangerous button. */
export function confirmCard(
  ctx: Pick<PageContext, 'csrf'>,
  o: { what: Html; consequence: string; action: string; button: string; cancel: string },
): Html {
  return html`<div class="card narrow">
    <p>${o.what}</p>
    <p>${o.consequence} This cannot be undone.</p>
    <form method="post" action="${o.action}" class="actions">
      ${csrfField(ctx)}
      <button type="submit" class="danger">${o.button}</button>
      <a class="button secondary" href="${o.cancel}">Cancel</a>
    </form>
  </div>`;
}

export interface FieldError {
  field: string;
  message: string;
}

/** The error of one field, linked to its input by aria-describedby (id `<name>-error`). */
export function fieldError(errors: FieldError[], name: string): Html {
  const e = errors.find((x) => x.field === name);
  return e ? html`<p class="field-error" id="${name}-error">${e.message}</p>` : html``;
}

export const describedBy = (errors: FieldError[], name: string): Html =>
  errors.some((x) => x.field === name) ? html` aria-invalid="true" aria-describedby="${name}-error"` : html``;

/** A date as people read it, in UTC, with the exact instant in the datetime attribute. */
export function when(d: Date | string | null | undefined, empty = '—'): Html {
  if (!d) return html`${empty}`;
  const date = typeof d === 'string' ? new Date(d) : d;
  const text = date.toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
  return html`<time datetime="${date.toISOString()}">${text}</time>`;
}

export const STATUS_LABEL: Record<string, string> = { queued: 'Queued', running: 'Running', succeeded: 'Done', failed: 'Failed' };

export const statusBadge = (status: string): Html => html`<span class="badge ${status}">${STATUS_LABEL[status] ?? status}</span>`;
