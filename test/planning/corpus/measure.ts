/**
 * Runs the planner over the caption corpus and scores every slide with the one checker
 * (src/captions/checker/check.ts, `checkSet`), its findings grouped into the report's rows.
 */
import { checkSet, type FindingId } from '../../../src/captions/checker/check.ts';
import {
  CAPTION_LENGTH_IDS,
  CAPTION_STYLE_IDS,
  type CaptionStyle,
  type PlanInput,
  type PlanRequest,
  type ScreenshotSetResult,
} from '../../../src/core/set.ts';
import { type Device } from '../../../src/core/devices.ts';
import { corpus } from './index.ts';
import { isProblem } from '../../../src/core/problem.ts';
import { rotated } from '../sample.ts';

/**
 * The report's rows: the copywriter's eight as before, then the checker's findings they did not
 * cover. Every finding belongs to one row, so a slide passes "ALL CHECKS" exactly when the
 * checker passes it.
 */
export const CHECKS = [
  'complete',
  'distinct',
  'no-echo',
  'clean',
  'tone',
  'one-feature',
  'value-first',
  'screens',
  'fits',
  'grounded',
  'language',
] as const;
export type Check = (typeof CHECKS)[number];
const ROW: Record<FindingId, Check> = {
  complete: 'complete',
  repeat: 'distinct',
  generic: 'distinct',
  echo: 'no-echo',
  style: 'clean',
  'policy.free': 'clean',
  'policy.price': 'clean',
  'policy.platform': 'clean',
  'policy.review': 'clean',
  'policy.other-app': 'clean',
  'policy.hidden': 'clean',
  tone: 'tone',
  'one-feature': 'one-feature',
  'value-first': 'value-first',
  screens: 'screens',
  shape: 'fits',
  fits: 'fits',
  grounded: 'grounded',
  language: 'language',
  cut: 'complete',
  frame: 'clean',
  'off-role': 'distinct',
  rating: 'grounded',
  'echo-pair': 'no-echo',
};

export interface Scored {
  app: string;
  input: PlanInput;
  result: ScreenshotSetResult;
  failed: Partial<Record<Check, string>>[];
}

/** The checker's findings on a set, per slide, as the report's rows (the first reason of each). */
export function judged(input: PlanInput, result: ScreenshotSetResult): Partial<Record<Check, string>>[] {
  return checkSet(input, result).map((findings) => {
    const out: Partial<Record<Check, string>> = {};
    for (const f of findings) out[ROW[f.id]] ??= `${f.id}: ${f.message}`;
    return out;
  });
}

const SHAPES: Pick<PlanRequest, 'count' | 'narrativeId'>[] = [
  {},
  { count: 8 },
  { narrativeId: 'how-it-works' },
  { narrativeId: 'problem-solution' },
  { narrativeId: 'benefits-first' },
];

export function devicesFor(input: PlanInput['listings'][number]): Device[] {
  if (input.store === 'google-play')
    return input.screenshots['android-tablet'].length > 0 && input.screenshots['android-phone'].length === 0
      ? ['android-tablet']
      : ['android-phone'];
  return input.screenshots.ipad.length > 0 ? ['iphone-69', 'ipad-pro'] : ['iphone-69'];
}

/**
 * Plans and judges the corpus in every voice × length × story (`npm run plan:report`), or, with
 * `sample`, one story per listing, device, voice and length, rotated with the listing, voice and
 * length (../sample.ts): every listing is still planned in every voice and length, every voice ×
 * length meets every story, and five listings in a row together plan the whole product. That is a
 * fifth of the sets; `npm test`'s quality bar judges it (test/planning/quality.test.ts).
 */
export function measure(plan: (input: PlanInput) => ScreenshotSetResult, { sample = false } = {}): Scored[] {
  const out: Scored[] = [];
  for (const [e, entry] of corpus().entries()) {
    for (const device of devicesFor(entry.listing)) {
      for (const [v, captionStyle] of CAPTION_STYLE_IDS.entries()) {
        for (const [l, captionLength] of CAPTION_LENGTH_IDS.entries()) {
          for (const [s, shape] of SHAPES.entries()) {
            if (sample && !rotated(e + v + l, s, SHAPES.length)) continue;
            const input: PlanInput = {
              listings: [entry.listing],
              extraContext: null,
              request: { device, captionStyle, captionLength, ...shape },
            };
            let result: ScreenshotSetResult;
            try {
              result = plan(input);
            } catch (error) {
              // A refused set (cannot_fill_set) has no captions to judge; eval:captions counts refusals.
              if (isProblem(error) && error.code === 'cannot_fill_set') continue;
              throw error;
            }
            out.push({ app: entry.id, input, result, failed: judged(input, result) });
          }
        }
      }
    }
  }
  return out;
}

export interface Rates {
  slides: number;
  passAll: number;
  byCheck: Record<Check, number>;
}

const emptyRates = (): Rates => ({
  slides: 0,
  passAll: 0,
  byCheck: Object.fromEntries(CHECKS.map((c) => [c, 0])) as Record<Check, number>,
});

/** Pass counts per voice and overall ("all"). */
export function tally(scored: Scored[]): Record<CaptionStyle | 'all', Rates> {
  const out = Object.fromEntries([...CAPTION_STYLE_IDS, 'all'].map((k) => [k, emptyRates()])) as Record<CaptionStyle | 'all', Rates>;
  for (const s of scored) {
    for (const f of s.failed) {
      for (const r of [out[s.result.captionStyle], out.all]) {
        r.slides++;
        if (Object.keys(f).length === 0) r.passAll++;
        for (const c of CHECKS) if (!f[c]) r.byCheck[c]++;
      }
    }
  }
  return out;
}

const pct = (n: number, d: number) => (d === 0 ? '  n/a' : `${((100 * n) / d).toFixed(1).padStart(5)}%`);

export function formatRates(rates: Record<CaptionStyle | 'all', Rates>): string {
  const cols = [...CAPTION_STYLE_IDS, 'all'] as const;
  const lines = [`${'check'.padEnd(12)} ${cols.map((c) => c.padStart(12)).join(' ')}`];
  for (const c of CHECKS)
    lines.push(`${c.padEnd(12)} ${cols.map((v) => pct(rates[v].byCheck[c], rates[v].slides).padStart(12)).join(' ')}`);
  lines.push(`${'ALL CHECKS'.padEnd(12)} ${cols.map((v) => pct(rates[v].passAll, rates[v].slides).padStart(12)).join(' ')}`);
  lines.push(`${'slides'.padEnd(12)} ${cols.map((v) => String(rates[v].slides).padStart(12)).join(' ')}`);
  return lines.join('\n');
}
