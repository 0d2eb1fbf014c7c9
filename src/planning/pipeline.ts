/**
 * THE entry of planning: every real set is planned here, by the job's planning thread
 * (./pool-worker.ts). In order:
 *   1. the user's own captions (./own-slides.ts), or a draft (./plan.ts): the story's roles, the
 *      screens, the look and the rule writer's caption per slide;
 *   2. the words: the caption model when one is configured, checked by the one caption checker and
 *      filled by the rule writer where it fails twice (captions/model/writer.ts), else the rule
 *      writer's own;
 *   3. with `locales`, the other languages, translated by the model (captions/model/translate.ts).
 * planScreenshotSet (./plan.ts) is step 1 and 2 without a model, synchronous, for the development
 * CLI, the pre-charge check and the corpus tools.
 */
import type { LlmLogger, LlmSettings, RecordedAnswers } from '../captions/model/llm.ts';
import { translateLocales } from '../captions/model/translate.ts';
import { newStats, writeWithModel, type ModelStats } from '../captions/model/writer.ts';
import type { PlanInput, ScreenshotSetResult } from '../core/set.ts';
import { planOwnSlides } from './own-slides.ts';
import { draftScreenshotSet } from './plan.ts';

/** The set, and with `locales` one set per locale (`locales[0]`'s slides are also the result's own). */
export async function planSet(
  input: PlanInput,
  llm: LlmSettings | null,
  logger?: LlmLogger,
  stats: ModelStats = newStats(),
  recorded?: RecordedAnswers,
): Promise<ScreenshotSetResult> {
  const base = await planWithModel(input, llm, logger, stats, recorded);
  return translateLocales(base, input, llm, logger, stats, recorded);
}

/** The set in the listing's language: the user's own captions, or a draft whose words the model (or the rule writer) writes. */
export async function planWithModel(
  input: PlanInput,
  llm: LlmSettings | null,
  logger?: LlmLogger,
  stats: ModelStats = newStats(),
  recorded?: RecordedAnswers,
): Promise<ScreenshotSetResult> {
  if (input.request.slides?.length) return planOwnSlides(input);
  const draft = draftScreenshotSet(input);
  return draft.finish(await writeWithModel(draft, llm, logger, stats, recorded));
}
