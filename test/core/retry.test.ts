/** The one retry vocabulary (src/core/retry.ts): the pause, the loop, and every policy as an instance of it. */
import { describe, expect, it } from 'vitest';
import { backoffDelay, noRetry, parseRetryAfter, scheduled, withRetries, type RetryPolicy } from '../../src/core/retry.ts';
import { DEFAULT_RETRY } from '../../src/publishing/retry.ts';
import { JOB_RETRY } from '../../src/queue/worker.ts';
import { readerRetry } from '../../src/stores/http.ts';
import { WEBHOOK_RETRY } from '../../src/webhooks/deliveries.ts';

const LOW = () => 0;
const MID = () => 0.5;
/** The top of the jitter, which Math.random approaches but never reaches. */
const HIGH = () => 1;

/** The pauses after tries 1..n, at the jitter's bottom and top. */
const ranges = (policy: RetryPolicy, n: number) =>
  Array.from({ length: n }, (_, i) => [backoffDelay(policy, i + 1, LOW), backoffDelay(policy, i + 1, HIGH)]);

class Flaky extends Error {
  constructor(readonly retryAfter: number | null = null) {
    super('flaky');
  }
}
const retryable = (e: unknown) => e instanceof Flaky;
const retryAfterMs = (e: unknown) => (e as Flaky).retryAfter;

describe('backoffDelay', () => {
  it('doubles from the base, stops doubling at the cap, and jitters every pause, the capped ones too', () => {
    const p: RetryPolicy = { attempts: 10, baseDelayMs: 100, maxDelayMs: 500, jitter: [0.5, 1.5] };
    expect([1, 2, 3, 4, 5].map((n) => backoffDelay(p, n, MID))).toEqual([100, 200, 400, 500, 500]);
    expect(ranges(p, 5)).toEqual([
      [50, 150],
      [100, 300],
      [200, 600],
      [250, 750],
      [250, 750],
    ]);
  });

  it('jitters up to twice the pause by default', () => {
    expect(ranges({ attempts: 3, baseDelayMs: 10, maxDelayMs: 1_000 }, 2)).toEqual([
      [10, 20],
      [20, 40],
    ]);
  });

  it('follows a schedule instead of doubling, one try more than it has pauses', () => {
    const p = scheduled([50, 100, 150], [0.8, 1.2]);
    expect(p.attempts).toBe(4);
    expect([1, 2, 3].map((n) => backoffDelay(p, n, MID))).toEqual([50, 100, 150]);
    expect(ranges(p, 3)).toEqual([
      [40, 60],
      [80, 120],
      [120, 180],
    ]);
    expect(scheduled([]).attempts).toBe(1);
  });
});

describe('every retry of the service is an instance', () => {
  it('store readers: two tries within the budget, 250 ms × 1-2 between them', () => {
    const p = readerRetry(10_000, 250);
    expect([p.attempts, p.budgetMs]).toEqual([2, 10_000]);
    expect(ranges(p, 1)).toEqual([[250, 500]]);
  });

  it('publishing: 5 tries, 250 ms doubling × 1-2, a Retry-After waited out up to 2 min', () => {
    expect([DEFAULT_RETRY.attempts, DEFAULT_RETRY.maxRetryAfterMs]).toEqual([5, 120_000]);
    expect(ranges(DEFAULT_RETRY, 4)).toEqual([
      [250, 500],
      [500, 1_000],
      [1_000, 2_000],
      [2_000, 4_000],
    ]);
  });

  it('jobs: 2 s doubling up to 5 min, ± 50 %', () => {
    expect(ranges(JOB_RETRY, 2)).toEqual([
      [1_000, 3_000],
      [2_000, 6_000],
    ]);
    expect(backoffDelay(JOB_RETRY, 30, MID)).toBe(300_000);
  });

  it('webhooks: the CONTRACT schedule, 5 s … 6 h ± 20 %, then failed', () => {
    expect(WEBHOOK_RETRY.attempts).toBe(7);
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(WEBHOOK_RETRY, n, MID))).toEqual([
      5_000, 30_000, 120_000, 600_000, 3_600_000, 21_600_000,
    ]);
    expect(ranges(WEBHOOK_RETRY, 6).at(-1)).toEqual([17_280_000, 25_920_000]);
  });
});

describe('withRetries', () => {
  const fast: RetryPolicy = { attempts: 3, baseDelayMs: 1, maxDelayMs: 4 };

  it('tries up to the policy’s attempts, pausing as backoffDelay says, and throws the last error', async () => {
    const tries: number[] = [];
    const pauses: number[] = [];
    const e = await withRetries(
      { ...fast, baseDelayMs: 2 },
      async (n) => {
        tries.push(n);
        throw new Flaky();
      },
      { retryable, random: MID, onRetry: (_e, _n, ms) => pauses.push(ms) },
    ).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(Flaky);
    expect(tries).toEqual([1, 2, 3]);
    expect(pauses).toEqual([3, 6]);
  });

  it('returns the first success', async () => {
    let n = 0;
    expect(await withRetries(fast, async () => (++n < 2 ? Promise.reject(new Flaky()) : 'ok'), { retryable })).toBe('ok');
    expect(n).toBe(2);
  });

  it('ends at once on an error that is not retryable, or on one a try wraps in noRetry', async () => {
    let tries = 0;
    const bug = new Error('bug');
    await expect(
      withRetries(
        fast,
        async () => {
          tries++;
          throw bug;
        },
        { retryable },
      ),
    ).rejects.toBe(bug);
    const looked = new Error('the look failed');
    await expect(
      withRetries(
        fast,
        async (n) => {
          tries++;
          if (n > 1) await noRetry(Promise.reject(looked));
          throw new Flaky();
        },
        { retryable },
      ),
    ).rejects.toBe(looked);
    expect(tries).toBe(3);
  });

  it('waits out a Retry-After within the cap before the pause; a longer one fails at once', async () => {
    const capped = { ...fast, maxRetryAfterMs: 1_000 };
    let n = 0;
    const started = performance.now();
    await withRetries(capped, async () => (++n === 1 ? Promise.reject(new Flaky(150)) : 'ok'), { retryable, retryAfterMs });
    expect(performance.now() - started).toBeGreaterThanOrEqual(145);
    n = 0;
    await expect(
      withRetries(capped, async () => (++n, Promise.reject(new Flaky(5_000))), { retryable, retryAfterMs }),
    ).rejects.toBeInstanceOf(Flaky);
    expect(n).toBe(1);
  });

  it('ignores a Retry-After when the policy sets no cap for one', async () => {
    let n = 0;
    const answer = withRetries(fast, async () => (++n === 1 ? Promise.reject(new Flaky(3_600_000)) : 'ok'), { retryable, retryAfterMs });
    expect(await answer).toBe('ok');
  });

  it('gives a try that may be followed 2/3 of the budget left and the last try the rest', async () => {
    const budget = 600;
    const started = performance.now();
    const ended: number[] = [];
    const hang = (signal: AbortSignal) =>
      new Promise<never>((_, reject) =>
        signal.addEventListener('abort', () => {
          ended.push(performance.now() - started);
          reject(new Flaky());
        }),
      );
    await expect(
      withRetries({ ...fast, attempts: 2, budgetMs: budget }, (_n, signal) => hang(signal), { retryable }),
    ).rejects.toBeInstanceOf(Flaky);
    expect(ended).toHaveLength(2);
    expect(ended[0]).toBeGreaterThanOrEqual((budget * 2) / 3 - 5);
    expect(ended[1]).toBeGreaterThanOrEqual(budget - 5);
  });

  it('makes no try the budget could not give MIN_TRY_MS after the longest pause', async () => {
    let tries = 0;
    const policy: RetryPolicy = { attempts: 2, baseDelayMs: 40, maxDelayMs: 40, budgetMs: 120 };
    await expect(withRetries(policy, async () => (tries++, Promise.reject(new Flaky())), { retryable })).rejects.toBeInstanceOf(Flaky);
    // 120 ms left at most, less the longest pause (80 ms): under 50 ms, so no second try.
    expect(tries).toBe(1);
  });

  it('an aborted signal ends the pause and the tries with its reason', async () => {
    const stop = new AbortController();
    const reason = new Error('stopping');
    let tries = 0;
    const run = withRetries(
      { ...fast, baseDelayMs: 60_000, maxDelayMs: 60_000 },
      async () => {
        tries++;
        throw new Flaky();
      },
      { retryable, signal: stop.signal, onRetry: () => stop.abort(reason) },
    );
    await expect(run).rejects.toBe(reason);
    expect(tries).toBe(1);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates, and nothing else', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('30', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });
});
