/** Runs the planner over the caption corpus and scores every slide with the copywriter's checks. */
import { judgeSet, CHECKS, type Check } from '../../../src/planning/quality.ts';
import {
  CAPTION_LENGTH_IDS,
  CAPTION_STYLE_IDS,
  type CaptionStyle,
  type Device,
  type PlanInput,
  type PlanRequest,
  type ScreenshotSetResult,
} from '../../../src/planning/types.ts';
import { corpus } from './index.ts';

export interface Scored {
  app: string;
  input: PlanInput;
  result: ScreenshotSetResult;
  failed: Partial<Record<Check, string>>[];
}

const SHAPES: Pick<PlanRequest, 'count' | 'narrativeId'>[] = [
  {},
  { count: 8 },
  { narrativeId: 'how-it-works' },
  { narrativeId: 'problem-solution' },
  { narrativeId: 'benefits-first' },
];

function devicesFor(input: PlanInput['listings'][number]): Device[] {
  if (input.store === 'google-play')
    return input.screenshots['android-tablet'].length > 0 && input.screenshots['android-phone'].length === 0
      ? ['android-tablet']
      : ['android-phone'];
  return input.screenshots.ipad.length > 0 ? ['iphone-69', 'ipad-pro'] : ['iphone-69'];
}

export function measure(plan: (input: PlanInput) => ScreenshotSetResult): Scored[] {
  const out: Scored[] = [];
  for (const entry of corpus()) {
    for (const device of devicesFor(entry.listing)) {
      for (const captionStyle of CAPTION_STYLE_IDS) {
        for (const captionLength of CAPTION_LENGTH_IDS) {
          for (const shape of SHAPES) {
            const input: PlanInput = {
              listings: [entry.listing],
              extraContext: null,
              request: { device, captionStyle, captionLength, ...shape },
            };
            const result = plan(input);
            out.push({ app: entry.id, input, result, failed: judgeSet(input, result).map((v) => v.failed) });
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
