/**
 * App Store Connect's hourly request budget per key (X-Rate-Limit: user-hour-lim:N;user-hour-rem:M;):
 * when it runs low the step is deferred through the task runner instead of spending the rest on
 * 429s, and the deferred run resumes without duplicates.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { budgetWaitMs, parseRateLimit } from '../../src/publishing/app-store/client.ts';
import { advancePublication, Deferred } from '../../src/publishing/runner.ts';
import { publicationStep } from '../../src/publishing/start.ts';
import { md5, png } from '../fake-stores/helpers.ts';
import { ASC_APP, connectAppStore, type PublishingHarness, succeededJob, publishingHarness } from './support.ts';

let p: PublishingHarness;
beforeEach(async () => {
  p = await publishingHarness();
});
afterEach(async () => p.close());

/** Requests the fake counted against the key: every authenticated one (upload parts carry no token). */
const spent = () => p.asc.calls.filter((c) => !c.path.startsWith('/upload/')).length;

async function awaitingApproval(seeds: number[]): Promise<string> {
  const sc = await connectAppStore(p);
  const job = await succeededJob(p, { device: 'iphone-69', seeds });
  const id = (await p.post('/publications', { jobId: job, connectionId: sc })).json().id as string;
  await p.drain();
  expect((await p.post(`/publications/${id}/approve`)).statusCode).toBe(202);
  p.queued.length = 0;
  return id;
}

describe("App Store Connect's hourly request budget", () => {
  it('reads the header, and waits in proportion to what is missing, a minute to an hour', () => {
    expect(parseRateLimit('user-hour-lim:3500;user-hour-rem:42;')).toEqual({ limit: 3500, remaining: 42 });
    expect(parseRateLimit(null)).toBeNull();
    expect(parseRateLimit('garbage')).toBeNull();
    expect(budgetWaitMs({ limit: 3600, remaining: 170 }, 180)).toBe(60_000);
    expect(budgetWaitMs({ limit: 3600, remaining: 0 }, 180)).toBe(181_000);
    expect(budgetWaitMs({ limit: 10, remaining: 0 }, 9)).toBe(3_600_000);
  });

  it('defers the step when the budget runs low, with no 429 and nothing failed; the next run finishes without duplicates', async () => {
    const id = await awaitingApproval([1, 2, 3]);
    // A small budget: a few requests left beyond the reserve, not enough for three uploads.
    p.asc.setHourlyRequestLimit(spent() + 8);
    p.runner.appStore = { ...p.runner.appStore, budgetReserve: () => 2 };
    const before = p.asc.calls.length;
    const deferred = await advancePublication(p.runner, id, { lastAttempt: true }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(deferred).toBeInstanceOf(Deferred);
    expect((deferred as Deferred).delayMs).toBeGreaterThanOrEqual(60_000);
    expect((deferred as Deferred).message).toMatch(/hourly request budget/);
    // It stopped at the reserve: the budget was never overrun.
    expect(p.asc.calls.slice(before).filter((c) => c.status === 429)).toEqual([]);
    const midway = (await p.get(`/publications/${id}`)).json();
    expect(midway.status).toBe('applying');
    expect(midway.error).toBeNull();
    expect(midway.plan.items.some((i: { state: string }) => i.state !== 'done')).toBe(true);

    // The task runner queues the deferred run for later, and the task itself ends well.
    const requeued: [string, number][] = [];
    await publicationStep(p.runner, async (pubId, afterMs) => void requeued.push([pubId, afterMs]))(id, {
      retryCount: 0,
      lastAttempt: true,
    });
    expect(requeued).toHaveLength(1);
    expect(requeued[0][0]).toBe(id);
    expect(requeued[0][1]).toBeGreaterThanOrEqual(60_000);

    // An hour later the budget is back: the run resumes where it stopped.
    p.asc.setHourlyRequestLimit(3600);
    await advancePublication(p.runner, id, { lastAttempt: true });
    const done = (await p.get(`/publications/${id}`)).json();
    expect(done.status, JSON.stringify(done.error)).toBe('published');
    const shots = p.asc.screenshots(ASC_APP, 'en-US', 'APP_IPHONE_67');
    expect(shots.map((s) => s.sourceFileChecksum)).toEqual(await Promise.all([1, 2, 3].map(async (s) => md5(await png(s)))));
  });

  it('a 429 for a spent budget defers at once instead of waiting it out', async () => {
    const id = await awaitingApproval([1]);
    p.asc.setHourlyRequestLimit(spent());
    const before = p.asc.calls.length;
    await expect(advancePublication(p.runner, id, { lastAttempt: true })).rejects.toBeInstanceOf(Deferred);
    expect(p.asc.calls.slice(before).map((c) => c.status)).toEqual([429]);
    expect((await p.get(`/publications/${id}`)).json().status).toBe('applying');
  });
});
