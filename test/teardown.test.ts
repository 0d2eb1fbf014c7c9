/** One teardown list: stages in order, every step tried, every failure reported, run once. */
import { describe, expect, it } from 'vitest';
import { Teardown } from '../src/teardown.ts';

describe('Teardown', () => {
  it('runs the stages in order, the steps of a stage together, each given the time left', async () => {
    const t = new Teardown();
    const seen: string[] = [];
    t.add('database', 'db', () => seen.push('db'));
    t.add('intake', 'server', async (ms) => {
      await new Promise((r) => setTimeout(r, 20));
      seen.push(`server ${ms}`);
    });
    t.add('intake', 'worker', (ms) => seen.push(`worker ${ms}`));
    t.add('resources', 'pool', () => seen.push('pool'));
    t.add('flush', 'batches', () => seen.push('batches'));
    await t.run(500);
    expect(seen).toEqual(['worker 500', 'server 500', 'batches', 'pool', 'db']);
  });

  it('a failing step does not keep the others from running; every failure is named; a second run is the first', async () => {
    const t = new Teardown();
    let closed = 0;
    t.add('intake', 'the worker', () => {
      throw new Error('stuck');
    });
    t.add('resources', 'the pool', () => Promise.reject(new Error('gone')));
    t.add('database', 'the database', () => closed++);
    const first = t.run(0);
    await expect(first).rejects.toThrow(/stopping the worker failed: stuck; stopping the pool failed: gone/);
    expect(closed).toBe(1);
    expect(t.run(0)).toBe(first);
    await first.catch(() => undefined);
    expect(closed).toBe(1);
  });

  it('resolves when nothing fails or nothing was registered', async () => {
    await expect(new Teardown().run(0)).resolves.toBeUndefined();
  });
});
