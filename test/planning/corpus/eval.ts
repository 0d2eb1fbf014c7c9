/**
 * `npm run eval:captions [-- --model NAME] [--part tuned|held-out] [--failures N]`: the caption
 * corpus through the whole pipeline (the configured model endpoint, LLM_BASE_URL / LLM_API_KEY, with
 * --model; else the rule writer), scored by the one checker (captions and the set's screens). Prints, for the tuned and the
 * held-out listings apart: sets made and refused, per-check pass rates, captions per source,
 * model fallbacks and repairs, and latency. Failures are printed for the tuned part only: the
 * held-out part is read as figures, never tuned on (./split.json).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { checkSet, FINDINGS, type FindingId } from '../../../src/planning/check.ts';
import { planWithModel, type ModelStats } from '../../../src/planning/model-writer.ts';
import { planScreenshotSet } from '../../../src/planning/plan.ts';
import { screensFor } from '../../../src/planning/screens.ts';
import { CAPTION_LENGTH_IDS, CAPTION_STYLE_IDS, type PlanInput, type PlanRequest } from '../../../src/planning/types.ts';
import { isProblem } from '../../../src/problem.ts';
import { corpus } from './index.ts';
import { devicesFor } from './measure.ts';

const { values } = parseArgs({
  options: { model: { type: 'string' }, part: { type: 'string' }, failures: { type: 'string', default: '0' }, quick: { type: 'boolean' } },
});
const split = JSON.parse(readFileSync(new URL('./split.json', import.meta.url), 'utf8')) as { heldOut: string[] };
const heldOut = new Set(split.heldOut);
const llm = values.model
  ? { baseUrl: process.env.LLM_BASE_URL ?? 'http://127.0.0.1:11434/v1', model: values.model, apiKey: process.env.LLM_API_KEY ?? null }
  : null;

const SHAPES: Pick<PlanRequest, 'count' | 'narrativeId'>[] = [
  { count: 6 },
  {},
  { count: 8 },
  { narrativeId: 'how-it-works' },
  { narrativeId: 'problem-solution' },
  { narrativeId: 'benefits-first' },
];
/** A caption made of the name, the category and stock words only: the filler the issue counts. */
const FILLER = /^(the perfect app|an app|use this free app|the best app|the app for you|meet the app)\b|:\s*an app\b/i;

interface Tally {
  sets: number;
  refused: number;
  refusedAt6: Set<string>;
  listingsAt6: Set<string>;
  slides: number;
  checks: number;
  failed: Partial<Record<FindingId, number>>;
  slidesFailing: number;
  filler: number;
  sources: Record<string, number>;
  stats: ModelStats;
  ms: number[];
}
const empty = (): Tally => ({
  sets: 0,
  refused: 0,
  refusedAt6: new Set(),
  listingsAt6: new Set(),
  slides: 0,
  checks: 0,
  failed: {},
  slidesFailing: 0,
  filler: 0,
  sources: {},
  stats: { calls: 0, repairs: 0, fallbacks: 0, promptTokens: 0, completionTokens: 0, failures: 0, cached: 0 },
  ms: [],
});
const parts = { tuned: empty(), 'held-out': empty() };
let failuresLeft = Number(values.failures);

for (const entry of corpus()) {
  const part = heldOut.has(entry.id) ? 'held-out' : 'tuned';
  if (values.part && values.part !== part) continue;
  const t = parts[part];
  for (const device of devicesFor(entry.listing)) {
    for (const captionStyle of values.quick ? (['aso-expert'] as const) : CAPTION_STYLE_IDS) {
      for (const captionLength of CAPTION_LENGTH_IDS) {
        for (const shape of SHAPES) {
          const input: PlanInput = {
            listings: [entry.listing],
            extraContext: null,
            request: { device, captionStyle, captionLength, ...shape },
          };
          const at6 = shape.count === 6 && captionStyle === 'aso-expert' && captionLength === 'short';
          const hasScreens = screensFor(input.listings, device).urls.length > 0;
          if (at6 && hasScreens) t.listingsAt6.add(entry.id);
          const started = performance.now();
          let result;
          try {
            result = llm ? await planWithModel(input, llm, undefined, t.stats) : planScreenshotSet(input);
          } catch (error) {
            if (!isProblem(error) || error.code !== 'cannot_fill_set') throw error;
            t.refused++;
            if (at6 && hasScreens) t.refusedAt6.add(entry.id);
            continue;
          } finally {
            t.ms.push(performance.now() - started);
          }
          t.sets++;
          const findings = checkSet(input, result);
          result.slides.forEach((s, i) => {
            t.slides++;
            t.checks += Object.keys(FINDINGS).length;
            t.sources[s.captionSource ?? 'rules'] = (t.sources[s.captionSource ?? 'rules'] ?? 0) + 1;
            if (FILLER.test(s.headline)) t.filler++;
            const ids = new Set(findings[i].map((f) => f.id));
            for (const id of ids) t.failed[id] = (t.failed[id] ?? 0) + 1;
            if (ids.size > 0) {
              t.slidesFailing++;
              if (part === 'tuned' && failuresLeft-- > 0)
                console.log(
                  `${entry.id} ${device} ${captionStyle}/${captionLength} #${s.index} ${s.role}: ${findings[i].map((f) => f.message).join('; ')}`,
                );
            }
          });
        }
      }
    }
  }
}

const pct = (n: number, d: number) => (d === 0 ? '   -  ' : `${((100 * n) / d).toFixed(1).padStart(5)}%`);
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? 0;
console.log(`\ncaptions by ${llm ? `model ${llm.model} (rules as fallback)` : 'the rule writer'}`);
console.log(`${'check'.padEnd(18)}${'tuned'.padStart(10)}${'held-out'.padStart(10)}`);
for (const id of Object.keys(FINDINGS) as FindingId[]) {
  console.log(
    `${id.padEnd(18)}${[parts.tuned, parts['held-out']].map((t) => pct(t.slides - (t.failed[id] ?? 0), t.slides).padStart(10)).join('')}`,
  );
}
const rows: [string, (t: Tally) => string][] = [
  ['checks passed', (t) => pct(t.checks - Object.values(t.failed).reduce((a, b) => a + b, 0), t.checks)],
  ['slides passing all', (t) => pct(t.slides - t.slidesFailing, t.slides)],
  ['generic filler', (t) => String(t.filler)],
  ['sets made', (t) => String(t.sets)],
  ['sets refused', (t) => `${t.refused} (${pct(t.refused, t.refused + t.sets).trim()})`],
  ['refused at count 6', (t) => `${t.refusedAt6.size}/${t.listingsAt6.size} listings`],
  ['slides', (t) => String(t.slides)],
  [
    'by source',
    (t) =>
      Object.entries(t.sources)
        .map(([k, v]) => `${k} ${v}`)
        .join(', '),
  ],
  ['model calls', (t) => `${t.stats.calls} (${t.stats.failures} failed, ${t.stats.cached} cached)`],
  ['repairs/fallbacks', (t) => `${t.stats.repairs}/${t.stats.fallbacks}`],
  ['tokens in/out', (t) => `${t.stats.promptTokens}/${t.stats.completionTokens}`],
  ['latency p50/p95', (t) => `${quantile(t.ms, 0.5).toFixed(1)}/${quantile(t.ms, 0.95).toFixed(1)} ms`],
];
for (const [label, f] of rows) console.log(`${label.padEnd(18)}${f(parts.tuned).padStart(24)}${f(parts['held-out']).padStart(24)}`);
