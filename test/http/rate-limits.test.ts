import { afterEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/accounts/api-keys.ts';
import { MemoryBuckets } from '../../src/http/rate-limit/buckets.ts';
import { RateLimits } from '../../src/http/rate-limit/index.ts';
import { createTestApp, expectProblem, type TestApp } from '../support/app.ts';

const ACCOUNT = '/api/v1/public/v1/account';

describe('rate limits (in memory)', () => {
  let h: TestApp;
  let now = 1_000_000;
  const limits = (perSecond: number, authFailuresPerMinute = 20) =>
    new RateLimits(new MemoryBuckets(() => now), { perSecond, authFailuresPerMinute });
  afterEach(async () => h?.close());

  const get = (headers: Record<string, string>, url = ACCOUNT, remoteAddress = '10.0.0.1') =>
    h.app.inject({ method: 'GET', url, headers, remoteAddress });

  it('per key: a burst of twice the rate, then 429 rate_limited with Retry-After; other keys unaffected; tokens come back', async () => {
    h = await createTestApp({ rateLimits: limits(5) });
    const seen: string[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await get(h.auth);
      expect(res.statusCode).toBe(200);
      seen.push(String(res.headers.ratelimit));
    }
    expect(seen[0]).toBe('"key";r=9;t=1');
    expect(seen[9]).toBe('"key";r=0;t=2');
    const refused = await get(h.auth);
    const body = expectProblem(refused, 429, 'rate_limited');
    expect(body.detail).toContain('5 requests a second');
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.headers.ratelimit).toBe('"key";r=0;t=2');
    const other = await createApiKey(h.t.pool, h.account.id);
    expect((await get({ authorization: `Bearer ${other.key}` })).statusCode).toBe(200);
    now += 200; // one token at 5 a second
    expect((await get(h.auth)).statusCode).toBe(200);
    expect((await get(h.auth)).statusCode).toBe(429);
  });

  it('RateLimit-Policy on every API answer, success or error, authenticated or not', async () => {
    h = await createTestApp({ rateLimits: limits(20) });
    const answers = [
      await get(h.auth),
      await get({}),
      await get(h.auth, '/api/v1/public/v1/nothing'),
      await get({}, '/api/v1/public/openapi.json'),
    ];
    expect(answers.map((r) => r.statusCode)).toEqual([200, 401, 404, 200]);
    for (const res of answers) expect(res.headers['ratelimit-policy']).toBe('"key";q=40;w=2, "failed-auth";q=20;w=60');
    expect(answers[1].headers.ratelimit).toBe('"failed-auth";r=19;t=3');
  });

  it('failed authentication per address: more than the limit in a minute is 429 for that address only', async () => {
    h = await createTestApp({ rateLimits: limits(20, 5) });
    for (let i = 0; i < 5; i++) expectProblem(await get({ authorization: `Bearer sk_live_guess${i}` }), 401, 'invalid_api_key');
    const blocked = expectProblem(await get({ authorization: 'Bearer sk_live_guess9' }), 429, 'rate_limited');
    expect(blocked.detail).toContain('failed authentications');
    // No key at all, or a good key this process has not seen yet: refused before any lookup.
    expectProblem(await get({}), 429, 'rate_limited');
    const fresh = await createApiKey(h.t.pool, h.account.id);
    expectProblem(await get({ authorization: `Bearer ${fresh.key}` }), 429, 'rate_limited');
    // Another address is untouched.
    expectProblem(await get({ authorization: 'Bearer sk_live_guess9' }, ACCOUNT, '10.0.0.2'), 401, 'invalid_api_key');
    expect((await get({ authorization: `Bearer ${fresh.key}` }, ACCOUNT, '10.0.0.2')).statusCode).toBe(200);
    // A known good key is served from the blocked address: its neighbours' guesses are not its fault.
    expect((await get({ authorization: `Bearer ${fresh.key}` })).statusCode).toBe(200);
    now += 12_000; // one failure forgiven at 5 a minute
    expectProblem(await get({ authorization: 'Bearer sk_live_guess10' }), 401, 'invalid_api_key');
  });

  it('X-Forwarded-For names the client only with TRUST_PROXY', async () => {
    h = await createTestApp({ rateLimits: limits(20, 2) });
    const via = (xff: string) => get({ authorization: 'Bearer sk_live_guess', 'x-forwarded-for': xff });
    await via('203.0.113.1');
    await via('203.0.113.2');
    // Without trust the socket's address counts: two different forwarded addresses share it.
    expectProblem(await via('203.0.113.3'), 429, 'rate_limited');
  });
});

describe('rate limits behind a trusted proxy', () => {
  it('count the X-Forwarded-For address', async () => {
    const h = await createTestApp({
      rateLimits: new RateLimits(new MemoryBuckets(), { perSecond: 20, authFailuresPerMinute: 2 }),
      trustProxy: true,
    });
    try {
      const via = (xff: string) =>
        h.app.inject({
          method: 'GET',
          url: ACCOUNT,
          headers: { authorization: 'Bearer sk_live_guess', 'x-forwarded-for': xff },
          remoteAddress: '10.0.0.1',
        });
      expectProblem(await via('203.0.113.1'), 401, 'invalid_api_key');
      expectProblem(await via('203.0.113.1'), 401, 'invalid_api_key');
      expectProblem(await via('203.0.113.1'), 429, 'rate_limited');
      expectProblem(await via('203.0.113.2'), 401, 'invalid_api_key');
    } finally {
      await h.close();
    }
  });
});
