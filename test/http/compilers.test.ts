/**
 * The schema compilers every server of a process shares (src/http/compilers.ts): a schema seen
 * again, as the same object or as an equal one made anew, gets the function compiled the first
 * time; anything that changes what a compiler makes (the schema, the part or status it is for, the
 * shared schemas it refers to) gets a function of its own that behaves as Fastify's would.
 */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { compilersFactory } from '../../src/http/compilers.ts';
import { wellFormedTextPlugin } from '../../src/http/text-fields.ts';

type Fn = (value: unknown) => unknown;
const AJV = { customOptions: { allErrors: true, coerceTypes: false }, plugins: [wellFormedTextPlugin] };
const validator = (externals: Record<string, unknown>, schema: object, httpPart = 'body') =>
  (compilersFactory.buildValidator as unknown as (e: unknown, o: unknown) => (r: object) => Fn)(
    externals,
    AJV,
  )({
    schema,
    method: 'POST',
    url: '/x',
    httpPart,
  });
const serializer = (externals: Record<string, unknown>, schema: object, httpStatus = '200') =>
  (compilersFactory.buildSerializer as unknown as (e: unknown, o: unknown) => (r: object) => Fn)(
    externals,
    {},
  )({
    schema,
    method: 'GET',
    url: '/x',
    httpStatus,
  });

const body = () => ({ type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 5 } } });
const point = () => ({ $id: 'Point', type: 'object', properties: { x: { type: 'integer' } } });

describe('schema compilers shared by every server of a process', () => {
  it('a validator: the same function for an equal schema made anew, and it validates as Ajv does', () => {
    const first = validator({}, body());
    expect(validator({}, body())).toBe(first);
    expect(first({ name: 'Ann' })).toBe(true);
    expect(first({ name: 'Annabel' })).toBe(false);
    // The service's own Ajv plugin is applied: a NUL is refused in any text.
    expect(first({ name: 'A\u0000' })).toBe(false);
    expect(validator({}, { ...body(), required: [] })).not.toBe(first);
    expect(validator({}, body(), 'querystring')).not.toBe(first);
  });

  it('a validator that refers to a shared schema: one per set of shared schemas', () => {
    const ref = { type: 'object', properties: { at: { $ref: 'Point#' } } };
    const integer = validator({ Point: point() }, ref);
    expect(validator({ Point: point() }, { ...ref })).toBe(integer);
    const text = validator({ Point: { ...point(), properties: { x: { type: 'string' } } } }, ref);
    expect(text).not.toBe(integer);
    expect([integer({ at: { x: 1 } }), text({ at: { x: 1 } })]).toEqual([true, false]);
  });

  it('a serializer: the same function for an equal schema made anew, another for another status or shape', () => {
    const first = serializer({}, body());
    expect(serializer({}, body())).toBe(first);
    expect(first({ name: 'Ann', secret: 's' })).toBe('{"name":"Ann"}');
    expect(serializer({}, body(), '201')).not.toBe(first);
    const wider = serializer({}, { ...body(), properties: { ...body().properties, secret: { type: 'string' } } });
    expect(wider({ name: 'Ann', secret: 's' })).toBe('{"name":"Ann","secret":"s"}');
  });

  it('two Fastify servers built with them answer alike', async () => {
    const build = async () => {
      const app = Fastify({ schemaController: { compilersFactory }, ajv: AJV });
      app.post('/x', { schema: { body: body(), response: { 200: body() } } }, async (req) => ({ ...(req.body as object), secret: 's' }));
      await app.ready();
      return app;
    };
    for (const app of [await build(), await build()]) {
      const ok = await app.inject({ method: 'POST', url: '/x', payload: { name: 'Ann' } });
      expect([ok.statusCode, ok.body]).toEqual([200, '{"name":"Ann"}']);
      expect((await app.inject({ method: 'POST', url: '/x', payload: { name: 'Annabel' } })).statusCode).toBe(400);
      await app.close();
    }
  });
});
