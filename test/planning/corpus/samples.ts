/**
 * `npm run plan:samples [-- --apps a,b,c] [--length short|long] [--count N]`: the corpus apps'
 * captions in every voice, one line per voice, for reading as a copywriter would.
 */
import { parseArgs } from 'node:util';
import { planScreenshotSet } from '../../../src/planning/plan.ts';
import { CAPTION_STYLE_IDS, type CaptionLength } from '../../../src/core/set.ts';
import { type Device } from '../../../src/core/devices.ts';
import { corpus } from './index.ts';

const { values } = parseArgs({
  options: {
    apps: { type: 'string', default: 'streakly,darkroom,pennywise,wayfarer,nitro' },
    length: { type: 'string', default: 'long' },
    count: { type: 'string', default: '4' },
  },
});
const wanted = values.apps.split(',');
for (const entry of corpus().filter((e) => wanted.includes(e.id))) {
  const l = entry.listing;
  const device: Device = l.store === 'google-play' ? 'android-phone' : 'iphone-69';
  console.log(`\n## ${l.name} (${l.category}, ${l.store})`);
  for (const captionStyle of CAPTION_STYLE_IDS) {
    const r = planScreenshotSet({
      listings: [l],
      extraContext: null,
      request: { device, captionStyle, captionLength: values.length as CaptionLength, count: Number(values.count) },
    });
    console.log(`- ${captionStyle}: ${r.slides.map((s) => `${s.headline}${s.subheadline ? ` — ${s.subheadline}` : ''}`).join(' | ')}`);
  }
}
