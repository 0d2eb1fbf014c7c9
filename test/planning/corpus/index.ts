/**
 * The caption corpus as Listings: every entry goes through the real store parsers, in the formats
 * the stores answer with, so the planner sees exactly what it would see in production.
 */
import { parseAppStoreLookupBody } from '../../../src/stores/app-store.ts';
import { parseGooglePlayDetailsPage } from '../../../src/stores/google-play.ts';
import type { Listing } from '../../../src/core/listing.ts';
import { lookupBody, lookupResult, playDetails, playDetailsPage, softwareApplicationLd } from '../../support/store-fixtures.ts';
import { APP_STORE_A } from './app-store-a.ts';
import { APP_STORE_B } from './app-store-b.ts';
import { GOOGLE_PLAY } from './google-play.ts';

export interface CorpusEntry {
  id: string;
  why: string;
  listing: Listing;
}

function appStore(): CorpusEntry[] {
  return [...APP_STORE_A, ...APP_STORE_B].map((a) => {
    const country = a.country ?? 'us';
    const result = lookupResult({
      trackViewUrl: `https://apps.apple.com/${country}/app/id${String(a.result.trackId)}?uo=4`,
      currency: 'USD',
      ...a.result,
    });
    return {
      id: a.id,
      why: a.why,
      listing: parseAppStoreLookupBody(lookupBody([result], { raw: true }), { id: String(a.result.trackId), country }),
    };
  });
}

function googlePlay(): CorpusEntry[] {
  return GOOGLE_PLAY.map((a) => {
    const html = playDetailsPage({
      details: playDetails(a.details),
      jsonLd: softwareApplicationLd({ name: a.details.title, category: a.details.genreId }),
    });
    return {
      id: a.id,
      why: a.why,
      listing: parseGooglePlayDetailsPage(html, { id: a.details.id ?? a.id, country: 'us', language: a.language ?? 'en' }),
    };
  });
}

let loaded: CorpusEntry[] | null = null;

export function corpus(): CorpusEntry[] {
  loaded ??= [...appStore(), ...googlePlay()];
  return loaded;
}
