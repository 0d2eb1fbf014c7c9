/**
 * `npm run plan:report [-- --failures N] [--app ID]`: the caption corpus's pass rate per check and
 * per voice, for the tuned and the held-out listings apart (./split.json), and the first failures
 * of the tuned part with their reasons, for reading (the held-out part is read as figures only).
 * The judge is the one checker the writer keeps captions by, so for the rule writer every rate is
 * 100 % by construction; `npm run eval:captions` adds refusals and an independent oracle.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { planScreenshotSet } from '../../../src/planning/plan.ts';
import { formatRates, measure, tally } from './measure.ts';

const { values } = parseArgs({ options: { failures: { type: 'string', default: '0' }, app: { type: 'string' } } });
const split = JSON.parse(readFileSync(new URL('./split.json', import.meta.url), 'utf8')) as { heldOut: string[] };
const scored = measure(planScreenshotSet).filter((s) => !values.app || s.app === values.app);
const tuned = scored.filter((s) => !split.heldOut.includes(s.app));
const heldOut = scored.filter((s) => split.heldOut.includes(s.app));
console.log(`tuned (${new Set(tuned.map((s) => s.app)).size} listings)\n${formatRates(tally(tuned))}`);
if (heldOut.length) console.log(`\nheld-out (${new Set(heldOut.map((s) => s.app)).size} listings)\n${formatRates(tally(heldOut))}`);
let left = Number(values.failures);
for (const s of tuned) {
  s.failed.forEach((f, i) => {
    if (left <= 0 || Object.keys(f).length === 0) return;
    left--;
    const slide = s.result.slides[i];
    const r = s.input.request;
    console.log(
      `\n${s.app} ${r.device} ${r.captionStyle}/${r.captionLength} ${r.narrativeId ?? `count ${r.count ?? 5}`} #${slide.index} ${slide.role}: "${slide.headline}"${slide.subheadline ? ` / "${slide.subheadline}"` : ''}`,
    );
    for (const [c, why] of Object.entries(f)) console.log(`   ${c}: ${why}`);
  });
}
