/**
 * Planning off the event loop. The planner is synchronous CPU work (the first plan of a process
 * loads the language model of `compromise`: about 0.3 s), so a process that serves HTTP runs it in
 * a worker thread; the API's requests never wait behind it.
 */
import { Piscina } from 'piscina';
import { Problem, type ProblemCode } from '../core/problem.ts';
import { workerFile } from '../core/worker-file.ts';
import type { LlmLogger, LlmSettings } from '../captions/model/llm.ts';
import type { PlanAnswer, PlanReport, PlanTask } from './pool-worker.ts';
import { answersKey, type AnswerCache } from '../captions/model/answer-cache.ts';
import { captionFallbacks, captionModelCalls, captionModelLatency, captionModelTokens, captionRepairs } from '../metrics/captions.ts';
import { TranslationFailed } from '../captions/model/errors.ts';
import type { PlanInput, ScreenshotSetResult } from '../core/set.ts';

export class PlanningPool {
  private readonly pool: Piscina<PlanTask, PlanAnswer>;

  constructor(
    private readonly llm: LlmSettings | null,
    private readonly log?: LlmLogger,
    threads = 1,
    /** Where the model's answers are kept for a retried job; none: every attempt asks again. */
    private readonly answers: AnswerCache | null = null,
  ) {
    // idleTimeout: keep the thread (and its loaded language model) between jobs.
    this.pool = new Piscina({
      ...workerFile(import.meta.url, 'pool-worker'),
      minThreads: 0,
      maxThreads: threads,
      idleTimeout: 10 * 60_000,
    });
  }

  /** `accountId` scopes the recorded model answers; without it none are kept. */
  async plan(input: PlanInput, signal?: AbortSignal, accountId?: string): Promise<ScreenshotSetResult> {
    const key = this.llm && this.answers && accountId ? answersKey(this.llm, input) : null;
    const recorded = key ? await this.answers!.get(accountId!, key) : undefined;
    const debug = !!this.log?.debug && (this.log.isLevelEnabled?.('debug') ?? true);
    const answer = await this.pool.run({ input, llm: this.llm, recorded, debug } satisfies PlanTask, { signal });
    for (const l of answer.logs)
      if (l.level === 'debug') this.log?.debug?.(l.obj, l.msg);
      else this.log?.warn(l.obj, l.msg);
    observe(answer);
    if (key && Object.keys(answer.fresh).length > 0) {
      // A lost write only costs the retry a model call.
      await this.answers!.put(accountId!, key, answer.fresh).catch((error: unknown) =>
        this.log?.warn({ err: error }, 'caption answers not kept'),
      );
    }
    if (answer.ok) return answer.result;
    if (answer.problem) throw new Problem(answer.problem.code as ProblemCode, answer.problem.detail);
    // Errors cross the thread as data: rebuild the one a caller treats differently.
    if (answer.retryable) throw new TranslationFailed(answer.message);
    throw new Error(`planning failed: ${answer.message}`);
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}

/** The planning thread's model figures into this process's registry (prom-client lives on the main thread). */
function observe({ stats }: PlanReport): void {
  for (const ms of stats.latencyMs ?? []) captionModelLatency.observe(ms / 1000);
  if (stats.promptTokens) captionModelTokens.inc({ kind: 'prompt' }, stats.promptTokens);
  if (stats.completionTokens) captionModelTokens.inc({ kind: 'completion' }, stats.completionTokens);
  const answered = stats.calls - stats.failures - stats.cached;
  if (answered > 0) captionModelCalls.inc({ outcome: 'answered' }, answered);
  if (stats.failures) captionModelCalls.inc({ outcome: 'failed' }, stats.failures);
  if (stats.cached) captionModelCalls.inc({ outcome: 'cached' }, stats.cached);
  if (stats.repairs) captionRepairs.inc(stats.repairs);
  if (stats.fallbacks) captionFallbacks.inc(stats.fallbacks);
}
