/**
 * The model writer: when a caption model is configured it writes every slide (several candidates
 * each, in one call), the checker judges them, failing slides go back ONCE with the findings, and a
 * slide still failing takes the rule writer's caption for that slide alone. Runs in the job, never
 * in the request. Without a model, or when the model fails outright, the set is the rule writer's.
 */
import { CaptionChecker, checkCaptions, describeFindings, tooLongToJudge, type Finding } from '../checker/check.ts';
import { FEATURE_ROLES } from '../rules/writer.ts';
import { describeBudget } from '../checker/fit.ts';
import { askModel, DEFAULT_TIMEOUT_MS, failureOf, type LlmLogger, type LlmSettings, type Message, type RecordedAnswers } from './llm.ts';
import type { Role } from '../../core/narratives.ts';
import type { CaptionDraft, Written } from '../draft.ts';
import { cannotFillSet } from '../../core/refusal.ts';
import { primaryListing } from '../../core/listing.ts';
import { CAPTION_LENGTHS, CAPTION_STYLES, type CaptionStyle } from '../../core/set.ts';

export interface ModelStats {
  calls: number;
  failures: number;
  /** Slides sent back once with their findings. */
  repairs: number;
  /** Slides that ended with the rule writer's caption because the model's failed. */
  fallbacks: number;
  /** The model's candidates the checker read (one over its length is refused before it, unread). */
  judged: number;
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
  promptTokens: 0,
  completionTokens: 0,
  cached: 0,
  latencyMs: [],
});

const CANDIDATES = 3;
const MAX_DESCRIPTION = 4000;

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

/** Two captions each voice ships, to show the voice rather than describe it. */
const EXAMPLES: Record<CaptionStyle, [string, string]> = {
  'aso-expert': ['Track Every Habit in Seconds', 'Budget Planner for Couples'],
  minimal: ['Plan meals for the week', 'Your runs, mapped'],
  playful: ['Go ahead, skip the takeout!', 'Your plants will thank you'],
  bold: ['OWN YOUR MORNINGS.', 'EVERY RUN. MAPPED.'],
  professional: ['Close the books in minutes.', 'Invoices your clients pay on time.'],
};

const ROLE_BRIEF: Record<Role, string> = {
  hero: 'the app’s main promise, the reason to download',
  feature: 'one feature and what it does for the user',
  benefit: 'what the user gains, said as an outcome',
  'social-proof': 'the listing’s own rating or praise, quoted exactly',
  'how-it-works': 'one numbered step of using the app',
  problem: 'the problem the user has, as the listing names it',
  solution: 'how the app solves that problem',
  'call-to-action': 'an invitation to download',
};

function prompt(draft: CaptionDraft): Message[] {
  const { input, check } = draft;
  const primary = primaryListing(input.listings, check.device);
  const limits = CAPTION_LENGTHS[check.captionLength];
  const budget = describeBudget(check.device, check.captionLength);
  // Only screens read so far: a request without them stays the one the recorded answers were made for.
  const shown = (input.screenTexts ?? []).filter((s) => s.text?.length).map((s, i) => ({ screen: i + 1, text: s.text!.slice(0, 20) }));
  const [a, b] = EXAMPLES[check.captionStyle];
  const system = [
    'You are a senior app store copywriter. You write the captions of a screenshot set. Answer with JSON only.',
    `Voice: ${check.captionStyle} — ${CAPTION_STYLES[check.captionStyle]} Two captions in this voice: "${a}", "${b}".`,
    `Headline: at most ${limits.headline} characters and ${budget.headline}.`,
    limits.subheadline > 0
      ? `Subheadline: at most ${limits.subheadline} characters and ${budget.subheadline}; it adds to its headline and never repeats its words. Write one on every slide; null only on a slide (never the first) where the listing and extraContext give nothing that adds to the headline.`
      : 'Subheadline: always null.',
    `Give ${CANDIDATES} different candidates per slide, best first. Each slide says something no other slide says.`,
    'Every caption is a finished phrase: never end on "and", "with", "your", a comma or "...".',
    'Only claim what the listing or extraContext says: no number, rating, award, price, platform or feature it does not state. Paraphrase is fine.',
    "Never name a price, another store's platform, the developer's other apps, or ask for ratings or reviews. No emoji, URLs or hidden characters.",
    `Write in the listing's language (${primary.language}).`,
    primary.price > 0 ? 'The app is paid: never call it free.' : '',
    shown.length
      ? "`screens` is the visible text of the app's own screens: each caption is placed over the screen whose words it shares, so let each feature slide speak of what one screen shows, in the listing's words."
      : '',
  ]
    .filter(Boolean)
    .join('\n');
  const user = JSON.stringify({
    listing: {
      name: primary.name,
      category: primary.category,
      subtitle: primary.subtitle,
      store: primary.store,
      platform: primary.platform,
      description: primary.description.slice(0, MAX_DESCRIPTION),
    },
    extraContext: input.extraContext,
    narrative: input.request.narrativeId ?? 'default',
    slides: draft.roles.map((role, i) => ({ index: i + 1, role, brief: ROLE_BRIEF[role] })),
    ...(shown.length ? { screens: shown } : {}),
  });
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}

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
 */
function assemble(
  draft: CaptionDraft,
  options: (i: number) => Written[],
  stats: ModelStats,
): { chosen: (Written | null)[]; findings: Finding[][] } {
  const checker = new CaptionChecker(draft.check);
  const findings: Finding[][] = [];
  const long = CAPTION_LENGTHS[draft.check.captionLength].subheadline > 0;
  const chosen = draft.roles.map((role, i) => {
    let first: Finding[] | null = null;
    // In a long set a candidate with a subheadline comes before one without (the checker passes a
    // headline alone there): a slide keeps its headline alone only when no candidate has a subheadline that passes.
    const all = options(i);
    for (const o of long ? [...all.filter((x) => x.subheadline), ...all.filter((x) => !x.subheadline)] : all) {
      const unread = tooLongToJudge(o, draft.check.captionLength);
      if (unread.length > 0) {
        first ??= unread;
        continue;
      }
      stats.judged++;
      const f = checker.check({ ...o, role, index: i + 1 });
      if (f.length === 0) {
        checker.accept({ ...o, role, index: i + 1 });
        findings.push([]);
        return o;
      }
      first ??= f;
    }
    findings.push(first ?? [{ id: 'shape', field: 'headline', message: 'no caption was written for this slide' }]);
    return null;
  });
  return { chosen, findings };
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

/**
 * Fills the slides the model left empty with the rule writer's words, each judged against every
 * slide the model kept (not only the ones before it), so a fallback never costs a later slide its
 * model words; the whole set is checked again as it ships.
 */
function fillWithRules(draft: CaptionDraft, chosen: (Written | null)[]): (Written | null)[] {
  const out = [...chosen];
  for (const [i] of chosen.entries()) {
    if (out[i] !== null) continue;
    for (const o of ruleOptions(draft, i)) {
      if (out.some((c) => c?.headline === o.headline)) continue;
      const trial = out.map((c, j) => (j === i ? o : c));
      const findings = checkCaptions(
        trial.flatMap((c, j) => (c ? [{ ...c, role: draft.roles[j], index: j + 1 }] : [])),
        draft.check,
      );
      if (findings.every((f) => f.length === 0)) {
        out[i] = o;
        break;
      }
    }
  }
  return out;
}

/**
 * The set's words with the model as the writer (see the module comment); planning's pipeline makes the set of them. `stats` counts calls, tokens,
 * repairs and fallbacks for the metrics; `recorded` replays answers a retried job already got.
 */
export async function writeWithModel(
  draft: CaptionDraft,
  llm: LlmSettings | null,
  logger?: LlmLogger,
  stats: ModelStats = newStats(),
  recorded?: RecordedAnswers,
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
  const messages = prompt(draft);
  const first = await ask(messages);
  if (!first) {
    stats.fallbacks += n;
    return rulesOnly();
  }
  const model = (c: Candidates, i: number): Written[] => (c.get(i + 1) ?? []).map((x) => ({ ...x, source: 'model' as const }));
  const round1 = assemble(draft, (i) => model(first.candidates, i), stats);
  const failing = round1.chosen.flatMap((c, i) => (c === null ? [i] : []));
  let repaired: Candidates = new Map();
  if (failing.length > 0) {
    stats.repairs += failing.length;
    const again = await ask([
      ...messages,
      { role: 'assistant', content: first.content },
      {
        role: 'user',
        content: JSON.stringify({
          instruction: `These slides failed the caption checks. Write ${CANDIDATES} new candidates for each of them only, fixing every finding; keep the other slides as they are.`,
          slides: failing.map((i) => ({ index: i + 1, role: draft.roles[i], findings: describeFindings(round1.findings[i]) })),
        }),
      },
    ]);
    repaired = again?.candidates ?? new Map();
  }
  // The model's words first wherever they pass; the rule writer's for a slide only when neither answer has one.
  const final = {
    chosen: fillWithRules(draft, assemble(draft, (i) => [...model(first.candidates, i), ...model(repaired, i)], stats).chosen),
  };
  const missing = final.chosen.filter((c) => c === null).length;
  // The model's words may say what the rule writer needed for the slides it fills: then the rule
  // writer's own whole set, which passes the checker, rather than a job that fails. A model never
  // makes a set fail that the rules alone can fill.
  if (missing > 0 && draft.rules.every((c) => c !== null)) {
    stats.fallbacks += n;
    logger?.warn({ slides: missing }, 'caption model slides left the rule writer too little for the rest; the rule writer wrote the set');
    return rulesOnly();
  }
  const fellBack = final.chosen.filter((c) => c?.source === 'rules').length;
  stats.fallbacks += fellBack;
  if (fellBack > 0) logger?.warn({ slides: fellBack }, 'caption model slides failed the checks twice; the rule writer wrote them');
  if (missing > 0) throw cannotFillSet(n, n - missing, draft.u.descriptionEmpty);
  return final.chosen as Written[];
}
