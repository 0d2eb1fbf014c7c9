/**
 * With the database unreachable every request that needs it answers 503 service_unavailable with
 * Retry-After (CONTRACT, "Operations"), never 500; the process-level outage tests in test/ops
 * show the same under load while a real server dies and comes back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Api } from '../../src/http/services.ts';
import { expectProblem } from '../support/app.ts';
import { serverWithDatabaseDown } from '../support/database-down.ts';

describe('the database is unreachable', () => {
  let app: Api;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ app, close } = await serverWithDatabaseDown());
  });
  afterAll(() => close());

  const auth = { authorization: `Bearer sk_live_${'A'.repeat(40)}` };

  it('every API request that needs it answers 503 with Retry-After', async () => {
    const requests = [
      { method: 'GET' as const, url: '/api/v1/public/v1/account', headers: auth },
      { method: 'GET' as const, url: '/api/v1/public/v1/jobs/job_01ARZ3NDEKTSV4RRFFQ69G5FAV', headers: auth },
      {
        method: 'POST' as const,
        url: '/api/v1/public/v1/screenshots',
        headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': 'k1' },
        payload: '{"appId":"app_01ARZ3NDEKTSV4RRFFQ69G5FAV","device":"iphone-69"}',
      },
    ];
    for (const request of requests) {
      const res = await app.inject(request);
      expectProblem(res, 503, 'service_unavailable');
      expect(res.headers['retry-after']).toBe('2');
    }
    expectProblem(await app.inject({ method: 'GET', url: '/readyz' }), 503, 'service_unavailable');
  });

  it('what needs no database still answers, and a missing key is still a 401', async () => {
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/v1/public/openapi.json' })).statusCode).toBe(200);
    expectProblem(await app.inject({ method: 'GET', url: '/api/v1/public/v1/account' }), 401, 'missing_api_key');
  });
});
