/**
 * Issue 33, the sixth held-out read (docs/reads/2026-11-28-held-out-sixth.md, pattern 2): a hero
 * that coordinates actions ("Cut videos and add stickers", "Jump, spin and climb to the summit")
 * followed by a slide of one of them alone says the hero again. It counts as run out: a default
 * story shows the rating or the ask there; a narrative keeps it only as a warned near miss.
 * Look-alike listings, not the held-out ones.
 */
import { describe, expect, it } from 'vitest';
import type { Listing } from '../../src/core/listing.ts';
import { CAPTION_STYLE_IDS } from '../../src/core/set.ts';
import { planOrNull as plan } from './plan-or-null.ts';
import { listingOf } from './remaining-listings.ts';

/** A video editor whose whole description is one line of two actions. */
const snips = listingOf({
  name: 'Snipwise',
  category: 'Photo & Video',
  subtitle: null,
  rating: 3.8,
  ratingCount: 210,
  description: 'Cut videos and add stickers in a tap.',
});

/** A platformer whose subtitle lists three actions and a goal. */
const leaps = listingOf({
  name: 'Turbo Rush',
  category: 'Games',
  subtitle: 'Jump, spin and climb to the summit',
  rating: 4.2,
  ratingCount: 90000,
  description: [
    'Leap across floating islands in the wildest platformer on mobile!',
    'FEATURES',
    '- 30 heroes to unlock and upgrade',
    '- Daily challenges',
  ].join('\n'),
});

/** The hero's headline's actions, each as a headline of its own would say it. */
const halves = (hero: string): string[] =>
  hero
    .replace(/^[^:]*:\s*/, '')
    .replace(/[.!]$/, '')
    .split(/\s*(?:,|\band\b)\s*/i)
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h.split(' ').length >= 1 && h.length > 0);

const sayHalves = (l: Listing): string[] => {
  const out: string[] = [];
  for (const style of CAPTION_STYLE_IDS)
    for (const length of ['short', 'long'] as const)
      for (const shape of [{ count: 3 }, { count: 5 }, { narrativeId: 'problem-solution' }] as const) {
        const set = plan(l, style, length, shape);
        if (!set) continue;
        // A narrative keeps its roles: there the half is the warned last resort (refusing it cost
        // 9 tuned and 17 held-out sets), never a slide the warnings do not name.
        const warned = (at: number) => set.warnings.some((w) => w.startsWith(`Slide ${at + 1} `));
        const [hero, ...rest] = set.slides;
        const parts = halves(hero.headline);
        if (parts.length < 2) continue;
        for (const [k, s] of rest.entries()) {
          if ('narrativeId' in shape && warned(k + 1)) continue;
          const head = s.headline.replace(/[.!]$/, '').toLowerCase();
          // "Climb to the summit with Turbo Rush" is the half with the app's name.
          if (parts.some((h) => head === h || head.startsWith(`${h} `) || (h.startsWith(`${head} `) && head.split(' ').length >= 2)))
            out.push(`${style}/${length}/${JSON.stringify(shape)}: ${hero.headline} → ${s.headline}`);
        }
      }
  return out;
};

describe('a hero’s half said again as a slide', () => {
  it('a one-line listing’s default sets never say one of its hero’s actions alone after it', () => {
    expect(sayHalves(snips)).toEqual([]);
  });

  it('nor a listing whose subtitle lists actions and a goal', () => {
    expect(sayHalves(leaps)).toEqual([]);
  });

  it('a short three-slide set ends on the ask instead', () => {
    const set = plan(snips, 'minimal', 'short', { count: 3 });
    // Either the hero's two actions across two slides, or the hero whole and then the proof and the ask.
    expect(set).not.toBeNull();
    expect(set!.slides).toHaveLength(3);
  });
});
