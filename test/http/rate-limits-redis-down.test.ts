/**
 * REDIS_URL set and Redis down (a port nothing listens on): the limits fall back to this process's
 * memory at once, so key guessing still meets 429, and no request waits for Redis to fail.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createRateLimits } from '../../src/http/rate-limit/index.ts';
import { RedisBuckets } from '../../src/http/rate-limit/redis-buckets.ts';
import { createTestApp, expectProblem, type TestApp } from '../support/app.ts';

const NOBODY = 'redis://127.0.0.1:9';

describe('rate limits with Redis down', () => {
  let h: TestApp | null = null;
  afterEach(async () => {
    await h?.close();
    h = null;
  });

  it('decide from memory, synchronously (no promise, so no wait), and still refuse', async () => {
    const errors: string[] = [];
    const buckets = new RedisBuckets(NOBODY, { onError: (msg) => errors.push(msg) });
    try {
      expect(await buckets.connected()).toBe(false);
      expect(buckets.shared).toBe(false);
      const rule = { name: 'key', capacity: 2, perSecond: 0.01 };
      const decisions = [1, 2, 3].map(() => buckets.take('down', rule));
      expect(decisions.some((d) => d instanceof Promise)).toBe(false);
      expect(decisions.map((d) => (d as { allowed: boolean }).allowed)).toEqual([true, true, false]);
      expect(errors[0]).toMatch(/rate limits in memory/);
    } finally {
      await buckets.close();
    }
  });

  it('bad keys from one address get 429 after AUTH_FAILURES_PER_MINUTE, answered without Redis’ delay', async () => {
    // One request a second per key (bursts of 2): a burst of 10 meets 429 however slowly a loaded
    // machine answers it (all 10 would have to take 8 s to pass).
    const rateLimits = await createRateLimits({ perSecond: 1, authFailuresPerMinute: 10, redisUrl: NOBODY });
    h = await createTestApp({ rateLimits });
    // Known before the guessing starts: a valid key is never refused for what the address did.
    expect((await h.app.inject({ url: '/api/v1/public/v1/account', headers: h.auth })).statusCode).toBe(200);
    const statuses: number[] = [];
    const started = performance.now();
    for (let i = 0; i < 40; i++) {
      const res = await h.app.inject({ url: '/api/v1/public/v1/account', headers: { authorization: `Bearer sk_live_guess${i}` } });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) expectProblem(res, 429, 'rate_limited');
    }
    const perRequestMs = (performance.now() - started) / 40;
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
    // Waiting on Redis cost 450–1000 ms a request; a loaded runner answers these in a few ms.
    expect(perRequestMs).toBeLessThan(200);
    // A good key is limited per key too, from memory.
    const good = await Promise.all(Array.from({ length: 10 }, () => h!.app.inject({ url: '/api/v1/public/v1/account', headers: h!.auth })));
    expect(good.filter((r) => r.statusCode === 429).length).toBeGreaterThan(0);
    expect(good.filter((r) => r.statusCode === 200).length).toBeGreaterThan(0);
    expect(good.every((r) => r.statusCode === 200 || r.statusCode === 429)).toBe(true);
  });
});
