/**
 * The per-key limit across two API services (what `shotgen serve --role api` starts, from the same
 * environment) sharing Redis at 127.0.0.1:6379. Each run uses its own key prefix and deletes only
 * its own keys.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { loadConfig } from '../../src/config.ts';
import { newId } from '../../src/core/ids.ts';
import { RedisBuckets } from '../../src/http/rate-limit/redis-buckets.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { accountWithKey } from '../support/fixtures.ts';
import { until } from '../support/jobs.ts';
import { startService, type Service } from '../../src/service.ts';
import { tier } from '../support/tiers.ts';
import { scaled } from '../support/timing.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisAnswers(): Promise<boolean> {
  const { hostname, port } = new URL(REDIS_URL);
  return new Promise((resolve) => {
    const s = net.connect({ host: hostname, port: Number(port || 6379) });
    s.setTimeout(1_000);
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
    s.once('timeout', () => (s.destroy(), resolve(false)));
  });
}

const redisTier = tier('Redis', {
  available: await redisAnswers(),
  missing: `no Redis answers at ${REDIS_URL} (CI and the development machines run one)`,
});

redisTier('rate limits in Redis', () => {
  const prefix = `shotgen-test:${newId('req')}:`;
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis(REDIS_URL);
  });
  afterAll(async () => {
    // Only this run's keys: never FLUSHALL a Redis others use.
    for await (const keys of redis.scanStream({ match: `${prefix}*`, count: 100 }))
      if ((keys as string[]).length) await redis.del(...(keys as string[]));
    await redis.quit();
  });

  it('take tokens atomically: 50 concurrent takes from a bucket of 10 allow exactly 10', async () => {
    const buckets = new RedisBuckets(REDIS_URL, { keyPrefix: prefix });
    try {
      expect(await buckets.connected()).toBe(true);
      const rule = { name: 'key', capacity: 10, perSecond: 0.001 };
      const decisions = await Promise.all(Array.from({ length: 50 }, () => buckets.take('atomic', rule)));
      expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
      expect(decisions.find((d) => !d.allowed)).toMatchObject({ remaining: 0, retryAfterS: expect.any(Number) });
      expect(await redis.pttl(`${prefix}atomic`)).toBeGreaterThan(0);
    } finally {
      await buckets.close();
    }
  });

  it('fall back to memory while Redis is away, and go back to Redis after the pause once it answers', async () => {
    // A proxy in front of the real Redis that the test can cut and restore.
    const { hostname, port } = new URL(REDIS_URL);
    const links = new Set<net.Socket>();
    const proxy = net.createServer((client) => {
      const upstream = net.connect({ host: hostname, port: Number(port || 6379) });
      links.add(client).add(upstream);
      client.pipe(upstream).pipe(client);
      const drop = () => (client.destroy(), upstream.destroy());
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const proxyPort = (proxy.address() as net.AddressInfo).port;
    const buckets = new RedisBuckets(`redis://127.0.0.1:${proxyPort}`, { keyPrefix: prefix, retryAfterMs: 300 });
    const rule = { name: 'key', capacity: 3, perSecond: 0.001 };
    try {
      expect(await buckets.connected()).toBe(true);
      expect(await buckets.take('cut', rule)).toMatchObject({ allowed: true, remaining: 2 });
      // Cut: the proxy stops accepting and drops what it carries.
      await new Promise<void>((r) => {
        proxy.close(() => r());
        for (const s of links) s.destroy();
      });
      await until(async () => !buckets.shared, 1_000, 10);
      const fromMemory = [1, 2, 3, 4].map(() => buckets.take('cut', rule));
      expect(fromMemory.some((d) => d instanceof Promise)).toBe(false);
      expect(fromMemory.map((d) => (d as { allowed: boolean }).allowed)).toEqual([true, true, true, false]);
      // Restore on the same port: the reconnect after the pause finds it, and Redis decides again.
      await new Promise<void>((r) => proxy.listen(proxyPort, '127.0.0.1', r));
      // The pause (300 ms) and the reconnect: a deadline scaled for a loaded machine, not a count of sleeps.
      await until(async () => buckets.shared, 3_000, 10);
      expect(await buckets.take('cut', rule)).toMatchObject({ allowed: true, remaining: 1 });
    } finally {
      await buckets.close();
      for (const s of links) s.destroy();
      await new Promise((r) => proxy.close(r));
    }
  });

  // In this process rather than two children: each service has its own buckets, its own memory
  // fallback and its own Redis connection (src/http/rate-limit), as a process does, and two child
  // processes cost 16 s at load 15 where these take a few. Without Redis the pair allows 4 of 8.
  describe('across two API services', () => {
    let t: TestDatabase;
    const services: Service[] = [];
    afterEach(async () => {
      await Promise.all(services.splice(0).map((s) => s.close()));
      await t.drop();
    });

    it(
      'one key’s limit holds for the pair, not per process',
      async () => {
        t = await createTestDatabase();
        const { key } = await accountWithKey(t.pool);
        const env = {
          DATABASE_URL: t.url,
          // Its own scratch directory: nothing of the checkout's ./data is shared with other tests.
          DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'shotgen-redis-pair-')),
          PORT: '0',
          HOST: '127.0.0.1',
          LOG_LEVEL: 'silent',
          REDIS_URL,
          REDIS_KEY_PREFIX: `${prefix}pair:`,
          RATE_LIMIT_PER_SECOND: '1',
        };
        await Promise.all([1, 2].map(async () => services.push(await startService(loadConfig(env), { role: 'api' }))));
        const bases = services.map((s) => s.address!);
        const statuses: number[] = [];
        // Burst 2 at 1 a second: 8 requests alternating between the processes within well under a
        // second allow 2 (3 if a second passes), where two separate in-memory limits would allow 4.
        const started = Date.now();
        for (let i = 0; i < 8; i++) {
          const res = await fetch(`${bases[i % 2]}/api/v1/public/v1/account`, { headers: { authorization: `Bearer ${key}` } });
          statuses.push(res.status);
          // Every refusal says when to come back; an answer does not.
          expect(Number(res.headers.get('retry-after') ?? 0) >= 1).toBe(res.status === 429);
          expect(res.headers.get('ratelimit-policy')).toContain('"key";q=2;w=2');
        }
        const elapsedS = (Date.now() - started) / 1000;
        const allowed = statuses.filter((s) => s === 200).length;
        expect(allowed).toBeGreaterThanOrEqual(2);
        expect(allowed).toBeLessThanOrEqual(2 + Math.floor(elapsedS));
        expect(statuses.filter((s) => s === 429).length).toBe(8 - allowed);
      },
      scaled(90_000),
    );
  });
});
