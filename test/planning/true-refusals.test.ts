/**
 * Sixth read, beside the shapes: refusals and warnings that say what is true. A named story refused
 * offers the default story only where planning it makes the set, at the count it names; the
 * bare-slide warning no longer claims a check that never ran.
 */
import { describe, expect, it } from 'vitest';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import { isProblem } from '../../src/core/problem.ts';
import { missingSubheadlinesWarning } from '../../src/planning/story.ts';
import { CAPTION_LENGTH_IDS, CAPTION_STYLE_IDS } from '../../src/core/set.ts';
import { corpus } from './corpus/index.ts';
import { devicesFor } from './corpus/measure.ts';
import { planOrNull } from './plan-or-null.ts';
import split from './corpus/split.json' with { type: 'json' };

const heldOut = new Set<string>((split as { heldOut?: string[] }).heldOut ?? []);

describe('a named story refused names a default story that is made (sixth read)', () => {
  it('every offer of the default story is planned at the count it says', () => {
    const offers: string[] = [];
    const untrue: string[] = [];
    for (const e of corpus().filter((x) => !heldOut.has(x.id)))
      for (const style of CAPTION_STYLE_IDS)
        for (const length of CAPTION_LENGTH_IDS) {
          let detail = '';
          try {
            planScreenshotSet({
              listings: [e.listing],
              extraContext: null,
              uploadedScreens: 5,
              request: { device: devicesFor(e.listing)[0], captionStyle: style, captionLength: length, narrativeId: 'benefits-first' },
            });
            continue;
          } catch (error) {
            if (!isProblem(error) || error.code !== 'cannot_fill_set') throw error;
            detail = error.message;
          }
          const all = /ask for the default story \(no narrativeId\): it fills all (\d+) slides/.exec(detail);
          const some = /ask for the default story \(no narrativeId\) of (\d+) slides?, which it fills/.exec(detail);
          const n = Number((all ?? some)?.[1] ?? 0);
          if (!n) continue;
          offers.push(`${e.id} ${style}/${length}`);
          if (planOrNull(e.listing, style, length, { count: n }) === null) untrue.push(`${e.id} ${style}/${length}: count ${n} refused`);
        }
    expect(untrue).toEqual([]);
    expect(offers.length).toBeGreaterThan(0);
  });
});

describe('the bare-slide warning claims no check it did not run', () => {
  it('says the rest is not said under the slide, not that it failed the rules', () => {
    const w = missingSubheadlinesWarning([3], { why: 'rest', rest: 'as they move' });
    expect(w).toContain('("as they move") is not said under it');
    expect(w).not.toContain('did not pass');
  });
});
