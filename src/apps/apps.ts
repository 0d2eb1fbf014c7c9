/**
 * Apps: an account's app with the store listing(s) it was created from. The listings are stored
 * whole so that planning never has to reach a store again.
 */
import { LRUCache } from 'lru-cache';
import { newId } from '../core/ids.ts';
import type { Queryable } from '../db/pool.ts';
import { Problem, validationFailed, type FieldError } from '../core/problem.ts';
import type { Listing } from '../core/listing.ts';
import type { StoreReaders } from '../stores/index.ts';
import { InvalidStoreUrl, parseAppStoreUrl, parseGooglePlayUrl } from '../stores/urls.ts';
import type { AppStoreRef, GooglePlayRef } from '../stores/index.ts';

export const EXTRA_CONTEXT_MAX = 2000;

export interface App {
  id: string;
  accountId: string;
  name: string;
  category: string;
  artworkUrl: string;
  iosListing: Listing | null;
  androidListing: Listing | null;
  extraContext: string | null;
  createdAt: Date;
}

interface AppRow {
  id: string;
  account_id: string;
  name: string;
  category: string;
  artwork_url: string;
  ios_listing: Listing | null;
  android_listing: Listing | null;
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
  extraContext: r.extra_context,
  createdAt: r.created_at,
});

export interface CreateAppInput {
  iosUrl?: string;
  androidUrl?: string;
  extraContext?: string;
}

export interface CheckedCreateAppInput {
  ios: AppStoreRef | null;
  android: GooglePlayRef | null;
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
  if (isObject && body.iosUrl === undefined && body.androidUrl === undefined) {
    errors.push({ field: 'iosUrl', message: 'provide iosUrl, androidUrl or both' });
  }
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
  return { errors, checked: { ios, android, extraContext } };
}

/**
 * Check the input (reporting every problem at once), read the listings in parallel, store the
 * app. Nothing is stored when either read fails. With both stores, name, category and icon come
 * from the App Store listing (CONTRACT).
 */
export async function createApp(db: Queryable, stores: StoreReaders, accountId: string, input: CreateAppInput): Promise<App> {
  const { errors, checked } = checkCreateAppInput(input);
  if (errors.length) throw validationFailed(errors);
  const [iosRead, androidRead] = await Promise.allSettled([
    checked.ios ? stores.readAppStore(checked.ios) : null,
    checked.android ? stores.readGooglePlay(checked.android) : null,
  ]);
  // Both reads settle first so that the answer does not depend on which store failed faster:
  // an unavailable store (retryable) outranks a missing app, and the App Store outranks Play.
  const failures = [iosRead, androidRead].filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason);
  if (failures.length) throw failures.find((f) => f instanceof Problem && f.status >= 500) ?? failures[0];
  const iosListing = clean((iosRead as PromiseFulfilledResult<Listing | null>).value);
  const androidListing = clean((androidRead as PromiseFulfilledResult<Listing | null>).value);
  const primary = (iosListing ?? androidListing)!;
  const { rows } = await db.query<AppRow>(
    `INSERT INTO apps (id, account_id, name, category, artwork_url, ios_listing, android_listing, extra_context)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
    [newId('app'), accountId, primary.name, primary.category, primary.artworkUrl, iosListing, androidListing, checked.extraContext],
  );
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
 * An app's listings never change once it is stored (its guidance can, and is read every time), so
 * each process keeps the ones it has parsed: a create or a preview then reads the app's small
 * columns only. Reading the listings' jsonb on every create was over a third of PostgreSQL's CPU
 * per create in `QUICK_CREATES=1 npx tsx bench/http-quick.ts`.
 */
const listings = new LRUCache<string, Pick<App, 'iosListing' | 'androidListing'>>({ max: 500 });

// Named: each connection plans these once (an unnamed statement is parsed and planned every time).
const APP_WITH_LISTINGS = { name: 'app-with-listings', text: 'SELECT * FROM apps WHERE id = $1 AND account_id = $2' };
const APP_WITHOUT_LISTINGS = {
  name: 'app-without-listings',
  text: 'SELECT id, account_id, name, category, artwork_url, extra_context, created_at FROM apps WHERE id = $1 AND account_id = $2',
};

/** An app of this account, or null (another account's app is as unknown as a missing one). */
export async function findApp(db: Queryable, accountId: string, appId: string): Promise<App | null> {
  const known = listings.get(appId);
  const { rows } = await db.query<AppRow>({ ...(known ? APP_WITHOUT_LISTINGS : APP_WITH_LISTINGS), values: [appId, accountId] });
  if (!rows[0]) return null;
  if (known) return { ...toApp({ ...rows[0], ios_listing: null, android_listing: null }), ...known };
  const app = toApp(rows[0]);
  // Frozen: every caller shares these objects, so a change by one would be a change for all.
  listings.set(appId, { iosListing: deepFreeze(app.iosListing), androidListing: deepFreeze(app.androidListing) });
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
