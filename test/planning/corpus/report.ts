/**
 * `npm run plan:report [-- --failures N] [--app ID]`: the caption corpus's pass rate per check and
 * per voice, and the first failures with their reasons, for reading.
 */
import { parseArgs } from 'node:util';
import { planScreenshotSet } from '../../../src/planning/plan.ts';
import { formatRates, measure, tally } from './measure.ts';

const { values } = parseArgs({ options: { failures: { type: 'string', default: '0' }, app: { type: 'string' } } });
const scored = measure(planScreenshotSet).filter((s) => !values.app || s.app === values.app);
console.log(formatRates(tally(scored)));
let left = Number(values.failures);
for (const s of scored) {
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
