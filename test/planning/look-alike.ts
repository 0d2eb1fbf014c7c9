/**
 * Look-alike listings written for the sixth read's shapes (docs/reads/2026-11-28-sixth.md): the same
 * kinds of line as the listings the reader quoted, in other words, so the rules are tested on
 * sentences they were not tuned on. Parsed by the real App Store parser, as the corpus is.
 */
import { parseAppStoreLookupBody } from '../../src/stores/app-store.ts';
import type { Listing } from '../../src/core/listing.ts';
import { lookupBody, lookupResult } from '../support/store-fixtures.ts';
import { shotsOf } from './corpus/app-store-a.ts';

let nextId = 1620000100;

export function lookAlike(o: { name: string; genre: string; subtitle: string | null; description: string[]; country?: string }): Listing {
  const trackId = nextId++;
  const country = o.country ?? 'us';
  const result = lookupResult({
    trackId,
    trackName: o.name,
    primaryGenreName: o.genre,
    primaryGenreId: 6000,
    ...(o.subtitle ? { subtitle: o.subtitle } : {}),
    averageUserRating: 4.6,
    userRatingCount: 4200,
    price: 0,
    currency: 'USD',
    description: o.description.join('\n'),
    screenshotUrls: shotsOf(o.name.toLowerCase().replace(/\W+/g, ''), 5),
    ipadScreenshotUrls: [],
    trackViewUrl: `https://apps.apple.com/${country}/app/id${trackId}?uo=4`,
  });
  return parseAppStoreLookupBody(lookupBody([result], { raw: true }), { id: String(trackId), country });
}
