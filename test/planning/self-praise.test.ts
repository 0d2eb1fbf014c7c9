/**
 * Praise any listing could say of itself (recordings read, docs/reads/2026-11-29-recordings.md, "Top
 * 5 patterns" 4): "This is a lovely app!" spends a slide the listing's concrete lines could fill.
 * Look-alike lines written for this test.
 */
import { describe, expect, it } from 'vitest';
import { offRole } from '../../src/captions/checker/selling.ts';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import { isProblem } from '../../src/core/problem.ts';
import { CAPTION_STYLE_IDS } from '../../src/core/set.ts';
import { habitly } from './listings.ts';

describe('generic self-praise is not a selling point', () => {
  it.each(['This is a lovely app!', "It's the nicest little tool.", 'This is one fun game'])('"%s"', (line) => {
    expect(offRole(line)).toBe('self-praise');
  });
  it.each(['This is a lovely app with a chart of every bill due this month', 'This app files your receipts'])('"%s" may sell', (line) =>
    expect(offRole(line)).toBeNull(),
  );

  it('the rule writer says a concrete line instead', () => {
    const listing = {
      ...habitly,
      name: 'Billfold',
      subtitle: null,
      description: [
        'Billfold shows every bill due this month.',
        'This is a lovely app.',
        'Snap a receipt to file it under the right bill.',
        'Get a reminder two days before a bill is due.',
      ].join('\n\n'),
    };
    const heads: string[] = [];
    for (const captionStyle of CAPTION_STYLE_IDS) {
      const r = planScreenshotSet({
        listings: [listing],
        extraContext: null,
        request: { device: 'iphone-69', captionStyle, captionLength: 'short', count: 3 },
      });
      if (!isProblem(r)) heads.push(...r.slides.map((s) => s.headline));
    }
    expect(heads.length).toBeGreaterThanOrEqual(6);
    expect(heads.filter((h) => /lovely/i.test(h))).toEqual([]);
  });
});
