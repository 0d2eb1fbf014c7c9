import { describe, expect } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { it } from '../support/context.ts';
import { insertApp } from '../support/fixtures.ts';
import { enqueueJobs } from '../support/jobs.ts';

describe('response headers', () => {
  /** GET (or OPTIONS) from another origin, with the account's key unless told otherwise. */
  const getter =
    (h: TestApp) =>
    (url: string, headers: Record<string, string> = h.auth, method: 'GET' | 'OPTIONS' = 'GET') =>
      h.app.inject({ method, url, headers: { origin: 'https://evil.example', ...headers } });

  it('X-Content-Type-Options: nosniff on every answer; no-store on account and job answers and API errors', async ({ api: h }) => {
    const get = getter(h);
    const [jobId] = await enqueueJobs(h.t.pool, h.account.id, await insertApp(h.t.pool, h.account.id), 1);
    const api = [
      await get('/api/v1/public/v1/account'),
      await get(`/api/v1/public/v1/jobs/${jobId}`),
      await get('/api/v1/public/v1/jobs/job_01ARZ3NDEKTSV4RRFFQ69G5FAV'),
      await get('/api/v1/public/v1/account', {}),
      await get('/api/v1/public/v1/narratives'),
      await get('/api/v1/nowhere'),
    ];
    expect(api.map((r) => r.statusCode)).toEqual([200, 200, 404, 401, 200, 404]);
    for (const res of api) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cache-control']).toBe('no-store');
    }
    for (const res of [await get('/healthz', {}), await get('/readyz', {}), await get('/elsewhere', {})])
      expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('no CORS: no Access-Control-* header on any answer, and a preflight is not honoured', async ({ api: h }) => {
    const get = getter(h);
    const answers = [
      await get('/api/v1/public/v1/account'),
      await get('/api/v1/public/v1/account', {}),
      await get('/api/v1/public/openapi.json', {}),
      await get('/api/v1/public/v1/account', { 'access-control-request-method': 'GET' }, 'OPTIONS'),
    ];
    expect(answers[3].statusCode).toBe(404);
    for (const res of answers) expect(Object.keys(res.headers).filter((k) => k.startsWith('access-control-'))).toEqual([]);
  });
});
