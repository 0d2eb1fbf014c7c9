/**
 * Before the charge: can this set be made as asked? The rule writer plans it (milliseconds to a
 * tenth of a second of tagging and font measuring per listing; the understanding is cached per
 * listing) and the set is refused with cannot_fill_set when it has nothing to frame, or, with no
 * caption model to write what the rules cannot, fewer slides that pass the checker than asked.
 *
 * What a create needs of that plan is its facts (`FillFacts`): the draft's warnings, the refusal
 * when the rules cannot fill it, and the refusal when nothing is uploaded to frame. They do not
 * depend on the screens uploaded or on the model, so they are planned ahead, when the app is
 * created or its guidance changes (src/jobs/fill-checks.ts keeps them with the app), and a create
 * only reads them and applies its own screens and model (`verdictOf`).
 *
 * Planning runs in a thread of its own (`factsOffThread`), so the HTTP event loop answers other
 * requests meanwhile.
 */
import { Piscina } from 'piscina';
import { isProblem, Problem, type ProblemCode } from '../core/problem.ts';
import { workerFile } from '../core/worker-file.ts';
import { findNarrative, NARRATIVES } from '../core/narratives.ts';
import { draftScreenshotSet } from './plan.ts';
import type { FactsAnswer, FactsTask } from './pool-worker.ts';
import { refusalOf } from './refuse.ts';
import type { Caption } from '../captions/rules/writer.ts';
import { MAX_COUNT, type PlanInput, type PlanRequest } from '../core/set.ts';

/** A refusal as plain data (it crosses threads and is stored as JSON). */
export interface ProblemData {
  code: string;
  detail: string;
  extensions: Record<string, unknown>;
}

/** What the check before the charge needs of one request's plan, whatever the screens and the model. */
export interface FillFacts {
  warnings: string[];
  /** The refusal without a caption model: the rule writer leaves slides empty. */
  unfilled: ProblemData | null;
  /** The refusal when no screen is uploaded: the listing has none of the family to frame either. */
  noScreens: ProblemData | null;
}

const data = (p: Problem): ProblemData => ({ code: p.code, detail: p.detail, extensions: p.extensions });

/**
 * The facts of each request on the same listings. The rule writer's counts 1..10 are drafted once
 * for all of them: a refusal's supported count is the largest smaller count that fills (the
 * default story, as ./refuse.ts says; a narrative's is counted on that narrative), and a sweep of every count and
 * narrative (`sweepRequests`) costs no more drafts than it has requests.
 */
export function fillFacts(input: Omit<PlanInput, 'request' | 'uploadedScreens'>, requests: PlanRequest[]): FillFacts[] {
  const filled = new Map<string, (Caption | null)[]>();
  const draft = (request: PlanRequest) => draftScreenshotSet({ ...input, request });
  const key = (request: PlanRequest, count: number) => `${request.device} ${request.captionStyle} ${request.captionLength} ${count}`;
  const rulesAt = (request: PlanRequest, count: number): (Caption | null)[] => {
    let known = filled.get(key(request, count));
    if (known === undefined) {
      known = draft({ ...request, count, narrativeId: undefined }).rules;
      filled.set(key(request, count), known);
    }
    return known;
  };
  const noScreens = new Map<string, ProblemData | null>();
  return requests.map((request) => {
    const d = draft(request);
    if (!request.narrativeId) filled.set(key(request, request.count ?? d.roles.length), d.rules);
    const narrative = request.narrativeId ? findNarrative(request.narrativeId) : null;
    const unfilled = d.rules.includes(null)
      ? data(
          refusalOf(d, narrative, (count, captionLength) =>
            rulesAt({ ...request, captionLength: captionLength ?? request.captionLength }, count),
          ),
        )
      : null;
    // With no screen uploaded the planner refuses before anything else; which refusal depends on the device alone.
    if (d.screenCount === 0 && !noScreens.has(request.device)) noScreens.set(request.device, refusalWithoutScreens(input, request));
    return { warnings: [...d.warnings], unfilled, noScreens: d.screenCount === 0 ? noScreens.get(request.device)! : null };
  });
}

function refusalWithoutScreens(input: Omit<PlanInput, 'request' | 'uploadedScreens'>, request: PlanRequest): ProblemData | null {
  try {
    draftScreenshotSet({ ...input, request: { ...request, count: 1, narrativeId: undefined }, uploadedScreens: 0 });
    return null;
  } catch (error) {
    if (isProblem(error)) return data(error);
    throw error;
  }
}

/** Every request of one device, voice and length a create can make: counts 1..10 and each narrative. */
export function sweepRequests(base: Pick<PlanRequest, 'device' | 'captionStyle' | 'captionLength'>): PlanRequest[] {
  return [
    ...Array.from({ length: MAX_COUNT }, (_, i) => ({ ...base, count: i + 1, narrativeId: null })),
    ...NARRATIVES.map((n) => ({ ...base, count: n.roles.length, narrativeId: n.id })),
  ];
}

const problemOf = (p: ProblemData): Problem => new Problem(p.code as ProblemCode, p.detail, p.extensions);

/** The check's answer from the facts: the warnings, or the refusal these screens and this model get. */
export function verdictOf(facts: FillFacts, uploadedScreens: number | undefined, hasModel: boolean): string[] {
  if (uploadedScreens === 0 && facts.noScreens) throw problemOf(facts.noScreens);
  if (!hasModel && facts.unfilled) throw problemOf(facts.unfilled);
  return [...facts.warnings];
}

/** The draft's warnings, known before the charge (a Mac listing for an iPhone set, a story changed to fit the listing). */
export function checkFillable(input: PlanInput, hasModel: boolean): string[] {
  if (input.request.slides?.length || input.listings.length === 0) return [];
  return verdictOf(fillFacts(input, [input.request])[0], input.uploadedScreens, hasModel);
}

let pool: Piscina<FactsTask, FactsAnswer> | null = null;
let tasks = 0;

/** Planning tasks the fillability thread was given in this process (tests and the bench read it). */
export const fillabilityTasks = (): number => tasks;

/** fillFacts in the fillability thread (started on first use; it exits after a minute idle). */
export async function factsOffThread(input: Omit<PlanInput, 'request' | 'uploadedScreens'>, requests: PlanRequest[]): Promise<FillFacts[]> {
  // One thread: each check is short; the understanding cache stays warm in it.
  pool ??= new Piscina({ ...workerFile(import.meta.url, 'pool-worker'), minThreads: 0, maxThreads: 1, idleTimeout: 60_000 });
  tasks++;
  const answer = await pool.run({ kind: 'fill-facts', input, requests } satisfies FactsTask);
  if (!answer.ok && answer.problem) throw problemOf(answer.problem);
  if (!answer.ok) throw new Error(`fillability check failed: ${answer.message}`);
  return answer.facts;
}

/** Stops the fillability thread (service teardown). */
export async function closeFillability(): Promise<void> {
  const p = pool;
  pool = null;
  await p?.destroy();
}
