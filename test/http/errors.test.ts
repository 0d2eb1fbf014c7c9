import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, expectProblem, type TestApp } from '../support/app.ts';

const SETS = '/api/v1/public/v1/screenshots';

describe('errors render as problem+json', () => {
  let h: TestApp;
  beforeEach(async () => {
    h = await createTestApp();
  });
  afterEach(async () => h.close());

  const post = (payload: string, headers: Record<string, string> = {}) =>
    h.app.inject({ method: 'POST', url: SETS, headers: { ...h.auth, 'content-type': 'application/json', ...headers }, payload });

  it('400 invalid_json', async () => {
    expectProblem(await post('{"appId": '), 400, 'invalid_json');
    expectProblem(await post(''), 400, 'invalid_json');
  });

  it('400 validation_failed lists every problem', async () => {
    const res = await post(JSON.stringify({ device: 'iphone-12', count: 11, captionStyle: 'shouty', colour: 'red' }));
    const body = expectProblem(res, 400, 'validation_failed');
    const fields = body.errors.map((e: { field: string }) => e.field).sort();
    expect(fields).toEqual(['appId', 'captionStyle', 'colour', 'count', 'device']);
    for (const e of body.errors) expect(e.message.length).toBeGreaterThan(3);
  });

  it('400 validation_failed for wrong types, without coercion', async () => {
    const body = expectProblem(await post(JSON.stringify({ appId: 5, device: 'iphone-69', count: '5' })), 400, 'validation_failed');
    expect(body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['appId', 'count']);
    expectProblem(await post(JSON.stringify([1, 2])), 400, 'validation_failed');
  });

  it('404 not_found for an unknown route, 404 job_not_found for an unknown job', async () => {
    expectProblem(await h.app.inject({ method: 'GET', url: '/api/v1/public/v1/nothing', headers: h.auth }), 404, 'not_found');
    expectProblem(await h.app.inject({ method: 'GET', url: '/nothing' }), 404, 'not_found');
    expectProblem(
      await h.app.inject({ method: 'GET', url: '/api/v1/public/v1/jobs/job_01ARZ3NDEKTSV4RRFFQ69G5FAV', headers: h.auth }),
      404,
      'job_not_found',
    );
    expectProblem(await h.app.inject({ method: 'GET', url: '/api/v1/public/v1/jobs/not-a-job-id', headers: h.auth }), 404, 'job_not_found');
    // A URL that is not even valid percent-encoding is a bad request, not a crash.
    expectProblem(await h.app.inject({ method: 'GET', url: '/api/v1/public/v1/jobs/%ff%', headers: h.auth }), 400, 'validation_failed');
  });

  it('413 payload_too_large over 64 KiB', async () => {
    const payload = JSON.stringify({ appId: 'a'.repeat(70 * 1024), device: 'iphone-69' });
    expectProblem(await post(payload), 413, 'payload_too_large');
  });

  it('415 unsupported_media_type for a non-JSON body', async () => {
    expectProblem(await post('appId=x', { 'content-type': 'application/x-www-form-urlencoded' }), 415, 'unsupported_media_type');
    expectProblem(await post('hello', { 'content-type': 'text/plain' }), 415, 'unsupported_media_type');
  });

  it('500 internal_error without leaking internals; readyz says 503', async () => {
    await h.t.pool.end();
    const res = await h.app.inject({ method: 'GET', url: '/api/v1/public/v1/account', headers: h.auth });
    // close() would end the pool again (set first: a failed assertion below must not add a second error)
    h.t.pool.end = async () => undefined;
    const body = expectProblem(res, 500, 'internal_error');
    expect(body.detail).toContain(body.requestId);
    // The request id is random base32 and may spell "pg" or "sql" itself: only the rest is checked.
    expect(body.detail.replace(body.requestId, '')).not.toMatch(/pool|pg|sql|Cannot/i);
    expectProblem(await h.app.inject({ method: 'GET', url: '/readyz' }), 503, 'service_unavailable');
  });

  it('x-request-id on every response, equal to the problem’s requestId', async () => {
    const ok = await h.app.inject({ method: 'GET', url: '/healthz' });
    expect(ok.headers['x-request-id']).toMatch(/^req_[0-9A-Z]{26}$/);
    const ready = await h.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.json()).toEqual({ status: 'ok' });
    const a = await h.app.inject({ method: 'GET', url: '/api/v1/public/v1/account', headers: h.auth });
    const b = await h.app.inject({ method: 'GET', url: '/api/v1/public/v1/account', headers: h.auth });
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });
});

describe('an unreachable database', () => {
  let h: TestApp;
  beforeEach(async () => {
    h = await createTestApp();
  });
  afterEach(async () => h.close());

  it.each([
    [
      'a refused connection',
      Object.assign(new Error('connect ECONNREFUSED /tmp/.s.PGSQL.5432'), { code: 'ECONNREFUSED', syscall: 'connect' }),
    ],
    ['a server shutting down (57P01)', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })],
    ['a dropped connection', new Error('Connection terminated unexpectedly')],
  ])('answers 503 service_unavailable with Retry-After for %s, never a 500', async (_name, error) => {
    h.services.accountViews.get = async () => {
      throw error;
    };
    const res = await h.app.inject({ method: 'GET', url: '/api/v1/public/v1/account', headers: h.auth });
    expectProblem(res, 503, 'service_unavailable');
    expect(res.headers['retry-after']).toBe('2');
    expect(res.body).not.toContain('PGSQL');
  });

  it('still answers 500 internal_error for anything else', async () => {
    h.services.accountViews.get = async () => {
      throw Object.assign(new Error('relation "x" does not exist'), { code: '42P01' });
    };
    expectProblem(await h.app.inject({ method: 'GET', url: '/api/v1/public/v1/account', headers: h.auth }), 500, 'internal_error');
  });
});
