/**
 * The caption model's failures seen from a real job: the API charges, the worker plans in the
 * planning thread (PlanningPool) with the fake model, renders, and the job says where each
 * slide's words came from. A model that answers 500 or hangs costs the job at most its model
 * budget: the set succeeds on the rule writer, charged once, while a hung answer is still owed
 * (a condition, not a clock: no test here times the job). A flawed slide is mended alone.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Worker } from '../../src/queue/worker.ts';
import { setJobs, type SetWorker } from '../../src/sets/job-queue.ts';
import { screenshotSetRunner } from '../../src/sets/run.ts';
import { PlanningPool } from '../../src/planning/pool.ts';
import { emptyScreenshots } from '../../src/core/listing.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { solidPng } from '../support/fake-images.ts';
import { captionModel, startFakeLlm, type FakeLlm, type FakeReply } from '../support/fake-llm.ts';
import { insertApp } from '../support/fixtures.ts';
import { scaled } from '../support/timing.ts';
import { renderPool } from '../sets/support.ts';
import { habitly } from './listings.ts';

/**
 * The model's whole budget per set: small, so a hang shows as a fallback, not a slow test; scaled,
 * so that a prompt answer still comes in on a loaded machine (at a fixed 1.5 s the set that mends
 * one slide got 'rules' for all of them at load 30). The hang below lasts ten minutes, past any
 * scaling and any test's timeout: the job that ends has not waited for it.
 */
const MODEL_BUDGET_MS = scaled(1_500);

// One fake model and one planning thread for the file, each test setting the model's answer: a
// planning pool's thread loads the planner again (about a second of CPU) and keeps nothing between
// tasks but its caches of the listing's analysis. Each test still has its own app, database and worker.
let answer: (body: Record<string, unknown>) => FakeReply = () => ({ status: 500, raw: '{}' });
let fake: FakeLlm;
let planner: PlanningPool;
let h: TestApp | null = null;
let worker: SetWorker | null = null;

beforeAll(async () => {
  renderPool();
  fake = await startFakeLlm((body) => answer(body));
  planner = new PlanningPool({ ...llm(), timeoutMs: MODEL_BUDGET_MS });
});
afterEach(async () => {
  await worker?.stop(5_000);
  await h?.close();
  h = worker = null;
});
afterAll(async () => {
  await planner.close();
  // Ends the hang's open answer too.
  await fake.close();
});

const llm = () => ({ baseUrl: fake.baseUrl, model: 'm', apiKey: null });

async function jobWith(reply: (body: Record<string, unknown>) => FakeReply) {
  answer = reply;
  fake.requests.length = 0;
  const answeredBefore = fake.answered;
  h = await createTestApp({ llm: llm() });
  worker = new Worker(
    h.t.pool,
    h.notifications,
    screenshotSetRunner({
      db: h.t.pool,
      planner,
      pictures: { objects: h.services.objects, renderer: renderPool(), storeImageOrigins: [], now: () => new Date() },
    }),
    { queue: setJobs, concurrency: 1, leaseMs: 60_000, retryDelayMs: () => 10 },
  );
  worker.start();
  // The listing's own screenshots would be fetched from a store: the slides frame an uploaded screen instead.
  const appId = await insertApp(h.t.pool, h.account.id, { ...habitly, screenshots: emptyScreenshots() });
  const uploaded = await h.app.inject({
    method: 'POST',
    url: `/api/v1/public/v1/apps/${appId}/screens`,
    headers: { ...h.auth, 'content-type': 'image/png' },
    payload: await solidPng(1290, 2796, 'green'),
  });
  expect(uploaded.statusCode).toBe(201);
  const created = await h.app.inject({
    method: 'POST',
    url: '/api/v1/public/v1/screenshots',
    headers: h.auth,
    payload: { appId, device: 'iphone-69', count: 5, captionLength: 'short' },
  });
  expect(created.statusCode, created.body).toBe(201);
  let job;
  do
    job = (
      await h.app.inject({
        method: 'GET',
        url: `/api/v1/public/v1/jobs/${created.json().jobId}`,
        headers: { ...h.auth, prefer: 'wait=30' },
      })
    ).json();
  while (job.status === 'queued' || job.status === 'running');
  const answered = fake.answered - answeredBefore;
  const { rows } = await h.t.pool.query<{ used: number; entries: number }>(
    `SELECT (SELECT coalesce(sum(used), 0) FROM credit_periods)::int AS used, (SELECT count(*) FROM credit_ledger)::int AS entries`,
  );
  return { job, answered, credits: rows[0], slides: job.result?.slides as { headline: string; captionSource: string }[] };
}

const one = (headline: string) => [{ headline, subheadline: null }];

describe('a job whose caption model fails', () => {
  for (const [what, reply] of [
    ['answers 500', (): FakeReply => ({ status: 500, raw: '{"error":{"message":"boom"}}' })],
    ['hangs', (): FakeReply => ({ content: { slides: [] }, delayMs: 600_000 })],
  ] as const) {
    it(
      `succeeds on the rule writer when the model ${what}, without waiting for it, charged once`,
      { timeout: scaled(60_000) },
      async () => {
        const { job, answered, credits, slides } = await jobWith(reply);
        expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
        expect(slides).toHaveLength(5);
        expect(slides.map((s) => s.captionSource)).toEqual(Array(5).fill('rules'));
        expect(fake.requests.length).toBeGreaterThan(0);
        // The 500s were each answered; the hang's answer was never sent, yet the job ended: it
        // stopped waiting at its budget and wrote the set by rules.
        expect(answered).toBe(what === 'hangs' ? 0 : fake.requests.length);
        expect(credits.used).toBe(5);
      },
    );
  }

  it('keeps the model’s words on the good slides and mends only the flawed one', { timeout: scaled(60_000) }, async () => {
    const good = {
      1: one('Build Better Habits Daily'),
      2: one('Track Unlimited Habits'),
      3: one('Smart Reminders That Adapt'),
      4: one('Beautiful Charts and Streaks'),
      5: one('Widgets for Quick Check-Ins'),
    };
    // Slide 3 claims a rating the listing does not have, in the first answer and in the repair.
    const { job, slides, credits } = await jobWith(
      captionModel({ ...good, 3: one('Rated 4.9 by 2M Users') }, { 3: one('Rated 4.9 by 2M Users') }),
    );
    expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
    expect(slides.map((s) => s.captionSource)).toEqual(['model', 'model', 'rules', 'model', 'model']);
    for (const i of [0, 1, 3, 4]) expect(slides[i].headline).toBe(good[(i + 1) as 1].at(0)!.headline);
    expect(slides[2].headline).not.toMatch(/4\.9|2M/);
    expect(credits.used).toBe(5);
  });
});
