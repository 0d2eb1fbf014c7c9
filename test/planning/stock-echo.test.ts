/**
 * In a story with no proof slide (benefits-first), a slide whose only line left is the hero's noun
 * phrase with a stock verb ("Download offline maps" after "Offline piste maps") shows the store's
 * rating instead, and says why (issue 33, sixth held-out read, D). On a listing written for the test.
 */
import { describe, expect, it } from 'vitest';
import { CAPTION_LENGTH_IDS, CAPTION_STYLE_IDS } from '../../src/core/set.ts';
import { planOrNull as plan } from './plan-or-null.ts';
import { listingOf } from './remaining-listings.ts';

/** A ski map app: its summary is its hero, and its first bullet is the hero with a stock verb. */
const ski = listingOf({
  name: 'Pistebook - Ski GPS',
  category: 'Navigation',
  subtitle: 'Offline piste maps for skiers and boarders',
  rating: 4.7,
  ratingCount: 120000,
  description: [
    'Pistebook is the mountain companion trusted by winter fans.',
    '★ Download offline maps for any resort',
    '★ Record your runs with precise GPS tracking',
    '★ Discover 3,000 resorts with snow reports',
    '★ Share live location with friends for safety',
  ].join('\n'),
});

describe('the hero said again with a stock verb', () => {
  it('gives way to the rating in benefits-first, in every voice and length, with the reason', () => {
    let heroes = 0;
    for (const style of CAPTION_STYLE_IDS)
      for (const length of CAPTION_LENGTH_IDS) {
        const r = plan(ski, style, length, { narrativeId: 'benefits-first' });
        if (!r) continue;
        const heads = r.slides.map((s) => s.headline);
        if (!/offline piste maps/i.test(heads[0])) continue;
        heroes++;
        expect(heads.join(' | '), `${style}/${length}`).not.toMatch(/\b(download|get|use|try) offline maps/i);
        const proof = r.slides.find((s) => s.role === 'social-proof');
        expect(proof, `${style}/${length}: ${heads.join(' | ')}`).toBeDefined();
        expect(r.warnings.join(' ')).toMatch(
          new RegExp(`Slide ${proof!.index} shows the app's rating instead of another feature.*hero's words again`),
        );
      }
    expect(heroes).toBeGreaterThan(0);
  });
});
