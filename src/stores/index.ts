/** The store readers the rest of the service uses: parsed ref in, normalised Listing out. */
import { fetchAppStoreListing } from './app-store.ts';
import { SingleFlightCache } from './cache.ts';
import { fetchGooglePlayListing } from './google-play.ts';
import { readerRetry, type StoreLogger } from './http.ts';
import type { Listing } from '../core/listing.ts';
import type { AppStoreRef, GooglePlayRef } from './urls.ts';

export type { Listing } from '../core/listing.ts';
export type { StoreLogger } from './http.ts';
export type { AppStoreRef, GooglePlayRef } from './urls.ts';
export { InvalidStoreUrl, parseAppStoreUrl, parseGooglePlayUrl } from './urls.ts';

export interface StoreReaders {
  /** Throws Problem store_app_not_found (422) or store_unavailable (502, Retry-After). */
  readAppStore(ref: AppStoreRef): Promise<Listing>;
  readGooglePlay(ref: GooglePlayRef): Promise<Listing>;
}

export interface StoreReadersOptions {
  appStoreLookupUrl: string;
  googlePlayUrl: string;
  /** Total time for one read, retry included. */
  timeoutMs: number;
  /** How long a successful read is reused; 0 turns caching off (single-flight stays). */
  cacheTtlMs: number;
  logger?: StoreLogger;
  now?: () => number;
  /** Cached listings kept at most (least recently used go first). Default 5000. */
  maxCacheEntries?: number;
  /** Base pause before the one retry. Default 250 ms. */
  retryDelayMs?: number;
}

export function createStoreReaders(opts: StoreReadersOptions): StoreReaders {
  const cache = new SingleFlightCache<Listing>({
    ttlMs: opts.cacheTtlMs,
    maxEntries: opts.maxCacheEntries ?? 5000,
    now: opts.now ?? Date.now,
  });
  const policy = { retry: readerRetry(opts.timeoutMs, opts.retryDelayMs ?? 250), logger: opts.logger };
  // Callers get their own copy: a cached Listing is shared and must not be changed under others.
  const read = (key: string, load: () => Promise<Listing>) => cache.get(key, load).then((l) => structuredClone(l));
  return {
    readAppStore: (ref) =>
      read(`app-store\n${ref.id}\n${ref.country}`, () =>
        fetchAppStoreListing(ref, { ...policy, lookupUrl: opts.appStoreLookupUrl.replace(/\/+$/, '') }),
      ),
    readGooglePlay: (ref) =>
      read(`google-play\n${ref.id}\n${ref.country}\n${ref.language}`, () =>
        fetchGooglePlayListing(ref, { ...policy, baseUrl: opts.googlePlayUrl.replace(/\/+$/, '') }),
      ),
  };
}
