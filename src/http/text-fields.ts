/**
 * The one rule for text in requests (CONTRACT, fourth milestone, "Text fields"): no string a client
 * sends may hold U+0000 or an unpaired UTF-16 surrogate. PostgreSQL refuses both in `jsonb` and `text`
 * and skia's measureText throws on them, so either one reached a renderer or the database as a 500.
 * A JSON body can spell both (`"\u0000"`, `"\ud800"`), a URL or a form can spell NUL (`%00`).
 *
 * The API applies it in validation: every schema compiled for a request part (body, querystring,
 * params, headers) gets the `wellFormedText` keyword at its root, which walks the whole value, field
 * names included, and names each offending field the way every other validation error does. So no
 * route schema has to remember it and no string escapes it, typed or not. The dashboard, whose forms
 * have no schemas, runs the same walk in a hook (src/dashboard/index.ts).
 */

import type { FastifyServerOptions } from 'fastify';

// NUL, or a surrogate code unit outside a pair: with the `u` flag a well-formed pair is one astral
// code point (an emoji), which the class does not match, so only lone halves do. (NUL is the point.)
// eslint-disable-next-line no-control-regex
const ILL_FORMED = /[\u0000\uD800-\uDFFF]/u;

export const TEXT_RULE = 'must not contain U+0000 or an unpaired UTF-16 surrogate';

/** Enough to name every field of a careless client; a hostile body cannot grow the answer without end. */
const MAX_REPORTED = 20;

export interface IllFormedText {
  /** JSON Pointer from the value's root, as ajv writes `instancePath` (`/slides/0/headline`). */
  pointer: string;
  /** The offending text is a field name rather than a value. */
  isName: boolean;
}

const escapePointer = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');
/** A field name as it may be shown back: the offending characters replaced, not echoed. */
const shown = (key: string) => key.replace(new RegExp(ILL_FORMED.source, 'gu'), '\uFFFD');

/**
 * Every string in `value` (strings, array items, object values and names) that breaks the rule.
 * Parsed JSON, a query or the path's parameters (null-prototype objects) and form fields are
 * walked; a Buffer (an upload, a multipart file) is bytes, not text, and is not.
 */
export function findIllFormedText(value: unknown, limit = MAX_REPORTED): IllFormedText[] {
  const found: IllFormedText[] = [];
  const walk = (v: unknown, pointer: string): void => {
    if (found.length >= limit) return;
    if (typeof v === 'string') {
      if (ILL_FORMED.test(v)) found.push({ pointer, isName: false });
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => walk(item, `${pointer}/${i}`));
    } else if (v !== null && typeof v === 'object' && !ArrayBuffer.isView(v) && !(v instanceof ArrayBuffer)) {
      for (const [key, item] of Object.entries(v)) {
        if (ILL_FORMED.test(key)) {
          found.push({ pointer: `${pointer}/${escapePointer(shown(key))}`, isName: true });
          if (found.length >= limit) return;
        }
        walk(item, `${pointer}/${escapePointer(key)}`);
      }
    }
  };
  walk(value, '');
  return found;
}

/** A field's name as the API's validation errors write it (`slides.0.headline`). */
export const fieldName = (pointer: string): string =>
  pointer
    .replace(/^\//, '')
    .split('/')
    .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'))
    .join('.');

const KEYWORD = 'wellFormedText';

/** Fastify's own ajv instance (made by @fastify/ajv-compiler), typed from Fastify's options. */
type AjvPlugin = Extract<NonNullable<NonNullable<FastifyServerOptions['ajv']>['plugins']>[number], (...args: never[]) => unknown>;
type Ajv = Parameters<AjvPlugin>[0];

interface KeywordError {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  params: Record<string, unknown>;
  message: string;
}

/** The keyword's check, in ajv's shape for a function keyword that reports its own errors. */
function check(_schema: unknown, data: unknown, _parent?: unknown, cxt?: { instancePath?: string }): boolean {
  const found = findIllFormedText(data);
  if (found.length === 0) return true;
  check.errors = found.map((f): KeywordError => ({
    keyword: KEYWORD,
    instancePath: `${cxt?.instancePath ?? ''}${f.pointer}`,
    schemaPath: `#/${KEYWORD}`,
    params: {},
    message: f.isName ? `is a field name that ${TEXT_RULE}` : TEXT_RULE,
  }));
  return false;
}
check.errors = [] as KeywordError[];

/**
 * An ajv plugin for Fastify's `ajv.plugins` option. Fastify compiles exactly the request parts'
 * schemas with this instance (responses go through fast-json-stringify), so adding the keyword to
 * the root of what it compiles covers every request and nothing else, and leaves the route schemas
 * (and the OpenAPI document made from them) as they are written.
 */
export function wellFormedTextPlugin(ajv: Ajv): Ajv {
  ajv.addKeyword({ keyword: KEYWORD, schemaType: 'boolean', errors: true, validate: check });
  const compile = ajv.compile.bind(ajv);
  const withKeyword = (schema: Parameters<Ajv['compile']>[0], meta?: boolean) =>
    compile(typeof schema === 'object' && !Array.isArray(schema) ? { ...schema, [KEYWORD]: true } : schema, meta);
  ajv.compile = ((schema: Parameters<Ajv['compile']>[0], meta?: boolean) => {
    // A schema with an $id is compiled now: ajv keeps it under that id, and the compiler looks it up
    // there for the next route that uses it.
    if (typeof schema === 'object' && schema !== null && '$id' in schema) return withKeyword(schema, meta);
    // The others on their first request. Compiling every route's schemas up front was most of a
    // server's start (about 1.3 of an API process's 3.7 CPU seconds, and again for every server a
    // test builds), and most routes of a process never see a request. Fastify reads the function's
    // `errors` after a call that returned false, so the wrapper passes them on.
    let validate: ReturnType<Ajv['compile']> | undefined;
    const lazy = (data: unknown): boolean => {
      validate ??= withKeyword(schema, meta);
      const valid = validate(data) as boolean;
      lazy.errors = validate.errors;
      return valid;
    };
    lazy.errors = null as ReturnType<Ajv['compile']>['errors'];
    return lazy;
  }) as Ajv['compile'];
  return ajv;
}
