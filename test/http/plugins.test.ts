import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DashboardPlugin } from '../../src/http/services.ts';
import { createTestApp, expectProblem, type TestApp } from '../support/app.ts';

/** A dashboard as the dashboard helper builds one: HTML errors, a form parser, its own 404. */
const dashboard: DashboardPlugin = async (app: FastifyInstance) => {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  app.setErrorHandler((error, _request, reply) =>
    reply
      .code(500)
      .type('text/html')
      .send(`<h1>oops</h1><p>${(error as Error).message}</p>`),
  );
  app.setNotFoundHandler((_request, reply) => reply.code(404).type('text/html').send('<h1>No such page</h1>'));
  app.get('/', async (_request, reply) => reply.type('text/html').send('<h1>Dashboard</h1>'));
  app.post('/login', async (request) => ({ saw: request.body }));
  app.get('/boom', async () => {
    throw new Error('dashboard failure');
  });
};

describe('the API and the dashboard are separate plugins', () => {
  let h: TestApp;
  beforeEach(async () => {
    h = await createTestApp({ dashboard });
  });
  afterEach(async () => h.close());

  it('serves the dashboard at / without key auth, with its own parsers, errors and 404', async () => {
    const home = await h.app.inject({ method: 'GET', url: '/' });
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('Dashboard');
    expect(home.headers['x-request-id']).toMatch(/^req_/);
    expect(home.headers['x-content-type-options']).toBe('nosniff');
    const form = await h.app.inject({
      method: 'POST',
      url: '/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=a%40b.c',
    });
    expect(form.json()).toEqual({ saw: { email: 'a@b.c' } });
    const missing = await h.app.inject({ method: 'GET', url: '/no-such-page' });
    expect([missing.statusCode, missing.headers['content-type']]).toEqual([404, 'text/html']);
    const boom = await h.app.inject({ method: 'GET', url: '/boom' });
    expect([boom.statusCode, boom.headers['content-type']]).toEqual([500, 'text/html']);
  });

  it('keeps the API JSON-only with problem+json errors and its own 404 under BASE_PATH', async () => {
    expectProblem(await h.app.inject({ method: 'GET', url: '/api/v1/nothing' }), 404, 'not_found');
    expectProblem(await h.app.inject({ method: 'GET', url: '/api/v1/public/v1/nothing', headers: h.auth }), 404, 'not_found');
    const formToApi = await h.app.inject({
      method: 'POST',
      url: '/api/v1/public/v1/apps',
      headers: { ...h.auth, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'iosUrl=x',
    });
    expectProblem(formToApi, 415, 'unsupported_media_type');
    expectProblem(await h.app.inject({ method: 'GET', url: '/api/v1/public/v1/account' }), 401, 'missing_api_key');
    expect((await h.app.inject({ method: 'GET', url: '/api/v1/public/v1/account', headers: h.auth })).statusCode).toBe(200);
  });

  it('documents only the API in the OpenAPI document; health checks stay outside both', async () => {
    const doc = (await h.app.inject({ method: 'GET', url: '/api/v1/public/openapi.json' })).json();
    const paths = Object.keys(doc.paths);
    expect(paths.every((p) => p.startsWith('/public/v1/'))).toBe(true);
    expect(paths).toContain('/public/v1/account');
    expect((await h.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await h.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  it('refuses a dashboard when the API is mounted at the root too', async () => {
    await expect(createTestApp({ dashboard, basePath: '' })).rejects.toThrow(/BASE_PATH/);
  });
});

describe('without a dashboard', () => {
  it('answers unknown paths outside BASE_PATH as problem+json, and mounts the API at the root when BASE_PATH is empty', async () => {
    const h = await createTestApp({ basePath: '' });
    try {
      expectProblem(await h.app.inject({ method: 'GET', url: '/nothing' }), 404, 'not_found');
      expect((await h.app.inject({ method: 'GET', url: '/public/v1/account', headers: h.auth })).statusCode).toBe(200);
    } finally {
      await h.close();
    }
  });
});
