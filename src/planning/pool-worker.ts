/** The planning thread: plans one set per task. Problems and log lines go back as plain data. */
import { isProblem } from '../problem.ts';
import type { LlmSettings } from './llm.ts';
import { TranslationFailed } from './errors.ts';
import { planLocales } from './translate.ts';
import type { PlanInput, ScreenshotSetResult } from './types.ts';

export interface PlanTask {
  input: PlanInput;
  llm: LlmSettings | null;
}

export type PlanAnswer =
  | { ok: true; result: ScreenshotSetResult; logs: { obj: object; msg: string }[] }
  | {
      ok: false;
      problem: { status: number; code: string; detail: string } | null;
      retryable: boolean;
      message: string;
      logs: { obj: object; msg: string }[];
    };

export default async function plan(task: PlanTask): Promise<PlanAnswer> {
  const logs: { obj: object; msg: string }[] = [];
  const log = {
    warn: (obj: object, msg: string) =>
      logs.push({ obj: JSON.parse(JSON.stringify(obj, (_k, v) => (v instanceof Error ? { message: v.message } : v))), msg }),
  };
  try {
    return { ok: true, result: await planLocales(task.input, task.llm, log), logs };
  } catch (error) {
    const problem = isProblem(error) ? { status: error.status, code: error.code, detail: error.detail } : null;
    return { ok: false, problem, retryable: error instanceof TranslationFailed, message: (error as Error).message, logs };
  }
}
