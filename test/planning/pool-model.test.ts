import { afterEach, describe, expect, it } from 'vitest';
import type { AnswerCache } from '../../src/captions/model/answer-cache.ts';
import { PlanningPool } from '../../src/planning/pool.ts';
import type { PlanInput } from '../../src/core/set.ts';
import { registry } from '../../src/metrics/index.ts';
import { scaled } from '../support/timing.ts';
import { captionModel, startFakeLlm, type FakeLlm } from '../support/fake-llm.ts';
import { habitly } from './listings.ts';

const input: PlanInput = { listings: [habitly], extraContext: null, request: { device: 'iphone-69', count: 2, captionLength: 'short' } };
const GOOD = {
  1: [{ headline: 'Build Better Habits Daily', subheadline: null }],
  2: [{ headline: 'Track Unlimited Habits', subheadline: null }],
};

/** The PostgreSQL cache's contract, in memory: per account and key. */
function memoryCache(): AnswerCache & { rows: Map<string, Record<string, string>> } {
  const rows = new Map<string, Record<string, string>>();
  return {
    rows,
    get: async (accountId, key) => rows.get(`${accountId}/${key}`) ?? {},
    put: async (accountId, key, answers) => void rows.set(`${accountId}/${key}`, { ...rows.get(`${accountId}/${key}`), ...answers }),
  };
}

let fake: FakeLlm | null = null;
let pool: PlanningPool | null = null;
afterEach(async () => {
  await pool?.close();
  await fake?.close();
  fake = null;
});

describe('the planning pool with a caption model', () => {
  it('keeps the answers per account, so a retried job does not ask again; reports the figures to the metrics', async () => {
    fake = await startFakeLlm(captionModel(GOOD));
    const cache = memoryCache();
    pool = new PlanningPool({ baseUrl: fake.baseUrl, model: 'm', apiKey: null, timeoutMs: scaled(5_000) }, undefined, 1, cache);
    const first = await pool.plan(input, undefined, 'acc_a');
    expect(first.slides.map((s) => s.captionSource)).toEqual(['model', 'model']);
    const again = await pool.plan(input, undefined, 'acc_a');
    expect(again).toEqual(first);
    expect(fake.requests).toHaveLength(1);
    // Another account asks for itself: answers are never shared across accounts.
    await pool.plan(input, undefined, 'acc_b');
    expect(fake.requests).toHaveLength(2);
    const metrics = await registry.metrics();
    expect(metrics).toMatch(/shotgen_caption_model_calls_total\{outcome="cached"\} [1-9]/);
    expect(metrics).toMatch(/shotgen_caption_model_seconds_count [1-9]/);
  });
});
