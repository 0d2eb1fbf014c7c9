/**
 * HTML from tagged templates, escaped by default: every interpolated value is text unless it is
 * itself Html (made by this tag). There is no way to interpolate a raw string by accident, so a
 * listing's name, a caption or an email cannot inject markup.
 */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type Part = Html | string | number | boolean | null | undefined | readonly Part[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

function render(part: Part): string {
  if (part instanceof Html) return part.value;
  if (part === null || part === undefined || part === false || part === true) return '';
  if (Array.isArray(part)) return part.map(render).join('');
  return escapeHtml(String(part));
}

export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new Html(out);
}

/** Markup this module's callers built themselves (e.g. a constant); never user data. */
export const trusted = (markup: string): Html => new Html(markup);

/** A URL for href/src: http(s) or a same-origin path, else nothing (no javascript: or data:). */
export function safeUrl(url: string | null | undefined): string {
  if (!url) return '';
  if (url.startsWith('/') && !url.startsWith('//')) return url;
  return /^https?:\/\//i.test(url) ? url : '';
}
