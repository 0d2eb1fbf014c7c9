/**
 * CONTRACT, fourth milestone, "Text fields": every text field of every request refuses U+0000 and
 * unpaired UTF-16 surrogates with 400 validation_failed naming the field. The fields are read from
 * the served OpenAPI document, so an operation or field added later is covered without a list here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEXT_RULE } from '../../src/http/text-fields.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { insertApp } from '../support/fixtures.ts';

// The document is untyped JSON walked by path; `any` keeps these look-ups readable.
/* eslint-disable @typescript-eslint/no-explicit-any */

const NUL = 'Plan\u0000meals';
const LONE = 'Plan\ud800meals';
const EMOJI = 'Plan meals 🍎';

/** A step into a request body: a property, an array's first item, or a free-form map's key. */
type Step = { property: string } | { item: true } | { key: true };

interface TextField {
  operation: string;
  method: string;
  path: string;
  /** A valid value for each path parameter: the router checks them before the query or body. */
  fillers: Record<string, string>;
  in: 'path' | 'query' | 'body';
  steps: Step[];
  /** How the validation error names it (`slides.0.headline`). */
  field: string;
}

function resolve(doc: any, schema: any): any {
  return schema?.$ref ? doc.components.schemas[schema.$ref.split('/').pop()] : schema;
}

const isText = (schema: any) => schema?.type === 'string' || (Array.isArray(schema?.type) && schema.type.includes('string'));

/** Every string in a body schema, through properties, items, unions and free-form maps. */
function bodyStrings(doc: any, schema: any, steps: Step[] = [], out: Step[][] = [], depth = 0): Step[][] {
  const s = resolve(doc, schema);
  if (!s || typeof s !== 'object' || depth > 16) return out;
  if (isText(s) && s.format !== 'binary') out.push(steps);
  for (const union of ['anyOf', 'oneOf', 'allOf']) for (const branch of s[union] ?? []) bodyStrings(doc, branch, steps, out, depth + 1);
  for (const [name, property] of Object.entries(s.properties ?? {}))
    bodyStrings(doc, property, [...steps, { property: name }], out, depth + 1);
  if (s.items && typeof s.items === 'object') bodyStrings(doc, s.items, [...steps, { item: true }], out, depth + 1);
  if (s.additionalProperties && typeof s.additionalProperties === 'object') {
    // A map's keys are text too: the key itself is a field that can hold the character.
    out.push([...steps, { key: true }]);
    bodyStrings(doc, s.additionalProperties, [...steps, { property: 'k' }], out, depth + 1);
  }
  return out;
}

const nameOf = (steps: Step[]) => steps.map((s) => ('property' in s ? s.property : 'item' in s ? '0' : '')).join('.');

/** Params are validated first and alone: the others must pass for the query's or body's errors to show. */
function validFor(schema: any): string {
  const candidates = [...(schema?.examples ?? []), '1.png', 'en-US', 'x'];
  return candidates.find((c) => !schema?.pattern || new RegExp(schema.pattern, 'u').test(c)) ?? 'x';
}

function textFields(doc: any): TextField[] {
  const fields: TextField[] = [];
  for (const [path, operations] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(operations)) {
      const fillers = Object.fromEntries(
        (op.parameters ?? []).filter((p: any) => p.in === 'path').map((p: any) => [p.name, validFor(resolve(doc, p.schema))]),
      );
      const base = { operation: `${method.toUpperCase()} ${path}`, method: method.toUpperCase(), path, fillers };
      for (const p of op.parameters ?? []) {
        if ((p.in === 'path' || p.in === 'query') && isText(resolve(doc, p.schema)))
          fields.push({ ...base, in: p.in, steps: [{ property: p.name }], field: p.name });
      }
      const json = op.requestBody?.content?.['application/json']?.schema;
      if (json) {
        for (const steps of bodyStrings(doc, json)) {
          const last = steps.at(-1);
          if (last && 'key' in last) fields.push({ ...base, in: 'body', steps, field: nameOf(steps.slice(0, -1)) });
          else fields.push({ ...base, in: 'body', steps, field: nameOf(steps) });
        }
      }
    }
  }
  return fields;
}

/** A body holding `value` at the field's place (and nothing else the field does not need). */
function bodyWith(steps: Step[], value: string): unknown {
  const [step, ...rest] = steps;
  if (!step) return value;
  if ('key' in step) return { [value]: 'x' };
  if ('item' in step) return [bodyWith(rest, value)];
  return { [step.property]: bodyWith(rest, value) };
}

/**
 * A URL can carry NUL (`%00`) but not a lone surrogate: it is UTF-8 bytes, and the bytes of a
 * surrogate (`%ED%A0%80`, WTF-8) are not UTF-8. They are sent all the same, and must not get through.
 */
const inUrl = (value: string) => (value === LONE ? 'Plan%ED%A0%80meals' : encodeURIComponent(value));

describe('text fields', () => {
  let h: TestApp;
  let fields: TextField[];
  beforeAll(async () => {
    h = await createTestApp();
    const res = await h.app.inject({ method: 'GET', url: '/api/v1/public/openapi.json' });
    fields = textFields(res.json());
  });
  afterAll(async () => h.close());

  const send = (f: TextField, value: string) => {
    let url = f.path;
    for (const [, name] of f.path.matchAll(/\{(\w+)\}/g))
      url = url.replace(`{${name}}`, f.in === 'path' && f.field === name ? inUrl(value) : f.fillers[name]);
    if (f.in === 'query') url += `?${f.field}=${inUrl(value)}`;
    const body = f.in === 'body' ? JSON.stringify(bodyWith(f.steps, value)) : undefined;
    return h.app.inject({
      method: f.method as 'GET',
      url: `/api/v1${url}`,
      headers: { ...h.auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      payload: body,
    });
  };

  it('finds the request text of every kind in the document', () => {
    const names = fields.map((f) => `${f.operation} ${f.in}:${f.field}`);
    // One of each, as a check that the walk reaches them; the test below covers all it finds.
    expect(names).toContain('POST /public/v1/jobs/{id}/revisions body:slides.0.headline');
    expect(names).toContain('POST /public/v1/screenshots body:slides.0.subheadline');
    expect(names).toContain('POST /public/v1/previews body:slide.headline');
    expect(names).toContain('POST /public/v1/apps body:extraContext');
    expect(names).toContain('GET /public/v1/jobs/{id} path:id');
    expect(names).toContain('GET /public/v1/jobs/{id}/archive.zip query:sig');
    expect(fields.length).toBeGreaterThan(60);
  });

  it('refuses NUL in every request text field with 400 validation_failed naming it', async () => {
    const missed: string[] = [];
    for (const f of fields) {
      const res = await send(f, NUL);
      const errors: { field: string; message: string }[] = res.json().errors ?? [];
      const named = errors.some((e) => (e.field === f.field || e.field.startsWith(`${f.field}.`)) && e.message.endsWith(TEXT_RULE));
      if (res.statusCode !== 400 || res.json().code !== 'validation_failed' || !named)
        missed.push(`${f.operation} ${f.in}:${f.field} -> ${res.statusCode} ${res.body.slice(0, 160)}`);
    }
    expect(missed).toEqual([]);
  });

  it('refuses a lone surrogate in every request text field; in a URL it cannot arrive as one', async () => {
    const missed: string[] = [];
    for (const f of fields) {
      const res = await send(f, LONE);
      const body = res.json();
      if (f.in === 'body') {
        const named = (body.errors ?? []).some(
          (e: { field: string; message: string }) =>
            (e.field === f.field || e.field.startsWith(`${f.field}.`)) && e.message.endsWith(TEXT_RULE),
        );
        if (res.statusCode !== 400 || body.code !== 'validation_failed' || !named)
          missed.push(`${f.operation} ${f.in}:${f.field} -> ${res.statusCode} ${res.body.slice(0, 160)}`);
      } else if (f.in === 'path') {
        // The router refuses a path that is not UTF-8 before any route sees it.
        if (res.statusCode !== 400 || body.code !== 'validation_failed') missed.push(`${f.operation} path:${f.field} -> ${res.statusCode}`);
      } else if (res.statusCode >= 500) {
        // A query keeps bytes it cannot decode as they were sent (`%ED%A0%80`): text, harmlessly.
        missed.push(`${f.operation} query:${f.field} -> ${res.statusCode}`);
      }
    }
    expect(missed).toEqual([]);
  });

  it('accepts an emoji (a surrogate pair) wherever it accepts text', async () => {
    const refused: string[] = [];
    for (const f of fields) {
      const res = await send(f, EMOJI);
      const errors: { field: string; message: string }[] = res.statusCode === 400 ? (res.json().errors ?? []) : [];
      if (res.statusCode >= 500 || errors.some((e) => e.message.endsWith(TEXT_RULE))) refused.push(`${f.operation} ${f.in}:${f.field}`);
    }
    expect(refused).toEqual([]);

    // And end to end: own captions with an emoji make a set; the same with NUL make nothing.
    const appId = await insertApp(h.t.pool, h.account.id);
    const create = (headline: string) =>
      h.app.inject({
        method: 'POST',
        url: '/api/v1/public/v1/screenshots',
        headers: h.auth,
        payload: { appId, device: 'iphone-69', slides: [{ headline }] },
      });
    const refusedCreate = await create(NUL);
    expect([refusedCreate.statusCode, refusedCreate.json().errors]).toEqual([400, [{ field: 'slides.0.headline', message: TEXT_RULE }]]);
    expect((await h.t.pool.query('SELECT count(*)::int AS n FROM jobs')).rows[0].n).toBe(0);
    const created = await create(EMOJI);
    expect(created.statusCode).toBe(201);
    const { rows } = await h.t.pool.query<{ request: { slides: { headline: string }[] } }>('SELECT request FROM jobs WHERE id = $1', [
      created.json().jobId,
    ]);
    expect(rows[0].request.slides[0].headline).toBe(EMOJI);
  });
});
