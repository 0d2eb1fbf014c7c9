/**
 * Planning off the event loop. The planner is synchronous CPU work (the first plan of a process
 * loads the language model of `compromise`: about 0.3 s), so a process that serves HTTP runs it in
 * a worker thread; the API's requests never wait behind it.
 */
import { Piscina } from 'piscina';
import { Problem, type ProblemCode } from '../problem.ts';
import { workerFile } from '../threads/worker-file.ts';
import type { LlmLogger, LlmSettings } from './llm.ts';
import type { PlanAnswer, PlanTask } from './pool-worker.ts';
import { TranslationFailed } from './errors.ts';
import type { PlanInput, ScreenshotSetResult } from './types.ts';

export class PlanningPool {
  private readonly pool: Piscina<PlanTask, PlanAnswer>;

  constructor(
    private readonly llm: LlmSettings | null,
    private readonly log?: LlmLogger,
    threads = 1,
  ) {
    const { filename, execArgv } = workerFile(import.meta.url, 'pool-worker');
    // idleTimeout: keep the thread (and its loaded language model) between jobs.
    this.pool = new Piscina({ filename, execArgv, minThreads: 0, maxThreads: threads, idleTimeout: 10 * 60_000 });
  }

  async plan(input: PlanInput, signal?: AbortSignal): Promise<ScreenshotSetResult> {
    const answer = await this.pool.run({ input, llm: this.llm } satisfies PlanTask, { signal });
    for (const l of answer.logs) this.log?.warn(l.obj, l.msg);
    if (answer.ok) return answer.result;
    if (answer.problem) throw new Problem(answer.problem.status, answer.problem.code as ProblemCode, answer.problem.detail);
    // Errors cross the thread as data: rebuild the one a caller treats differently.
    if (answer.retryable) throw new TranslationFailed(answer.message);
    throw new Error(`planning failed: ${answer.message}`);
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
