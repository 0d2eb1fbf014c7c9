/**
 * An app's own listing: the store text of an app that is not in a store yet (name, subtitle,
 * description, category, language, price), given at create instead of a store URL. The planner
 * reads it as it reads a store listing, with the limits a real listing has, so that what is
 * planned from it can go to a store unchanged.
 */
import type { FieldError } from '../core/problem.ts';
import { emptyScreenshots, type Listing, type StoreName } from '../core/listing.ts';

export const OWN_NAME_MAX = 30;
export const OWN_DESCRIPTION_MAX = 4000;
export const DEFAULT_OWN_LANGUAGE = 'en-US';
/** A price as a store shows it, without the currency: "0" (free), "4.99", "12". */
export const PRICE_PATTERN = '^(0|[1-9][0-9]{0,5})(\\.[0-9]{1,2})?$';
/** BCP 47 language, optionally with its region: "en-US", "de-DE", "ja", "pt-BR". */
export const LANGUAGE_PATTERN = '^[a-z]{2,3}(-[A-Z]{2})?$';

/** The App Store's categories (iOS and iPadOS; the games' genres after Games), in English as the store names them. */
export const APP_STORE_CATEGORIES = [
  'Books',
  'Business',
  'Developer Tools',
  'Education',
  'Entertainment',
  'Finance',
  'Food & Drink',
  'Games',
  'Graphics & Design',
  'Health & Fitness',
  'Kids',
  'Lifestyle',
  'Magazines & Newspapers',
  'Medical',
  'Music',
  'Navigation',
  'News',
  'Photo & Video',
  'Productivity',
  'Reference',
  'Shopping',
  'Social Networking',
  'Sports',
  'Stickers',
  'Travel',
  'Utilities',
  'Weather',
  'Action',
  'Adventure',
  'Board',
  'Card',
  'Casino',
  'Casual',
  'Family',
  'Puzzle',
  'Racing',
  'Role Playing',
  'Simulation',
  'Strategy',
  'Trivia',
  'Word',
] as const;

/** Google Play's app and game categories, in English as Play Console names them. */
export const GOOGLE_PLAY_CATEGORIES = [
  'Art & Design',
  'Auto & Vehicles',
  'Beauty',
  'Books & Reference',
  'Business',
  'Comics',
  'Communication',
  'Dating',
  'Education',
  'Entertainment',
  'Events',
  'Finance',
  'Food & Drink',
  'Health & Fitness',
  'House & Home',
  'Libraries & Demo',
  'Lifestyle',
  'Maps & Navigation',
  'Medical',
  'Music & Audio',
  'News & Magazines',
  'Parenting',
  'Personalization',
  'Photography',
  'Productivity',
  'Shopping',
  'Social',
  'Sports',
  'Tools',
  'Travel & Local',
  'Video Players & Editors',
  'Weather',
  'Action',
  'Adventure',
  'Arcade',
  'Board',
  'Card',
  'Casino',
  'Casual',
  'Educational',
  'Music',
  'Puzzle',
  'Racing',
  'Role Playing',
  'Simulation',
  'Strategy',
  'Trivia',
  'Word',
] as const;

/** Either store's names: an app before launch may be headed for one store or both. */
export const STORE_CATEGORIES: readonly string[] = [...new Set<string>([...APP_STORE_CATEGORIES, ...GOOGLE_PLAY_CATEGORIES])].sort();

export interface OwnListing {
  name: string;
  subtitle: string | null;
  description: string;
  category: string;
  /** language-REGION, e.g. "en-US": a bare language is completed with its likely region. */
  language: string;
  price: string;
}

const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' });
const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });

/** U+0000 cannot be stored (PostgreSQL) and a lone surrogate cannot be drawn or encoded. */
// eslint-disable-next-line no-control-regex -- NUL is what it looks for
const UNSAFE_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** "fr" → "fr-FR", "en-GB" stays; null when the tag or its parts are not known. */
function fullLanguage(tag: string): string | null {
  if (!new RegExp(LANGUAGE_PATTERN).test(tag)) return null;
  const [language, given] = tag.split('-');
  if (languageNames.of(language) === language) return null;
  let region = given;
  if (!region) {
    try {
      region = new Intl.Locale(language).maximize().region ?? '';
    } catch {
      return null;
    }
  }
  const name = regionNames.of(region);
  if (!region || name === region || name === 'Unknown Region') return null;
  return `${language}-${region}`;
}

/**
 * Every problem with a `listing` value, as field errors under `field` (the API's schema checks the
 * same, and the dashboard's form has only this); the listing, trimmed and completed, when none.
 * Tolerates any JSON value.
 */
export function checkOwnListing(value: unknown, field = 'listing'): { errors: FieldError[]; listing: OwnListing | null } {
  const errors: FieldError[] = [];
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { errors: [{ field, message: 'must be an object with name, description and category' }], listing: null };
  }
  const body = value as Record<string, unknown>;
  const text = (name: string, max: number, required: boolean): string | null => {
    const raw = body[name];
    if (raw === undefined || (raw === null && !required)) {
      if (required) errors.push({ field: `${field}.${name}`, message: 'is required' });
      return null;
    }
    if (typeof raw !== 'string') {
      errors.push({ field: `${field}.${name}`, message: 'must be a string' });
      return null;
    }
    const trimmed = raw.trim();
    if (UNSAFE_TEXT.test(trimmed)) errors.push({ field: `${field}.${name}`, message: 'must not contain NUL or unpaired surrogates' });
    else if (!trimmed) errors.push({ field: `${field}.${name}`, message: 'must not be blank' });
    else if ([...trimmed].length > max) errors.push({ field: `${field}.${name}`, message: `must be at most ${max} characters` });
    else return trimmed;
    return null;
  };
  const name = text('name', OWN_NAME_MAX, true);
  const subtitle = text('subtitle', OWN_NAME_MAX, false);
  const description = text('description', OWN_DESCRIPTION_MAX, true);
  const category = body.category;
  if (category === undefined) errors.push({ field: `${field}.category`, message: 'is required' });
  else if (typeof category !== 'string' || !STORE_CATEGORIES.includes(category))
    errors.push({
      field: `${field}.category`,
      message: 'must be an App Store or Google Play category as the store names it in English, e.g. Productivity, Health & Fitness, Tools',
    });
  const languageTag = body.language ?? DEFAULT_OWN_LANGUAGE;
  const language = typeof languageTag === 'string' ? fullLanguage(languageTag) : null;
  if (!language) errors.push({ field: `${field}.language`, message: 'must be a BCP 47 tag such as "en-US", "de-DE" or "ja"' });
  const price = body.price ?? '0';
  if (typeof price !== 'string' || !new RegExp(PRICE_PATTERN).test(price))
    errors.push({ field: `${field}.price`, message: 'must be a decimal string such as "0" (free) or "4.99"' });
  const known = new Set(['name', 'subtitle', 'description', 'category', 'language', 'price']);
  for (const k of Object.keys(body)) if (!known.has(k)) errors.push({ field: `${field}.${k}`, message: 'is not a known field' });
  if (errors.length) return { errors, listing: null };
  return {
    errors,
    listing: {
      name: name!,
      subtitle,
      description: description!,
      category: category as string,
      language: language!,
      price: price as string,
    },
  };
}

/**
 * The own listing as the planner reads a store listing, for the store a set is for (its rules and
 * its words: an Android set never says "iPhone"). It has no screenshots: its sets frame uploaded screens.
 */
export function ownListingFor(own: OwnListing, store: StoreName): Listing {
  const [language, region] = own.language.split('-');
  return {
    store,
    storeId: '',
    country: region.toLowerCase(),
    language,
    url: '',
    name: own.name,
    category: own.category,
    categoryId: null,
    artworkUrl: '',
    description: own.description,
    subtitle: own.subtitle,
    developer: null,
    rating: null,
    ratingCount: null,
    price: Number(own.price),
    currency: null,
    screenshots: emptyScreenshots(),
    own: true,
  };
}

/** A store listing read for an app that had its own: the app's own text stays where the store has none. */
export function withOwnText(store: Listing, own: OwnListing | null): Listing {
  if (!own) return store;
  return {
    ...store,
    name: store.name.trim() ? store.name : own.name,
    subtitle: store.subtitle?.trim() ? store.subtitle : own.subtitle,
    description: store.description.trim() ? store.description : own.description,
    category: store.category.trim() ? store.category : own.category,
  };
}
