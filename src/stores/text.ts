/** Turning store-provided markup into the plain text a Listing carries. */
import { createRequire } from 'node:module';
import type * as Cheerio from 'cheerio';

// cheerio (and parse5, htmlparser2, entities under it: about 80 modules) cost every process 0.35 CPU
// seconds at start, although only reading a store listing uses it: it is loaded on the first call,
// from its CommonJS build so that these functions stay synchronous.
const require = createRequire(import.meta.url);
let cheerio: typeof Cheerio | undefined;
const load: typeof Cheerio.load = (...args) => (cheerio ??= require('cheerio') as typeof Cheerio).load(...args);

const BR = /<br\s*\/?>/gi;

/** Decode HTML entities without treating anything else as markup (App Store text is plain). */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  // Escaping "<" first makes the HTML parser see pure text, so only the entities change.
  return load(text.replace(/</g, '&lt;'), null, false).root().text();
}

/** App Store descriptions: plain text that sometimes carries <br> and entities. */
export function plainText(text: string): string {
  return decodeEntities(text.replace(BR, '\n')).replace(/\r\n?/g, '\n').trim();
}

/** Play descriptions are real HTML: <br> and block ends become newlines, scripts and styles go with their content, other tags go. */
export function htmlToText(html: string): string {
  const withBreaks = html.replace(BR, '\n').replace(/<\/(p|div|li|h[1-6])\s*>/gi, '\n');
  const $ = load(withBreaks, null, false);
  // Their text is code or styling, never the listing's words.
  $('script, style, noscript, template, iframe, object, svg').remove();
  return $.root()
    .text()
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+\n/g, '\n')
    .trim();
}
