/**
 * The per-key limit across two API processes (`shotgen serve --role api`, as deployed) sharing
 * Redis at 127.0.0.1:6379. Each run uses its own key prefix and deletes only its own keys.
 */
import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { newId } from '../../src/ids.ts';
import { RedisBuckets } from '../../src/http/rate-limit/redis-buckets.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { accountWithKey } from '../support/fixtures.ts';
import { shotgen, type Child } from '../support/processes.ts';

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

const available = await redisAnswers();
if (!available) console.warn(`rate-limits-redis: skipped, no Redis at ${REDIS_URL} (CI and the development machines run one)`);

describe.skipIf(!available)('rate limits in Redis', () => {
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
      const rule = { name: 'key', capacity: 10, perSecond: 0.001 };
      const decisions = await Promise.all(Array.from({ length: 50 }, () => buckets.take('atomic', rule)));
      expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
      expect(decisions.find((d) => !d.allowed)).toMatchObject({ remaining: 0, retryAfterS: expect.any(Number) });
      expect(await redis.pttl(`${prefix}atomic`)).toBeGreaterThan(0);
    } finally {
      await buckets.close();
    }
  });

  it('let requests through when Redis cannot be reached, and say so', async () => {
    const errors: string[] = [];
    const buckets = new RedisBuckets('redis://127.0.0.1:9', { keyPrefix: prefix, onError: (msg) => errors.push(msg) });
    try {
      const d = await buckets.take('down', { name: 'key', capacity: 2, perSecond: 1 });
      expect(d.allowed).toBe(true);
      expect(errors.length).toBeGreaterThan(0);
    } finally {
      await buckets.close();
    }
  });

  describe('across two API processes', () => {
    let t: TestDatabase;
    const children: Child[] = [];
    afterEach(async () => {
      await Promise.all(children.splice(0).map((c) => c.stop('SIGKILL')));
      await t.drop();
    });

    it('one key’s limit holds for the pair, not per process', async () => {
      t = await createTestDatabase();
      const { key } = await accountWithKey(t.pool);
      const env = {
        DATABASE_URL: t.url,
        PORT: '0',
        HOST: '127.0.0.1',
        REDIS_URL,
        REDIS_KEY_PREFIX: `${prefix}pair:`,
        RATE_LIMIT_PER_SECOND: '1',
      };
      const apis = [shotgen(['--json', 'serve', '--role', 'api'], env), shotgen(['--json', 'serve', '--role', 'api'], env)];
      children.push(...apis);
      await Promise.all(apis.map((a) => a.printed('"address"', 60_000)));
      const bases = apis.map(
        (a) =>
          (
            JSON.parse(
              a
                .output()
                .split('\n')
                .find((l) => l.includes('"address"'))!,
            ) as { address: string }
          ).address,
      );
      const statuses: number[] = [];
      // Burst 2 at 1 a second: 8 requests alternating between the processes within well under a
      // second allow 2 (3 if a second passes), where two separate in-memory limits would allow 4.
      const started = Date.now();
      for (let i = 0; i < 8; i++) {
        const res = await fetch(`${bases[i % 2]}/api/v1/public/v1/account`, { headers: { authorization: `Bearer ${key}` } });
        statuses.push(res.status);
        if (res.status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(res.headers.get('ratelimit-policy')).toContain('"key";q=2;w=2');
      }
      const elapsedS = (Date.now() - started) / 1000;
      const allowed = statuses.filter((s) => s === 200).length;
      expect(allowed).toBeGreaterThanOrEqual(2);
      expect(allowed).toBeLessThanOrEqual(2 + Math.floor(elapsedS));
      expect(statuses.filter((s) => s === 429).length).toBe(8 - allowed);
    }, 90_000);
  });
});
