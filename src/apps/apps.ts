/**
 * Apps: an account's app with the store listing(s) it was created from, or its own listing text
 * when it is not in a store yet (./own-listing.ts). The listings are stored whole so that planning
 * never has to reach a store again.
 */
import { LRUCache } from 'lru-cache';
import { newId } from '../core/ids.ts';
import type { Queryable } from '../db/pool.ts';
import { Problem, validationFailed, type FieldError } from '../core/problem.ts';
import type { Listing } from '../core/listing.ts';
import type { StoreReaders } from '../stores/index.ts';
import { InvalidStoreUrl, parseAppStoreUrl, parseGooglePlayUrl } from '../stores/urls.ts';
import type { AppStoreRef, GooglePlayRef } from '../stores/index.ts';
import type { StoreName } from '../core/listing.ts';
import type { ObjectStore } from '../objects/index.ts';
import { iconKey } from '../brand/icon-cache.ts';
import { checkOwnListing, ownListingFor, withOwnText, type OwnListing } from './own-listing.ts';

export const EXTRA_CONTEXT_MAX = 2000;

export interface App {
  id: string;
  accountId: string;
  name: string;
  category: string;
  /** The store's icon; null for an app created from its own listing (an uploaded icon is `icon`). */
  artworkUrl: string | null;
  iosListing: Listing | null;
  androidListing: Listing | null;
  /** The listing text the app was created with, before it was in a store; null for a store app. */
  listing: OwnListing | null;
  /** The icon the owner uploaded (PUT /apps/{appId}/icon): it outranks the store's. */
  icon: AppIcon | null;
  /** Counts changes to the listings (a store URL added later): caches compare it. */
  listingsVersion: number;
  extraContext: string | null;
  createdAt: Date;
}

export interface AppIcon {
  objectKey: string;
  contentType: 'image/png' | 'image/jpeg';
  width: number;
  height: number;
  bytes: number;
  sha256: string;
}

interface AppRow {
  id: string;
  account_id: string;
  name: string;
  category: string;
  artwork_url: string | null;
  ios_listing: Listing | null;
  android_listing: Listing | null;
  own_listing: OwnListing | null;
  icon: AppIcon | null;
  listings_version: number;
  extra_context: string | null;
  created_at: Date;
}

const toApp = (r: AppRow): App => ({
  id: r.id,
  accountId: r.account_id,
  name: r.name,
  category: r.category,
  artworkUrl: r.artwork_url,
  iosListing: r.ios_listing,
  androidListing: r.android_listing,
  listing: r.own_listing,
  icon: r.icon,
  listingsVersion: r.listings_version,
  extraContext: r.extra_context,
  createdAt: r.created_at,
});

/**
 * The listings a set of this app is planned from, for a set of `store`: its store listings, or
 * while it has none, its own listing read as one of that store's.
 */
export function listingsOf(app: Pick<App, 'iosListing' | 'androidListing' | 'listing'>, store: StoreName): Listing[] {
  const stored = [app.iosListing, app.androidListing].filter((l) => l !== null);
  if (stored.length || !app.listing) return stored;
  return [ownListingFor(app.listing, store)];
}

export interface CreateAppInput {
  iosUrl?: string;
  androidUrl?: string;
  extraContext?: string;
  /** The app's own listing text (./own-listing.ts), instead of the URLs. */
  listing?: unknown;
}

export interface CheckedCreateAppInput {
  ios: AppStoreRef | null;
  android: GooglePlayRef | null;
  listing: OwnListing | null;
  extraContext: string | null;
}

/**
 * Every problem with a create-app body, as field errors. Tolerates any JSON value, so that the
 * route can add these to the schema's own errors and report all of them at once.
 */
export function checkCreateAppInput(input: unknown): { errors: FieldError[]; checked: CheckedCreateAppInput } {
  const errors: FieldError[] = [];
  const isObject = input !== null && typeof input === 'object' && !Array.isArray(input);
  const body = (isObject ? input : {}) as Record<string, unknown>;
  const urls = body.iosUrl !== undefined || body.androidUrl !== undefined;
  if (isObject && !urls && body.listing === undefined) {
    errors.push({ field: 'iosUrl', message: 'provide iosUrl, androidUrl or both, or listing (an app not in a store yet)' });
  }
  // One source: a listing beside a URL would leave it open which text the captions are written from.
  if (urls && body.listing !== undefined) {
    errors.push({
      field: 'listing',
      message: 'cannot be combined with iosUrl or androidUrl: create the app from one of them, and add a store URL later with PATCH',
    });
  }
  const own = body.listing === undefined ? null : checkOwnListing(body.listing);
  if (own) errors.push(...own.errors);
  const parse = <T>(field: string, parser: (v: string) => T): T | null => {
    const value = body[field];
    if (typeof value !== 'string') return null;
    try {
      return parser(value);
    } catch (e) {
      if (!(e instanceof InvalidStoreUrl)) throw e;
      errors.push({ field, message: e.message });
      return null;
    }
  };
  const ios = parse('iosUrl', parseAppStoreUrl);
  const android = parse('androidUrl', parseGooglePlayUrl);
  const extraContext = typeof body.extraContext === 'string' ? body.extraContext.trim() || null : null;
  if (extraContext && [...extraContext].length > EXTRA_CONTEXT_MAX) {
    errors.push({ field: 'extraContext', message: `must be at most ${EXTRA_CONTEXT_MAX} characters` });
  }
  // PostgreSQL text cannot hold NUL.
  if (extraContext?.includes('\u0000')) errors.push({ field: 'extraContext', message: 'must not contain NUL characters' });
  return { errors, checked: { ios, android, listing: own?.listing ?? null, extraContext } };
}

/**
 * Check the input (reporting every problem at once), read the listings in parallel, store the
 * app. Nothing is stored when either read fails. With both stores, name, category and icon come
 * from the App Store listing (CONTRACT).
 */
export async function createApp(db: Queryable, stores: StoreReaders, accountId: string, input: CreateAppInput): Promise<App> {
  const { errors, checked } = checkCreateAppInput(input);
  if (errors.length) throw validationFailed(errors);
  if (checked.listing) {
    // No store is asked: an app before launch is made from its own text alone.
    const { rows } = await db.query<AppRow>(
      `INSERT INTO apps (id, account_id, name, category, artwork_url, own_listing, extra_context)
       VALUES ($1, $2, $3, $4, NULL, $5, $6) RETURNING *`,
      [newId('app'), accountId, checked.listing.name, checked.listing.category, checked.listing, checked.extraContext],
    );
    return toApp(rows[0]);
  }
  const { iosListing, androidListing } = await readListings(stores, checked);
  const primary = (iosListing ?? androidListing)!;
  const { rows } = await db.query<AppRow>(
    `INSERT INTO apps (id, account_id, name, category, artwork_url, ios_listing, android_listing, extra_context)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
    [newId('app'), accountId, primary.name, primary.category, primary.artworkUrl, iosListing, androidListing, checked.extraContext],
  );
  return toApp(rows[0]);
}

/** Both stores' listings, read in parallel; throws the one problem to answer when a read fails. */
async function readListings(
  stores: StoreReaders,
  refs: Pick<CheckedCreateAppInput, 'ios' | 'android'>,
): Promise<{ iosListing: Listing | null; androidListing: Listing | null }> {
  const [iosRead, androidRead] = await Promise.allSettled([
    refs.ios ? stores.readAppStore(refs.ios) : null,
    refs.android ? stores.readGooglePlay(refs.android) : null,
  ]);
  // Both reads settle first so that the answer does not depend on which store failed faster:
  // an unavailable store (retryable) outranks a missing app, and the App Store outranks Play.
  const failures = [iosRead, androidRead].filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason);
  if (failures.length) throw failures.find((f) => f instanceof Problem && f.status >= 500) ?? failures[0];
  return {
    iosListing: clean((iosRead as PromiseFulfilledResult<Listing | null>).value),
    androidListing: clean((androidRead as PromiseFulfilledResult<Listing | null>).value),
  };
}

/**
 * Every problem with a PATCH body (iosUrl and/or androidUrl, nothing else), as field errors;
 * tolerates any JSON value like checkCreateAppInput.
 */
export function checkStoreUrlsInput(input: unknown): { errors: FieldError[]; checked: CheckedCreateAppInput } {
  const isObject = input !== null && typeof input === 'object' && !Array.isArray(input);
  const body = (isObject ? input : {}) as Record<string, unknown>;
  const { errors, checked } = checkCreateAppInput({ iosUrl: body.iosUrl, androidUrl: body.androidUrl });
  for (const k of Object.keys(body))
    if (k !== 'iosUrl' && k !== 'androidUrl') errors.push({ field: k, message: 'is not a known field: PATCH takes iosUrl and androidUrl' });
  if (isObject && body.iosUrl === undefined && body.androidUrl === undefined) {
    errors.splice(0, errors.length, ...errors.filter((e) => e.field !== 'iosUrl'));
    errors.unshift({ field: 'iosUrl', message: 'provide iosUrl, androidUrl or both' });
  }
  return { errors, checked };
}

/**
 * Adds (or reads again) the app's store listing(s) from their URLs: an app made before launch
 * gets its store page, and can be published. The app's own listing text stays where the store
 * has none (an empty description, no subtitle); name, category and the store icon come from the
 * store (the App Store first), an uploaded icon still outranks it. Null when the app is not this
 * account's; nothing changes when a read fails.
 */
export async function addStoreListings(
  db: Queryable,
  stores: StoreReaders,
  objects: ObjectStore,
  accountId: string,
  appId: string,
  input: { iosUrl?: string; androidUrl?: string },
): Promise<App | null> {
  const { errors, checked } = checkStoreUrlsInput(input);
  if (errors.length) throw validationFailed(errors);
  const app = await findApp(db, accountId, appId);
  if (!app) return null;
  const read = await readListings(stores, checked);
  const iosListing = read.iosListing ? withOwnText(read.iosListing, app.listing) : app.iosListing;
  const androidListing = read.androidListing ? withOwnText(read.androidListing, app.listing) : app.androidListing;
  const primary = (iosListing ?? androidListing)!;
  // A new store icon is not the one whose colours were kept, nor the one kept in the object store:
  // the next set fetches it and reads its colours again.
  const iconChanged = !app.icon && app.artworkUrl !== primary.artworkUrl;
  const { rows } = await db.query<AppRow>(
    `UPDATE apps SET ios_listing = $3, android_listing = $4, name = $5, category = $6, artwork_url = $7,
       icon_colors = CASE WHEN icon IS NULL AND artwork_url IS DISTINCT FROM $7 THEN NULL ELSE icon_colors END,
       listings_version = listings_version + 1
     WHERE id = $1 AND account_id = $2 RETURNING *`,
    [appId, accountId, iosListing, androidListing, primary.name, primary.category, primary.artworkUrl],
  );
  if (!rows[0]) return null;
  if (iconChanged) await objects.delete(iconKey(appId)).catch(() => undefined);
  return toApp(rows[0]);
}

/** jsonb cannot hold NUL either; a store is not trusted to send none. */
const clean = (listing: Listing | null): Listing | null =>
  listing ? (JSON.parse(JSON.stringify(listing).replaceAll('\\u0000', '')) as Listing) : null;

/** The problem for an app that is not this account's (as unknown as a missing one). */
export const appNotFound = (appId: string): Problem => new Problem('app_not_found', `No app ${appId} on this account.`);

/** The app's guidance for the captions (null clears it); false when it is not this account's app. */
export async function setGuidance(db: Queryable, accountId: string, appId: string, extraContext: string | null): Promise<boolean> {
  const { rowCount } = await db.query('UPDATE apps SET extra_context = $3 WHERE id = $1 AND account_id = $2', [
    appId,
    accountId,
    extraContext,
  ]);
  return rowCount === 1;
}

/**
 * An app's listings rarely change (a store URL added to an app made before launch bumps
 * listings_version; its guidance changes more often and is read every time), so each process
 * keeps the ones it has parsed, by version: a create or a preview then reads the app's small
 * columns only. Reading the listings' jsonb on every create was over a third of PostgreSQL's CPU
 * per create in `QUICK_CREATES=1 npx tsx bench/http-quick.ts`.
 */
type KnownListings = Pick<App, 'iosListing' | 'androidListing' | 'listing' | 'listingsVersion'>;
const listings = new LRUCache<string, KnownListings>({ max: 500 });

// Named: each connection plans these once (an unnamed statement is parsed and planned every time).
const APP_WITH_LISTINGS = { name: 'app-with-listings', text: 'SELECT * FROM apps WHERE id = $1 AND account_id = $2' };
const APP_WITHOUT_LISTINGS = {
  name: 'app-without-listings',
  text: `SELECT id, account_id, name, category, artwork_url, icon, listings_version, extra_context, created_at
    FROM apps WHERE id = $1 AND account_id = $2`,
};

/** An app of this account, or null (another account's app is as unknown as a missing one). */
export async function findApp(db: Queryable, accountId: string, appId: string): Promise<App | null> {
  const known = listings.get(appId);
  if (known) {
    const { rows } = await db.query<AppRow>({ ...APP_WITHOUT_LISTINGS, values: [appId, accountId] });
    if (!rows[0]) return null;
    if (rows[0].listings_version === known.listingsVersion)
      return { ...toApp({ ...rows[0], ios_listing: null, android_listing: null, own_listing: null }), ...known };
  }
  const { rows } = await db.query<AppRow>({ ...APP_WITH_LISTINGS, values: [appId, accountId] });
  if (!rows[0]) return null;
  const app = toApp(rows[0]);
  // Frozen: every caller shares these objects, so a change by one would be a change for all.
  listings.set(appId, {
    iosListing: deepFreeze(app.iosListing),
    androidListing: deepFreeze(app.androidListing),
    listing: deepFreeze(app.listing),
    listingsVersion: app.listingsVersion,
  });
  return app;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** The account's apps, newest first. */
export async function listApps(db: Queryable, accountId: string): Promise<App[]> {
  const { rows } = await db.query<AppRow>('SELECT * FROM apps WHERE account_id = $1 ORDER BY created_at DESC, id DESC', [accountId]);
  return rows.map(toApp);
}
