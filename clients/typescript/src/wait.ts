/** waitForJob: long polls (`Prefer: wait`) until the job is finished, outlasting 429s and outages. */
import type { JobAnswer } from './client.ts';
import { retryAfterSeconds, ShotgenError, ShotgenTimeoutError } from './errors.ts';
import { sleep } from './retry.ts';
import { isFinished, type Job } from './types.ts';

export interface WaitOptions {
  /** Give up after this long (default 10 minutes) with a ShotgenTimeoutError. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Called with the job whenever its status or progress changed, the first answer included. */
  onProgress?: (job: Job) => void;
  /**
   * Seconds each request may be held by the server (1..30). Default 30, or 2 with onProgress: the
   * server answers a long poll early only when the job finishes, so progress shows at this pace.
   */
  pollSeconds?: number;
}

/** Answers the server gives while it cannot serve us yet: wait and ask again until the deadline. */
const TRANSIENT = new Set([429, 502, 503]);

export async function waitForJob(
  getJob: (jobId: string, opts: { wait: number; signal?: AbortSignal }) => Promise<JobAnswer>,
  jobId: string,
  opts: WaitOptions = {},
): Promise<Job> {
  const deadline = Date.now() + (opts.timeoutMs ?? 600_000);
  const pollSeconds = Math.min(30, Math.max(1, opts.pollSeconds ?? (opts.onProgress ? 2 : 30)));
  let last: Job | null = null;
  let seen = '';
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) throw new ShotgenTimeoutError(jobId, last);
    let answer: JobAnswer;
    try {
      answer = await getJob(jobId, { wait: Math.max(1, Math.min(pollSeconds, Math.floor(left / 1000))), signal: opts.signal });
    } catch (error) {
      if (!(error instanceof ShotgenError && TRANSIENT.has(error.status))) throw error;
      await sleep(Math.min(left, (error.retryAfter ?? 1) * 1000), opts.signal);
      continue;
    }
    last = answer.job;
    const state = `${last.status} ${JSON.stringify(last.progress ?? null)}`;
    if (state !== seen) {
      seen = state;
      opts.onProgress?.(last);
    }
    if (isFinished(last)) return last;
    // A server that held the request has already made us wait; one that did not asks for a pause.
    if (!answer.response.headers.has('preference-applied')) {
      await sleep(
        Math.min(deadline - Date.now(), (retryAfterSeconds(answer.response.headers.get('retry-after')) ?? 1) * 1000),
        opts.signal,
      );
    }
  }
}
