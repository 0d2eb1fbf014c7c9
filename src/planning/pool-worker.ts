/** The planning thread: plans one set per task. Problems and log lines go back as plain data. */
import { isProblem } from '../core/problem.ts';
import type { LlmSettings } from '../captions/model/llm.ts';
import { TranslationFailed } from '../captions/model/errors.ts';
import { newStats, type ModelStats } from '../captions/model/writer.ts';
import { planSet } from './pipeline.ts';
import type { PlanInput, PlanRequest, ScreenshotSetResult } from '../core/set.ts';
import { fillFacts, type FillFacts } from './fillable.ts';

/** The facts a create's check before the charge reads (./fillable.ts), planned off the HTTP event loop. */
export interface FactsTask {
  kind: 'fill-facts';
  input: Omit<PlanInput, 'request' | 'uploadedScreens'>;
  requests: PlanRequest[];
}

export type FactsAnswer =
  | { ok: true; facts: FillFacts[] }
  | { ok: false; problem: { code: string; detail: string; extensions: Record<string, unknown> } | null; message: string };

function facts(task: FactsTask): FactsAnswer {
  try {
    return { ok: true, facts: fillFacts(task.input, task.requests) };
  } catch (error) {
    const problem = isProblem(error) ? { code: error.code, detail: error.detail, extensions: error.extensions } : null;
    return { ok: false, problem, message: (error as Error).message };
  }
}

export interface PlanTask {
  input: PlanInput;
  llm: LlmSettings | null;
  /** The model's answers to an earlier attempt of the same plan, by prompt (./answer-cache.ts). */
  recorded?: Record<string, string>;
  /** The log reads debug lines: the thread sends back the checker's findings per slide. */
  debug?: boolean;
}

/** What the thread tells the main thread besides the result: the metrics' figures and the answers to keep. */
export interface PlanReport {
  logs: { obj: object; msg: string; level?: 'debug' }[];
  stats: ModelStats;
  fresh: Record<string, string>;
}

export type PlanAnswer =
  | ({ ok: true; result: ScreenshotSetResult } & PlanReport)
  | ({
      ok: false;
      problem: { status: number; code: string; detail: string } | null;
      retryable: boolean;
      message: string;
    } & PlanReport);

export default async function plan(task: PlanTask | FactsTask): Promise<PlanAnswer | FactsAnswer> {
  if ('kind' in task) return facts(task);
  const logs: PlanReport['logs'] = [];
  const plain = (obj: object): object => JSON.parse(JSON.stringify(obj, (_k, v) => (v instanceof Error ? { message: v.message } : v)));
  const log = {
    warn: (obj: object, msg: string) => logs.push({ obj: plain(obj), msg }),
    // The checker's verdicts per slide: only worth their copy across the thread when someone reads them.
    ...(task.debug ? { debug: (obj: object, msg: string) => logs.push({ obj: plain(obj), msg, level: 'debug' as const }) } : {}),
  };
  const stats = newStats();
  const recorded = { known: task.recorded ?? {}, fresh: {} };
  const report = () => ({ logs, stats, fresh: recorded.fresh });
  try {
    return { ok: true, result: await planSet(task.input, task.llm, log, stats, recorded), ...report() };
  } catch (error) {
    const problem = isProblem(error) ? { status: error.status, code: error.code, detail: error.detail } : null;
    return { ok: false, problem, retryable: error instanceof TranslationFailed, message: (error as Error).message, ...report() };
  }
}
