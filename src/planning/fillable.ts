/**
 * Before the charge: can this set be made as asked? The rule writer plans it (milliseconds to a
 * tenth of a second of tagging and font measuring per listing; the understanding is cached per
 * listing) and the set is refused with cannot_fill_set when it has nothing to frame, or, with no
 * caption model to write what the rules cannot, fewer slides that pass the checker than asked.
 *
 * The create request asks through `fillableOffThread`: that work runs in a planning thread of its
 * own, so the HTTP event loop answers other requests meanwhile.
 */
import { LRUCache } from 'lru-cache';
import { Piscina } from 'piscina';
import { Problem, type ProblemCode } from '../core/problem.ts';
import { workerFile } from '../core/worker-file.ts';
import { draftScreenshotSet, supportedCount } from './plan.ts';
import type { FillableAnswer, FillableTask } from './pool-worker.ts';
import { cannotFillSet } from '../core/refusal.ts';
import type { PlanInput } from '../core/set.ts';

/** The draft's warnings, known before the charge (a Mac listing for an iPhone set, a story changed to fit the listing). */
export function checkFillable(input: PlanInput, hasModel: boolean): string[] {
  if (input.request.slides?.length || input.listings.length === 0) return [];
  const draft = draftScreenshotSet(input);
  if (!hasModel && draft.rules.some((c) => c === null))
    throw cannotFillSet(draft.roles.length, supportedCount(input, draft.roles.length), draft.u.descriptionEmpty);
  return [...draft.warnings];
}

let pool: Piscina<FillableTask, FillableAnswer> | null = null;

type Verdict = { warnings: string[] } | { problem: { code: string; detail: string; extensions: Record<string, unknown> } };

/**
 * Verdicts by `key` (the caller's name for the input: an app's immutable listings, its guidance,
 * the request, the screens): planning is deterministic, and without this every create of the same
 * set drafted it again — 2 ms of CPU a create, which held creates to 500/s on one core.
 */
const verdicts = new LRUCache<string, Verdict>({ max: 5_000 });

/** checkFillable in the fillability thread (started on first use; it exits after a minute idle). */
export async function fillableOffThread(input: PlanInput, hasModel: boolean, key?: string): Promise<string[]> {
  if (input.request.slides?.length || input.listings.length === 0) return [];
  const cacheKey = key === undefined ? undefined : `${hasModel ? 1 : 0}\0${key}`;
  const known = cacheKey === undefined ? undefined : verdicts.get(cacheKey);
  const verdict = known ?? (await decide(input, hasModel));
  if (cacheKey !== undefined && !known) verdicts.set(cacheKey, verdict);
  if ('warnings' in verdict) return [...verdict.warnings];
  throw new Problem(verdict.problem.code as ProblemCode, verdict.problem.detail, verdict.problem.extensions);
}

async function decide(input: PlanInput, hasModel: boolean): Promise<Verdict> {
  if (!pool) {
    // One thread: refusals are rare and each check is short; the understanding cache stays warm in it.
    pool = new Piscina({ ...workerFile(import.meta.url, 'pool-worker'), minThreads: 0, maxThreads: 1, idleTimeout: 60_000 });
  }
  const answer = await pool.run({ kind: 'fillable', input, hasModel } satisfies FillableTask);
  if (answer.ok) return { warnings: answer.warnings };
  if (answer.problem) return { problem: answer.problem };
  throw new Error(`fillability check failed: ${answer.message}`);
}

/** Stops the fillability thread (service teardown). */
export async function closeFillability(): Promise<void> {
  const p = pool;
  pool = null;
  await p?.destroy();
}
