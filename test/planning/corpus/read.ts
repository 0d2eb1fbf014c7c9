/**
 * `npm run plan:read [-- --seed N] [--sets N] [--part tuned|held-out|recordings] [--whole]`: a seeded
 * random sample of the corpus's sets (listing × voice × length × story), printed for a copywriter to
 * read under the rubric (docs/captions.md). The sample is chosen before anything is planned, so the
 * same seed reads the same requests before and after a change; a refused request is printed as
 * refused (it counts zero). `recordings` samples the real store responses in ../shared/fixtures/stores
 * (./recordings.ts) instead of the corpus. `--whole` prints warnings and refusals uncut, as a reader
 * judging whether they are true needs them.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { planScreenshotSet } from '../../../src/planning/plan.ts';
import { CAPTION_LENGTH_IDS, CAPTION_STYLE_IDS, type PlanRequest } from '../../../src/core/set.ts';
import { isProblem } from '../../../src/core/problem.ts';
import { corpus } from './index.ts';
import { devicesFor } from './measure.ts';
import { recordingDevice, recordings, RECORDINGS_ROOT } from './recordings.ts';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '7' },
    sets: { type: 'string', default: '10' },
    part: { type: 'string', default: 'tuned' },
    whole: { type: 'boolean', default: false },
  },
});
const split = JSON.parse(readFileSync(new URL('./split.json', import.meta.url), 'utf8')) as { heldOut: string[] };
let state = Number(values.seed) >>> 0 || 1;
// A small xorshift: the sample depends on the seed alone, never on the planner.
const rand = (n: number) => {
  state ^= state << 13;
  state ^= state >>> 17;
  state ^= state << 5;
  return (state >>> 0) % n;
};
const SHAPES: Pick<PlanRequest, 'count' | 'narrativeId'>[] = [
  {},
  {},
  { count: 3 },
  { count: 8 },
  { narrativeId: 'benefits-first' },
  { narrativeId: 'problem-solution' },
  { narrativeId: 'how-it-works' },
];
const cut = (text: string, n: number) => (values.whole ? text : text.slice(0, n));
const recorded = values.part === 'recordings' ? recordings() : undefined;
if (recorded === null) {
  // Not an error: the recordings live outside the repository and are only on some machines.
  console.log(`The recordings part needs ${RECORDINGS_ROOT}, which is absent here: nothing to read.`);
  process.exit(0);
}
if (recorded) {
  console.log(`# ${recorded.listings.length} recordings read as listings; refused by the store parsers (not sampled):`);
  for (const r of recorded.refused) console.log(`#   ${r.id}: ${r.code}`);
}
const entries = recorded?.listings ?? corpus().filter((e) => (values.part === 'held-out') === split.heldOut.includes(e.id));
for (let n = 0; n < Number(values.sets); n++) {
  const e = entries[rand(entries.length)];
  const device = recorded ? recordingDevice(e.listing) : devicesFor(e.listing)[0];
  const request: PlanRequest = {
    device,
    captionStyle: CAPTION_STYLE_IDS[rand(CAPTION_STYLE_IDS.length)],
    captionLength: CAPTION_LENGTH_IDS[rand(CAPTION_LENGTH_IDS.length)],
    ...SHAPES[rand(SHAPES.length)],
  };
  const label = `${e.id} ${device} ${request.captionStyle}/${request.captionLength} ${request.narrativeId ?? `count ${request.count ?? 5}`}`;
  try {
    const r = planScreenshotSet({ listings: [e.listing], extraContext: null, uploadedScreens: 5, request });
    console.log(`\n## ${label}`);
    for (const s of r.slides) console.log(`  ${s.index}. [${s.role}] ${s.headline}${s.subheadline ? `  //  ${s.subheadline}` : ''}`);
    for (const w of r.warnings) console.log(`  ! ${cut(w, 160)}`);
  } catch (error) {
    if (!isProblem(error)) throw error;
    console.log(`\n## ${label}\n  REFUSED ${error.code}: ${cut(error.detail, 140)}`);
  }
}
