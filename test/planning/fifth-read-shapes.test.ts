/**
 * Shapes the fifth read of 2026-11-28 found (docs/reads/2026-11-28-fifth.md), on the tuned part's
 * listings: the rule writer no longer writes them.
 */
import { describe, expect, it } from 'vitest';
import { checkCaptions } from '../../src/captions/checker/check.ts';
import { CAPTION_STYLE_IDS } from '../../src/core/set.ts';
import { devicesFor } from './corpus/measure.ts';
import { corpus } from './corpus/index.ts';
import { planOrNull as plan } from './plan-or-null.ts';
import { everyVoice } from './support/every-voice.ts';

const listing = (id: string) => corpus().find((e) => e.id === id)!.listing;

describe('a proof line saying "rate" twice (fifth read, D: "Rated 4.5★ From 3K+ Ratings")', () => {
  it('no voice says "rated" and "ratings" in one line', () => {
    // Each listing in four voice × length pairs, the three together in all ten (./support/every-voice.ts);
    // `npm run plan:full` plans each in every voice and length.
    const twice: string[] = [];
    for (const { item: id, captionStyle: style, captionLength: length } of everyVoice(['pennywise', 'routely', 'taskforge']))
      for (const shape of [{ count: 5 }, { narrativeId: 'problem-solution' as const }])
        for (const s of plan(listing(id), style, length, shape)?.slides ?? [])
          for (const line of [s.headline, s.subheadline ?? ''])
            if (/\brated\b.*\bratings\b/i.test(line)) twice.push(`${id} ${style}/${length}: ${line}`);
    expect(twice).toEqual([]);
  });
});

describe('the store’s rating under the ask (fifth read, warnings: writer and checker disagreed)', () => {
  it('the checker lets the ask’s subheadline quote the store’s rating, not a feature slide', () => {
    const l = listing('wayfarer');
    const [, ask] = checkCaptions(
      [
        {
          headline: 'Every trip in one place.',
          subheadline: 'Wayfarer keeps flights, hotels and plans together in one tidy itinerary.',
          role: 'hero',
        },
        {
          headline: 'Start with Wayfarer Trip Planner today.',
          subheadline: 'An average rating of 4.5 out of 5 from 1K+ ratings.',
          role: 'call-to-action',
        },
      ],
      { listings: [l], extraContext: null, device: devicesFor(l)[0], captionLength: 'long', captionStyle: 'professional' },
    );
    expect(ask.map((f) => f.id)).not.toContain('grounded');
    const [feature] = checkCaptions(
      [{ headline: 'Share plans.', subheadline: 'An average rating of 4.5 out of 5 from 1K+ ratings.', role: 'feature' }],
      { listings: [l], extraContext: null, device: devicesFor(l)[0], captionLength: 'long', captionStyle: 'professional' },
    );
    expect(feature.map((f) => f.id)).toContain('grounded');
  });

  it('a long set with no proof slide says the rating under its ask', () => {
    const r = plan(listing('wayfarer'), 'professional', 'long', { narrativeId: 'benefits-first' });
    const ask = r?.slides.at(-1);
    expect(ask?.role).toBe('call-to-action');
    expect(ask?.subheadline ?? '').toMatch(/4\.5 out of 5/);
  });
});

describe('the rating slide’s warning quotes a line the set does not say (fifth read, untrue warning 1)', () => {
  it('never names as unsaid a line a slide of the delivered set says', () => {
    const untrue: string[] = [];
    for (const id of ['wayfarer', 'routely', 'easyplanner'])
      for (const style of CAPTION_STYLE_IDS) {
        const r = plan(listing(id), style, 'long', { count: 5 });
        const lines = (r?.slides ?? []).flatMap((s) => [s.headline, s.subheadline ?? '']).map((t) => t.toLowerCase());
        for (const w of r?.warnings ?? []) {
          const quoted = /names more \("([^"]+)"\)/.exec(w)?.[1]?.toLowerCase();
          if (quoted && lines.some((t) => t.includes(quoted))) untrue.push(`${id} ${style}: ${quoted}`);
        }
      }
    expect(untrue).toEqual([]);
  });
});
