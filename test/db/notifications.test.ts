import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Notifications } from '../../src/db/notifications.ts';
import { NotifiedCache } from '../../src/db/notified-cache.ts';
import { NotifyBatcher } from '../../src/db/notify-batcher.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { until } from '../support/jobs.ts';

describe('the LISTEN connection and the caches it keeps correct', () => {
  let t: TestDatabase;
  let n: Notifications;
  beforeEach(async () => {
    t = await createTestDatabase();
    n = new Notifications(t.url, () => undefined, 100);
    await n.start();
  });
  afterEach(async () => {
    await n.close();
    await t.drop();
  });

  const cache = (maxAgeMs = 60_000, now?: () => number) =>
    new NotifiedCache<string>({ notifications: n, channel: 'shotgen_credits', maxEntries: 3, maxAgeMs, now });

  it('evicts on NOTIFY, and never stores a value read while a change raced it', async () => {
    const c = cache();
    c.set('a', 'v1', c.ticket());
    expect(c.get('a')).toBe('v1');
    const delivered = new Promise<void>((resolve) => n.subscribe('shotgen_credits', { onNotify: () => resolve() }));
    await t.pool.query(`SELECT pg_notify('shotgen_credits', 'a')`);
    await delivered;
    expect(c.get('a')).toBeUndefined();
    // A change to the same key while it was read: not stored. To another key: no matter.
    let ticket = c.ticket();
    c.invalidate('a');
    c.set('a', 'stale', ticket);
    expect(c.get('a')).toBeUndefined();
    ticket = c.ticket();
    c.invalidate('b');
    c.set('a', 'fresh', ticket);
    expect(c.get('a')).toBe('fresh');
    ticket = c.ticket();
    c.reset();
    c.set('a', 'stale', ticket);
    expect(c.get('a')).toBeUndefined();
  });

  it('drops everything and stores nothing while the connection is lost, then recovers', async () => {
    const c = cache();
    c.set('a', 'v1', c.ticket());
    await t.pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'shotgen-listen'`,
    );
    await until(async () => !n.connected, 5_000);
    expect(c.get('a')).toBeUndefined();
    c.set('a', 'v2', c.ticket());
    expect(c.get('a')).toBeUndefined();
    await until(async () => n.connected, 5_000);
    c.set('a', 'v3', c.ticket());
    expect(c.get('a')).toBe('v3');
  });

  it('batches notifications: many within the window go out in one statement, each delivered once', async () => {
    const seen: string[] = [];
    n.subscribe('shotgen_credits', { onNotify: (p) => seen.push(p) });
    let statements = 0;
    const counting = { query: (...args: Parameters<typeof t.pool.query>) => (statements++, t.pool.query(...args)) } as typeof t.pool;
    const batcher = new NotifyBatcher(counting, 20);
    for (const id of ['acc_a', 'acc_b', 'acc_a', 'acc_c']) batcher.notify('shotgen_credits', id);
    await until(async () => seen.length === 3, 5_000);
    expect(seen.sort()).toEqual(['acc_a', 'acc_b', 'acc_c']);
    expect(statements).toBe(1);
    await batcher.flush();
    expect(statements).toBe(1);
  });

  it('expires entries after their maximum age and keeps the most recently used', async () => {
    let clock = 0;
    const c = cache(1_000, () => clock);
    for (const k of ['a', 'b', 'c']) c.set(k, k, c.ticket());
    c.get('a');
    c.set('d', 'd', c.ticket());
    expect([c.get('a'), c.get('b'), c.get('c'), c.get('d')]).toEqual(['a', undefined, 'c', 'd']);
    clock = 1_001;
    expect(c.get('a')).toBeUndefined();
  });
});
