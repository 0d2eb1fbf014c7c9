/**
 * `npm run eval:captions [-- --model NAME | --fake | --record DIR | --replay DIR] [--part tuned|held-out|recorded] [--recorded [--recorded-dir DIR]] [--failures N] [--quick]`:
 * (--record / --replay: the model path on recorded answers, ./model-replay.ts)
 * the caption corpus through the whole pipeline (the configured model endpoint, LLM_BASE_URL /
 * LLM_API_KEY, with --model; the scripted fake model of ./scripted-model.ts with --fake; else the rule
 * writer), scored by the one checker (captions and the set's screens) AND by an independent oracle
 * (./independent.ts, which shares no code with the checker). Prints, for the tuned and the held-out
 * listings apart (and, with --recorded, the real store recordings of ../shared/fixtures/stores, which
 * are not part of the corpus): sets made and refused, refusals at `count: 6` for every voice and
 * length, per-check pass rates, the oracle's findings, captions per source, model fallbacks and
 * repairs, and latency. Failures are printed for the tuned part only: the held-out part is read as
 * figures, never tuned on (./split.json).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { checkSet, FINDINGS, type FindingId } from '../../../src/captions/checker/check.ts';
import { readListing } from '../../../scripts/plan.ts';
import type { ModelStats } from '../../../src/captions/model/writer.ts';
import { planWithModel } from '../../../src/planning/pipeline.ts';
import { planScreenshotSet } from '../../../src/planning/plan.ts';
import { screensFor } from '../../../src/planning/screens.ts';
import { CAPTION_LENGTH_IDS, CAPTION_STYLE_IDS, type PlanInput, type PlanRequest } from '../../../src/core/set.ts';
import type { Listing } from '../../../src/core/listing.ts';
import { isProblem } from '../../../src/core/problem.ts';
import { startFakeLlm } from '../../support/fake-llm.ts';
import { corpus } from './index.ts';
import { ORACLE_RULES, oracle, type OracleRule } from './independent.ts';
import { devicesFor } from './measure.ts';
import { scriptedModel } from './scripted-model.ts';
import { MODEL, replayer, SAMPLE, sampleSets } from './model-replay.ts';

const { values } = parseArgs({
  options: {
    model: { type: 'string' },
    fake: { type: 'boolean' },
    part: { type: 'string' },
    recorded: { type: 'boolean' },
    'recorded-dir': { type: 'string', default: '../shared/fixtures/stores' },
    failures: { type: 'string', default: '0' },
    quick: { type: 'boolean' },
    record: { type: 'string' },
    replay: { type: 'string' },
  },
  allowPositionals: true,
});
const split = JSON.parse(readFileSync(new URL('./split.json', import.meta.url), 'utf8')) as { heldOut: string[] };
const heldOut = new Set(split.heldOut);
const unknown = split.heldOut.filter((id) => !corpus().some((e) => e.id === id));
if (unknown.length) throw new Error(`split.json names ids the corpus does not have: ${unknown.join(', ')}`);

const recording = values.record ?? values.replay;
const replay = recording ? replayer(recording, !!values.replay) : null;
const fake = values.fake ? await startFakeLlm(scriptedModel()) : replay ? await startFakeLlm(replay.reply) : null;
const llm = fake
  ? { baseUrl: fake.baseUrl, model: replay ? MODEL : 'scripted', apiKey: null, timeoutMs: 60_000 }
  : values.model
    ? { baseUrl: process.env.LLM_BASE_URL ?? 'http://127.0.0.1:11434/v1', model: values.model, apiKey: process.env.LLM_API_KEY ?? null }
    : null;

/** With recorded answers, every model caption the checker refused, to be read (a good one refused is a checker defect). */
const refusals = (set: string) => ({
  warn: () => {},
  debug: (obj: object) => {
    const o = obj as {
      round: string;
      slide: number;
      role: string;
      candidates: { headline: string; subheadline: string | null; findings: string[] }[];
    };
    for (const c of o.candidates)
      if (c.findings.length)
        console.log(
          `refused ${set} #${o.slide} ${o.role} (${o.round}): "${c.headline}"${c.subheadline ? ` / "${c.subheadline}"` : ''}: ${c.findings.join('; ')}`,
        );
  },
});

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

type PartName = 'tuned' | 'held-out' | 'recorded';
interface Tally {
  listings: Set<string>;
  sets: number;
  refused: number;
  /** Per voice/length: the listings (with screens for the device) refused at count 6, and how many were asked. */
  at6: Map<string, { refused: Set<string>; asked: Set<string> }>;
  wrongLength: number;
  slides: number;
  /** Slides of long sets, and those of them with no subheadline (the listing had none left that passes). */
  longSlides: number;
  bareSlides: number;
  checks: number;
  failed: Partial<Record<FindingId, number>>;
  slidesFailing: number;
  filler: number;
  oracle: Partial<Record<OracleRule, number>>;
  oracleSlides: number;
  sources: Record<string, number>;
  stats: ModelStats;
  ms: number[];
}
const empty = (): Tally => ({
  listings: new Set(),
  sets: 0,
  refused: 0,
  at6: new Map(),
  wrongLength: 0,
  slides: 0,
  longSlides: 0,
  bareSlides: 0,
  checks: 0,
  failed: {},
  slidesFailing: 0,
  filler: 0,
  oracle: {},
  oracleSlides: 0,
  sources: {},
  stats: {
    calls: 0,
    repairs: 0,
    fallbacks: 0,
    judged: 0,
    refused: 0,
    firstChoices: 0,
    firstPassed: 0,
    promptTokens: 0,
    completionTokens: 0,
    failures: 0,
    cached: 0,
  },
  ms: [],
});
const parts: Record<PartName, Tally> = { tuned: empty(), 'held-out': empty(), recorded: empty() };
let failuresLeft = Number(values.failures);

/** The real store recordings (not copied into the repository; absent on machines without them). */
function recorded(): { id: string; listing: Listing }[] {
  if (!values.recorded) return [];
  const root = path.resolve(values['recorded-dir']);
  if (!existsSync(root)) throw new Error(`${root} is absent`);
  return ['appstore/lookup', 'appstore/derived-lookup', 'googleplay/details'].flatMap((dir) =>
    existsSync(path.join(root, dir))
      ? readdirSync(path.join(root, dir))
          .filter((f) => /\.(json|html)$/.test(f) && !/notfound|error/.test(f))
          .map((f) => ({ id: f.replace(/\.(json|html)$/, ''), listing: readListing(path.join(root, dir, f)) }))
      : [],
  );
}

const entries: { id: string; part: PartName; listing: Listing }[] = [
  ...corpus().map((e) => ({ id: e.id, part: (heldOut.has(e.id) ? 'held-out' : 'tuned') as PartName, listing: e.listing })),
  ...recorded().map((r) => ({ ...r, part: 'recorded' as PartName })),
];

for (const entry of entries) {
  const { part } = entry;
  if (values.part && values.part !== part) continue;
  if (replay && !SAMPLE.includes(entry.id)) continue;
  const t = parts[part];
  t.listings.add(entry.id);
  for (const device of replay ? devicesFor(entry.listing).slice(0, 1) : devicesFor(entry.listing)) {
    for (const captionStyle of values.quick ? (['aso-expert'] as const) : CAPTION_STYLE_IDS) {
      for (const captionLength of CAPTION_LENGTH_IDS) {
        for (const shape of replay ? [{}] : SHAPES) {
          // Recorded answers: the sample's sets only (./model-replay.ts).
          if (replay && !sampleSets(entry.id).some((x) => x.captionStyle === captionStyle && x.captionLength === captionLength)) continue;
          const input: PlanInput = {
            listings: [entry.listing],
            extraContext: null,
            request: { device, captionStyle, captionLength, ...shape },
          };
          // Count 6 on the listing's first device, for every voice and length: the issue's "at most 1 listing in 5".
          const at6 = shape.count === 6 && device === devicesFor(entry.listing)[0] && screensFor(input.listings, device).urls.length > 0;
          const cell = `${captionStyle}/${captionLength}`;
          if (at6) {
            if (!t.at6.has(cell)) t.at6.set(cell, { refused: new Set(), asked: new Set() });
            t.at6.get(cell)!.asked.add(entry.id);
          }
          const started = performance.now();
          let result;
          try {
            result = llm
              ? await planWithModel(input, llm, replay ? refusals(`${entry.id} ${captionStyle}/${captionLength}`) : undefined, t.stats)
              : planScreenshotSet(input);
          } catch (error) {
            if (!isProblem(error) || error.code !== 'cannot_fill_set') throw error;
            t.refused++;
            if (at6) t.at6.get(cell)!.refused.add(entry.id);
            continue;
          } finally {
            t.ms.push(performance.now() - started);
          }
          t.sets++;
          const found = oracle(input, result);
          if (found.some((f) => f.rule === 'length')) t.wrongLength++;
          for (const rule of new Set(found.map((f) => f.rule))) t.oracle[rule] = (t.oracle[rule] ?? 0) + 1;
          t.oracleSlides += new Set(found.flatMap((f) => (f.slide === null ? [] : [f.slide]))).size;
          const findings = checkSet(input, result);
          result.slides.forEach((s, i) => {
            t.slides++;
            if (captionLength === 'long') {
              t.longSlides++;
              if (s.subheadline === null) t.bareSlides++;
            }
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
          if (part === 'tuned')
            for (const f of found)
              if (failuresLeft-- > 0) console.log(`${entry.id} ${device} ${captionStyle}/${captionLength} oracle ${f.rule}: ${f.message}`);
        }
      }
    }
  }
}
await fake?.close();
if (replay) console.log(`\nrecorded answers: ${replay.answered} requests answered, ${replay.written} written to ${recording} without one`);

const shown = (Object.keys(parts) as PartName[]).filter((p) => parts[p].listings.size > 0);
const W = 26;
const pct = (n: number, d: number) => (d === 0 ? '   -  ' : `${((100 * n) / d).toFixed(1).padStart(5)}%`);
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? 0;
const header = (label: string) =>
  console.log(`${label.padEnd(20)}${shown.map((p) => `${p} (${parts[p].listings.size})`.padStart(W)).join('')}`);
const row = (label: string, f: (t: Tally) => string) =>
  console.log(`${label.padEnd(20)}${shown.map((p) => f(parts[p]).padStart(W)).join('')}`);

console.log(`\ncaptions by ${llm ? `model ${llm.model} (rules as fallback)` : 'the rule writer'}`);
console.log('\nthe one checker (the writers keep only what it passes: for the rule writer these are 100 % by construction)');
header('check');
for (const id of Object.keys(FINDINGS) as FindingId[]) row(id, (t) => pct(t.slides - (t.failed[id] ?? 0), t.slides));
row('checks passed', (t) => pct(t.checks - Object.values(t.failed).reduce((a, b) => a + b, 0), t.checks));
row('slides passing all', (t) => pct(t.slides - t.slidesFailing, t.slides));
console.log('\nthe independent oracle (./independent.ts: no code shared with the checker), sets with a finding');
header('rule');
for (const rule of ORACLE_RULES) row(rule, (t) => `${t.oracle[rule] ?? 0} of ${t.sets}`);
row('slides with one', (t) => `${t.oracleSlides} (${pct(t.oracleSlides, t.slides).trim()})`);
row('filler templates', (t) => String(t.filler));
console.log('\nsets');
header('');
row('sets made', (t) => String(t.sets));
row('sets refused', (t) => `${t.refused} (${pct(t.refused, t.refused + t.sets).trim()})`);
row('made but wrong length', (t) => String(t.wrongLength));
row('slides', (t) => String(t.slides));
row('long: no subheadline', (t) => `${t.bareSlides} of ${t.longSlides} (${pct(t.bareSlides, t.longSlides).trim()})`);
row('by source', (t) =>
  Object.entries(t.sources)
    .map(([k, v]) => `${k} ${v}`)
    .join(', '),
);
row('model calls', (t) => `${t.stats.calls} (${t.stats.failures} failed, ${t.stats.cached} cached)`);
row('repairs/fallbacks', (t) => `${t.stats.repairs}/${t.stats.fallbacks}`);
row('model refused', (t) => `${t.stats.refused ?? 0} of ${t.stats.judged} judged`);
row(
  'first choices passed',
  (t) => `${t.stats.firstPassed ?? 0} of ${t.stats.firstChoices ?? 0} (${pct(t.stats.firstPassed ?? 0, t.stats.firstChoices ?? 0).trim()})`,
);
row('tokens in/out', (t) => `${t.stats.promptTokens}/${t.stats.completionTokens}`);
row('latency p50/p95', (t) => `${quantile(t.ms, 0.5).toFixed(1)}/${quantile(t.ms, 0.95).toFixed(1)} ms`);
console.log('\nlistings refused at count 6 (first device, with screens), per voice and length');
header('voice/length');
const cells = [...new Set(shown.flatMap((p) => [...parts[p].at6.keys()]))];
for (const cell of cells)
  row(cell, (t) => {
    const c = t.at6.get(cell);
    return c ? `${c.refused.size}/${c.asked.size} (${pct(c.refused.size, c.asked.size).trim()})` : '-';
  });
