/** The one normalised shape of a store listing, whichever store it came from. */
import { DEVICES, type Device } from './devices.ts';

export type StoreName = 'app-store' | 'google-play';

export type ScreenshotFamily = 'iphone' | 'ipad' | 'mac' | 'android-phone' | 'android-tablet';

export interface Screenshot {
  url: string;
  /** Pixel size when the store says it (from the URL or the data block); null when unknown. */
  width: number | null;
  height: number | null;
}

export interface Listing {
  store: StoreName;
  /** App Store numeric track id, or the Android package name. */
  storeId: string;
  /** Two-letter storefront country, lower case. */
  country: string;
  /** Listing language (BCP 47 primary tag, e.g. "en", "fr"); App Store: derived from the storefront. */
  language: string;
  /** The store's canonical page for the app (never the URL the user typed). */
  url: string;
  name: string;
  /** The store's own category name (App Store primaryGenreName, Play genre). */
  category: string;
  categoryId: string | null;
  /** https icon URL at 512 px or larger. */
  artworkUrl: string;
  /** Plain text: entities decoded, <br> turned into newlines. May be empty. */
  description: string;
  /** App Store subtitle when known, Play short summary. */
  subtitle: string | null;
  developer: string | null;
  rating: number | null;
  ratingCount: number | null;
  /** 0 for free apps. */
  price: number;
  currency: string | null;
  screenshots: Record<ScreenshotFamily, Screenshot[]>;
  /** 'mac' for a Mac App Store app (its screenshots are the `mac` family's, never iPhone or iPad ones); absent otherwise. */
  platform?: 'mac';
  /** True for the app's own listing text (an app not in a store yet): read from no store, no screenshots. */
  own?: true;
}

export const emptyScreenshots = (): Record<ScreenshotFamily, Screenshot[]> => ({
  iphone: [],
  ipad: [],
  mac: [],
  'android-phone': [],
  'android-tablet': [],
});

/** The listing whose store the device belongs to, else the first one given. */
export function primaryListing(listings: Listing[], device: Device): Listing {
  return listings.find((l) => l.store === DEVICES[device].store) ?? listings[0];
}
