/**
 * `npm run plan:figures [-- --part tuned|held-out]`: the code figures read beside a copywriter's read
 * (docs/captions.md): per part, refusals at the defaults (aso-expert, short, count 5, screens uploaded)
 * per store, and over every voice × length × story the slides the rubric's mechanical defects would
 * catch: cut phrases, grammar-breaking frames, echo pairs, off-role lines and ratings the store's figures
 * contradict. Each figure is counted by the checker's own finding ids (these are the rules both writers
 * must meet; a figure above zero is a writer defect), so it says what is left, not how good the rest reads.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { checkSet } from '../../../src/captions/checker/check.ts';
import { planScreenshotSet } from '../../../src/planning/plan.ts';
import { CAPTION_LENGTH_IDS, CAPTION_STYLE_IDS, type PlanRequest } from '../../../src/core/set.ts';
import { isProblem } from '../../../src/core/problem.ts';
import { corpus } from './index.ts';
import { devicesFor } from './measure.ts';

const { values } = parseArgs({ options: { part: { type: 'string', default: 'held-out' }, quick: { type: 'boolean' } } });
const split = JSON.parse(readFileSync(new URL('./split.json', import.meta.url), 'utf8')) as { heldOut: string[] };
const entries = corpus().filter((e) => (values.part === 'held-out') === split.heldOut.includes(e.id));
const SHAPES: Pick<PlanRequest, 'count' | 'narrativeId'>[] = [
  {},
  { count: 8 },
  { narrativeId: 'problem-solution' },
  { narrativeId: 'benefits-first' },
];
const IDS = ['cut', 'frame', 'echo', 'echo-pair', 'off-role', 'rating'] as const;
const found: Record<string, number> = Object.fromEntries(IDS.map((i) => [i, 0]));
// Of them, slides where the finding is soft: a near miss the set ships warned, the listing having nothing better.
const warned: Record<string, number> = Object.fromEntries(IDS.map((i) => [i, 0]));
let slides = 0;
let sets = 0;
let refused = 0;
const defaults: Record<string, { asked: number; refused: string[] }> = {};
for (const e of entries) {
  const device = devicesFor(e.listing)[0];
  const kind = e.listing.platform === 'mac' ? 'mac' : e.listing.store;
  const d = (defaults[kind] ??= { asked: 0, refused: [] });
  d.asked++;
  try {
    planScreenshotSet({ listings: [e.listing], extraContext: null, uploadedScreens: 5, request: { device } });
  } catch (error) {
    if (!isProblem(error)) throw error;
    d.refused.push(e.id);
  }
  for (const captionStyle of values.quick ? (['aso-expert'] as const) : CAPTION_STYLE_IDS)
    for (const captionLength of CAPTION_LENGTH_IDS)
      for (const shape of SHAPES) {
        const input = {
          listings: [e.listing],
          extraContext: null,
          uploadedScreens: 5,
          request: { device, captionStyle, captionLength, ...shape },
        };
        let result;
        try {
          result = planScreenshotSet(input);
        } catch (error) {
          if (!isProblem(error)) throw error;
          refused++;
          continue;
        }
        sets++;
        for (const f of checkSet(input, result)) {
          slides++;
          for (const id of new Set(f.map((x) => x.id))) {
            if (!(id in found)) continue;
            found[id]++;
            if (f.every((x) => x.id !== id || x.soft)) warned[id]++;
          }
        }
      }
}
console.log(`${values.part}: ${entries.length} listings`);
for (const [kind, d] of Object.entries(defaults))
  console.log(`  defaults refused, ${kind}: ${d.refused.length} of ${d.asked}${d.refused.length ? ` (${d.refused.join(', ')})` : ''}`);
console.log(
  `  every voice × length × story: ${sets} sets made, ${refused} refused (${((100 * refused) / (sets + refused)).toFixed(1)} %), ${slides} slides`,
);
for (const id of IDS) console.log(`  slides with ${id}: ${found[id]}${warned[id] ? ` (${warned[id]} of them warned near misses)` : ''}`);
