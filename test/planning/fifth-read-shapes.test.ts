/**
 * Shapes the fifth read of 2026-11-28 found (docs/reads/2026-11-28-fifth.md), on the tuned part's
 * listings: the rule writer no longer writes them.
 */
import { describe, expect, it } from 'vitest';
import { CAPTION_LENGTH_IDS, CAPTION_STYLE_IDS } from '../../src/core/set.ts';
import { corpus } from './corpus/index.ts';
import { planOrNull as plan } from './plan-or-null.ts';

const listing = (id: string) => corpus().find((e) => e.id === id)!.listing;

describe('a proof line saying "rate" twice (fifth read, D: "Rated 4.5★ From 3K+ Ratings")', () => {
  it('no voice says "rated" and "ratings" in one line', () => {
    const twice: string[] = [];
    for (const id of ['pennywise', 'routely', 'taskforge'])
      for (const style of CAPTION_STYLE_IDS)
        for (const length of CAPTION_LENGTH_IDS)
          for (const shape of [{ count: 5 }, { narrative: 'problem-solution' as const }])
            for (const s of plan(listing(id), style, length, shape)?.slides ?? [])
              for (const line of [s.headline, s.subheadline ?? ''])
                if (/\brated\b.*\bratings\b/i.test(line)) twice.push(`${id} ${style}/${length}: ${line}`);
    expect(twice).toEqual([]);
  });
});
