/**
 * The model writer: when a caption model is configured it writes every slide (several candidates
 * each, in one call, ./request.ts), the checker judges them, failing slides go back ONCE with each
 * candidate's findings in plain words and the slides already kept (./repair.ts). A slide still
 * failing takes the best passing candidate of either answer, then the rule writer's caption; a set
 * fails only when a slide has nothing that passes. Runs in the job, never in the request. Without a
 * model, or when the model fails outright, the set is the rule writer's.
 */
import { CaptionChecker, checkCaptions, tooLongToJudge } from '../checker/check.ts';
import { FEATURE_ROLES } from '../rules/writer.ts';
import { askModel, DEFAULT_TIMEOUT_MS, failureOf, type LlmLogger, type LlmSettings, type Message, type RecordedAnswers } from './llm.ts';
import type { CaptionDraft, Written } from '../draft.ts';
import { cannotFillSet } from '../../core/refusal.ts';
import { CAPTION_LENGTHS } from '../../core/set.ts';
import { CANDIDATES, captionRequest, type ScreenPicture } from './request.ts';
import { repairRequest, type Verdict } from './repair.ts';
import { screenPictures } from './pictures.ts';

export interface ModelStats {
  calls: number;
  failures: number;
  /** Slides sent back once with their findings. */
  repairs: number;
  /** Slides that ended with the rule writer's caption because the model's failed. */
  fallbacks: number;
  /** The model's candidates the checker read (one over its length is refused before it, unread). */
  judged: number;
  /** Of those, the ones it refused (the eval reads each: a good caption refused is a checker defect). */
  refused?: number;
  /** The model's first choices (each slide's first candidate of the first answer), and how many passed unrepaired. */
  firstChoices?: number;
  firstPassed?: number;
  promptTokens: number;
  completionTokens: number;
  cached: number;
  latencyMs?: number[];
}

export const newStats = (): ModelStats => ({
  calls: 0,
  failures: 0,
  repairs: 0,
  fallbacks: 0,
  judged: 0,
  refused: 0,
  firstChoices: 0,
  firstPassed: 0,
  promptTokens: 0,
  completionTokens: 0,
  cached: 0,
  latencyMs: [],
});

const candidateSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['headline', 'subheadline'],
  properties: { headline: { type: 'string' }, subheadline: { type: ['string', 'null'] } },
} as const;
export const CAPTIONS_SCHEMA = {
  name: 'screenshot_captions',
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['slides'],
    properties: {
      slides: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['index', 'candidates'],
          properties: {
            index: { type: 'integer' },
            candidates: { type: 'array', minItems: 1, maxItems: CANDIDATES, items: candidateSchema },
          },
        },
      },
    },
  },
};

type Candidates = Map<number, { headline: string; subheadline: string | null }[]>;

/**
 * The candidates per slide index, at most CANDIDATES for each of the set's `slides`; slides the
 * answer lacks or garbles are simply absent, and what it adds (other indices, more candidates) is
 * dropped unread.
 */
export function parseCandidates(content: string, slides: number): Candidates {
  const data = JSON.parse(content) as { slides?: unknown };
  if (!Array.isArray(data.slides)) throw new Error('the answer has no slides');
  const out: Candidates = new Map();
  for (const s of data.slides as { index?: unknown; candidates?: unknown }[]) {
    if (!Number.isInteger(s?.index) || (s.index as number) < 1 || (s.index as number) > slides || !Array.isArray(s.candidates)) continue;
    const ok = (s.candidates as { headline?: unknown; subheadline?: unknown }[])
      .slice(0, CANDIDATES)
      .filter((c) => typeof c?.headline === 'string' && (c.subheadline === null || typeof c.subheadline === 'string'))
      .map((c) => ({
        headline: (c.headline as string).trim(),
        subheadline: typeof c.subheadline === 'string' ? c.subheadline.trim() || null : null,
      }));
    out.set(s.index as number, ok);
  }
  return out;
}

/**
 * Picks, slide by slide, the first option the checker passes given the slides before it. An option
 * far longer than any caption may be is refused on its length alone, before the checker reads it.
 * `verdicts` holds, per slide, every option read and its findings (for the repair turn and the log).
 */
function assemble(
  draft: CaptionDraft,
  options: (i: number) => Written[],
  stats: ModelStats,
  /** Count the refusals: the first answer's only, the eval's "refused" being the model's own first words. */
  countRefused = true,
): { chosen: (Written | null)[]; verdicts: Verdict[][] } {
  const checker = new CaptionChecker(draft.check);
  const verdicts: Verdict[][] = [];
  const long = CAPTION_LENGTHS[draft.check.captionLength].subheadline > 0;
  const chosen = draft.roles.map((role, i) => {
    const read: Verdict[] = [];
    verdicts.push(read);
    // In a long set a candidate with a subheadline comes before one without (the checker passes a
    // headline alone there): a slide keeps its headline alone only when no candidate has a subheadline that passes.
    const all = options(i);
    for (const o of long ? [...all.filter((x) => x.subheadline), ...all.filter((x) => !x.subheadline)] : all) {
      const unread = tooLongToJudge(o, draft.check.captionLength);
      if (unread.length > 0) {
        read.push({ caption: o, findings: unread });
        continue;
      }
      stats.judged++;
      const f = checker.check({ ...o, role, index: i + 1 });
      read.push({ caption: o, findings: f });
      if (f.length === 0) {
        checker.accept({ ...o, role, index: i + 1 });
        return o;
      }
      if (countRefused) stats.refused = (stats.refused ?? 0) + 1;
    }
    return null;
  });
  return { chosen, verdicts };
}

/**
 * The rule writer's captions a slide may fall back to: its own, then, on a feature slide, those it
 * wrote for the other feature slides (the model kept its words there, so they are spare): its own
 * may say what the model said on another slide.
 */
const ruleOptions = (draft: CaptionDraft, i: number): Written[] => {
  const feature = FEATURE_ROLES.has(draft.roles[i]);
  const order = [i, ...draft.roles.flatMap((r, j) => (j !== i && feature && FEATURE_ROLES.has(r) ? [j] : []))];
  return order.flatMap((j) => {
    const r = draft.rules[j];
    return r ? [{ headline: r.headline, subheadline: r.subheadline, source: 'rules' as const }] : [];
  });
};

/** Whether the set with `o` on slide `i` passes every check, each slide judged against all the others kept. */
function passesIn(draft: CaptionDraft, chosen: (Written | null)[], i: number, o: Written): boolean {
  if (tooLongToJudge(o, draft.check.captionLength).length > 0) return false;
  if (chosen.some((c, j) => j !== i && c?.headline === o.headline)) return false;
  const trial = chosen.map((c, j) => (j === i ? o : c));
  const findings = checkCaptions(
    trial.flatMap((c, j) => (c ? [{ ...c, role: draft.roles[j], index: j + 1 }] : [])),
    draft.check,
  );
  return findings.every((f) => f.length === 0);
}

/**
 * Fills the slides left empty with any option that passes in the set as kept: the model's
 * candidates of either answer, best first, then the rule writer's words.
 */
function fillInSet(draft: CaptionDraft, chosen: (Written | null)[], model: (i: number) => Written[]): (Written | null)[] {
  const out = [...chosen];
  for (const [i] of chosen.entries())
    if (out[i] === null) out[i] = [...model(i), ...ruleOptions(draft, i)].find((o) => passesIn(draft, out, i, o)) ?? null;
  return out;
}

/**
 * The last resort before a failed job: each slide still empty takes the first option the checker
 * passes judged alone. What only the set judges (a repeat of another slide) is then the lesser harm
 * than a job that fails while a slide has a caption that passes; it is logged.
 */
function fillAlone(
  draft: CaptionDraft,
  chosen: (Written | null)[],
  model: (i: number) => Written[],
  logger?: LlmLogger,
): (Written | null)[] {
  const out = [...chosen];
  for (const [i] of out.entries()) {
    if (out[i] !== null) continue;
    const alone = (o: Written) =>
      tooLongToJudge(o, draft.check.captionLength).length === 0 &&
      new CaptionChecker(draft.check).check({ ...o, role: draft.roles[i], index: i + 1 }).length === 0;
    out[i] = [...model(i), ...ruleOptions(draft, i)].find(alone) ?? null;
    if (out[i])
      logger?.warn({ slide: i + 1, headline: out[i]!.headline }, 'caption slide kept a caption that passes alone but not in its set');
  }
  return out;
}

/** The checker's findings on every option read, per slide, at debug: why each caption was or was not used. */
function logVerdicts(logger: LlmLogger | undefined, round: string, draft: CaptionDraft, verdicts: Verdict[][], chosen: (Written | null)[]) {
  if (!logger?.debug) return;
  verdicts.forEach((read, i) =>
    logger.debug!(
      {
        round,
        slide: i + 1,
        role: draft.roles[i],
        chosen: chosen[i]?.headline ?? null,
        candidates: read.map((v) => ({
          headline: v.caption.headline,
          subheadline: v.caption.subheadline,
          findings: v.findings.map((f) => f.message),
        })),
      },
      'caption checker findings',
    ),
  );
}

/**
 * The set's words with the model as the writer (see the module comment); planning's pipeline makes the set of them. `stats` counts calls, tokens,
 * repairs and fallbacks for the metrics; `recorded` replays answers a retried job already got.
 * `pictures`: the screens' pictures, sent when LLM_VISION is on.
 */
export async function writeWithModel(
  draft: CaptionDraft,
  llm: LlmSettings | null,
  logger?: LlmLogger,
  stats: ModelStats = newStats(),
  recorded?: RecordedAnswers,
  pictures: ScreenPicture[] = [],
): Promise<Written[]> {
  const n = draft.roles.length;
  const rulesOnly = () => {
    const missing = draft.rules.filter((c) => c === null).length;
    if (missing > 0) throw cannotFillSet(n, n - missing, draft.u.descriptionEmpty);
    return draft.rules.map((c) => ({ headline: c!.headline, subheadline: c!.subheadline, source: 'rules' as const }));
  };
  if (!llm) return rulesOnly();
  const deadline = Date.now() + (llm.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const ask = async (messages: Message[]) => {
    const started = performance.now();
    stats.calls++;
    try {
      const answer = await askModel(llm, messages, CAPTIONS_SCHEMA, deadline, recorded);
      if (answer.cached) stats.cached++;
      stats.promptTokens += answer.promptTokens;
      stats.completionTokens += answer.completionTokens;
      return { content: answer.content, candidates: parseCandidates(answer.content, n) };
    } catch (error) {
      stats.failures++;
      logger?.warn({ error: failureOf(error) }, 'caption model failed; the rule writer fills its slides');
      return null;
    } finally {
      stats.latencyMs?.push(performance.now() - started);
    }
  };
  // The pictures count against the same model budget as the words: a screen that takes long to read is left out.
  const shown = llm.vision ? (pictures.length ? pictures : await screenPictures(draft.input.screenPictures ?? [])) : [];
  const messages = captionRequest(draft, shown);
  const first = await ask(messages);
  if (!first) {
    stats.fallbacks += n;
    return rulesOnly();
  }
  const model = (c: Candidates, i: number): Written[] => (c.get(i + 1) ?? []).map((x) => ({ ...x, source: 'model' as const }));
  const round1 = assemble(draft, (i) => model(first.candidates, i), stats);
  logVerdicts(logger, 'first', draft, round1.verdicts, round1.chosen);
  // The model's first choices, each judged as it came (before any repair): the eval's "passed unrepaired".
  for (const [i] of draft.roles.entries()) {
    const top = first.candidates.get(i + 1)?.[0];
    if (!top) continue;
    stats.firstChoices = (stats.firstChoices ?? 0) + 1;
    if (round1.chosen[i]?.headline === top.headline && round1.chosen[i]?.subheadline === top.subheadline)
      stats.firstPassed = (stats.firstPassed ?? 0) + 1;
  }
  const failing = round1.chosen.flatMap((c, i) => (c === null ? [i] : []));
  let repaired: Candidates = new Map();
  if (failing.length > 0) {
    stats.repairs += failing.length;
    const again = await ask([
      ...messages,
      { role: 'assistant', content: first.content },
      { role: 'user', content: repairRequest(draft, round1.chosen, round1.verdicts, failing) },
    ]);
    repaired = again?.candidates ?? new Map();
  }
  // The model's words first wherever they pass (either answer, best first); the rule writer's for a slide only when neither has one.
  const both = (i: number) => [...model(first.candidates, i), ...model(repaired, i)];
  const round2 = failing.length > 0 ? assemble(draft, both, stats, false) : round1;
  if (failing.length > 0) logVerdicts(logger, 'repair', draft, round2.verdicts, round2.chosen);
  let chosen = fillInSet(draft, round2.chosen, both);
  // The model's words may say what the rule writer needed for the slides it fills: then the rule
  // writer's own whole set, which passes the checker, rather than a set with a repeat in it.
  if (chosen.some((c) => c === null) && draft.rules.every((c) => c !== null)) {
    stats.fallbacks += n;
    logger?.warn(
      { slides: chosen.filter((c) => c === null).length },
      'caption model slides left the rule writer too little for the rest; the rule writer wrote the set',
    );
    return rulesOnly();
  }
  // The rule writer cannot fill the set either: a set fails only when a slide has nothing that passes at all.
  chosen = fillAlone(draft, chosen, both, logger);
  const missing = chosen.filter((c) => c === null).length;
  const fellBack = chosen.filter((c) => c?.source === 'rules').length;
  stats.fallbacks += fellBack;
  if (fellBack > 0) logger?.warn({ slides: fellBack }, 'caption model slides failed the checks twice; the rule writer wrote them');
  if (missing > 0) throw cannotFillSet(n, n - missing, draft.u.descriptionEmpty);
  return chosen as Written[];
}
