import { threadId } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import { PlanningPool } from '../../src/planning/pool.ts';
import type { PlanInput } from '../../src/core/set.ts';
import { habitly } from './listings.ts';

const input: PlanInput = { listings: [habitly], extraContext: null, request: { device: 'iphone-69', count: 4 } };

describe('the planning pool', () => {
  const warnings: string[] = [];
  const pool = new PlanningPool(null, { warn: (_obj, msg) => warnings.push(msg) });
  afterAll(() => pool.close());

  it('plans in a worker thread exactly what the planner plans in this one', async () => {
    expect(threadId).toBe(0);
    expect(await pool.plan(input)).toEqual(planScreenshotSet(input));
  });

  it('a planning problem crosses the thread boundary as the same Problem', async () => {
    await expect(pool.plan({ ...input, request: { device: 'iphone-69', narrativeId: 'no-such-narrative' } })).rejects.toMatchObject({
      name: 'Problem',
      status: 400,
      code: 'validation_failed',
    });
  });

  it('an aborted signal abandons the task', async () => {
    const abort = new AbortController();
    abort.abort(new Error('attempt over'));
    await expect(pool.plan(input, abort.signal)).rejects.toThrow();
  });
});
