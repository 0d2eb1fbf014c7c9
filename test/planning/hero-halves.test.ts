/**
 * A hero whose headline coordinates two actions ("Cut scenes and add filters") is not followed by
 * slides that say those actions one by one when another hero leaves the slides whole lines: the set
 * must not say a half of the hero again (issue 33, sixth held-out read, D). Where no hero does, a half
 * is the warned last resort, never an unwarned slide. On listings written for the test.
 */
import { describe, expect, it } from 'vitest';
import { CAPTION_LENGTH_IDS, CAPTION_STYLE_IDS } from '../../src/core/set.ts';
import { planOrNull as plan } from './plan-or-null.ts';
import { listingOf } from './remaining-listings.ts';

/** A one-line video app: its only sentence is two actions and how fast. */
const cutter = listingOf({
  name: 'Snipreel',
  category: 'Photo & Video',
  subtitle: null,
  rating: 4.1,
  ratingCount: 220,
  description: 'Cut scenes and add filters in moments.',
});

const words = (t: string) => t.toLowerCase().match(/[a-z]+/g) ?? [];
/** Whether `head` says only words of the hero's headline (the app's name and the voices' frames aside). */
const halfOfHero = (hero: string, head: string) => {
  const frame = new Set(['now', 'you', 'can', 'go', 'ahead', 'with', 'snipreel']);
  const own = words(head).filter((w) => !frame.has(w));
  const said = new Set(words(hero));
  return own.length > 0 && own.length < said.size && own.every((w) => said.has(w));
};

describe('a hero’s halves', () => {
  it('are not said again when the set is short enough for the other half to be a slide', () => {
    for (const style of CAPTION_STYLE_IDS)
      for (const length of CAPTION_LENGTH_IDS) {
        const r = plan(cutter, style, length, { count: 3 });
        expect(r, `${style}/${length}`).not.toBeNull();
        const [hero, ...rest] = r!.slides;
        for (const s of rest)
          if (s.role === 'feature')
            expect(halfOfHero(hero.headline, s.headline), `${style}/${length}: ${hero.headline} → ${s.headline}`).toBe(false);
      }
  });

  it('are only ever a warned last resort', () => {
    for (const style of CAPTION_STYLE_IDS)
      for (const length of CAPTION_LENGTH_IDS) {
        const r = plan(cutter, style, length, {});
        if (!r) continue;
        const [hero, ...rest] = r.slides;
        for (const s of rest)
          if (s.role === 'feature' && halfOfHero(hero.headline, s.headline))
            expect(r.warnings.join(' '), `${style}/${length}: ${s.headline}`).toMatch(new RegExp(`Slide ${s.index} has a weaker caption`));
      }
  });
});
