/**
 * Apps: an account's app with the store listing(s) it was created from. The listings are stored
 * whole so that planning never has to reach a store again.
 */
import { newId } from '../ids.ts';
import type { Queryable } from '../db/pool.ts';
import { Problem, validationFailed, type FieldError } from '../problem.ts';
import type { Listing } from '../stores/listing.ts';
import type { StoreReaders } from '../stores/index.ts';
import { InvalidStoreUrl, parseAppStoreUrl, parseGooglePlayUrl } from '../stores/urls.ts';

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

/**
 * Parse both URLs (reporting every problem at once), read the listings in parallel, store the app.
 * Nothing is stored when either read fails. With both stores, name, category and icon come from
 * the App Store listing (CONTRACT).
 */
export async function createApp(db: Queryable, stores: StoreReaders, accountId: string, input: CreateAppInput): Promise<App> {
  const errors: FieldError[] = [];
  if (input.iosUrl === undefined && input.androidUrl === undefined) {
    errors.push({ field: 'iosUrl', message: 'provide iosUrl, androidUrl or both' });
  }
  const parse = <T>(field: string, value: string | undefined, parser: (v: string) => T): T | null => {
    if (value === undefined) return null;
    try {
      return parser(value);
    } catch (e) {
      if (e instanceof InvalidStoreUrl) {
        errors.push({ field, message: e.message });
        return null;
      }
      throw e;
    }
  };
  const ios = parse('iosUrl', input.iosUrl, parseAppStoreUrl);
  const android = parse('androidUrl', input.androidUrl, parseGooglePlayUrl);
  const extraContext = input.extraContext?.trim() || null;
  if (extraContext && [...extraContext].length > EXTRA_CONTEXT_MAX) {
    errors.push({ field: 'extraContext', message: `must be at most ${EXTRA_CONTEXT_MAX} characters` });
  }
  if (errors.length) throw validationFailed(errors);

  const [iosListing, androidListing] = await Promise.all([
    ios ? stores.readAppStore(ios) : null,
    android ? stores.readGooglePlay(android) : null,
  ]);
  const primary = iosListing ?? androidListing;
  if (!primary) throw new Problem(500, 'internal_error', 'No listing was read.');
  const { rows } = await db.query<AppRow>(
    `INSERT INTO apps (id, account_id, name, category, artwork_url, ios_listing, android_listing, extra_context)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
    [newId('app'), accountId, primary.name, primary.category, primary.artworkUrl, iosListing, androidListing, extraContext],
  );
  return toApp(rows[0]);
}

/** An app of this account, or null (another account's app is as unknown as a missing one). */
export async function findApp(db: Queryable, accountId: string, appId: string): Promise<App | null> {
  const { rows } = await db.query<AppRow>('SELECT * FROM apps WHERE id = $1 AND account_id = $2', [appId, accountId]);
  return rows[0] ? toApp(rows[0]) : null;
}

export async function appBelongsTo(db: Queryable, accountId: string, appId: string): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM apps WHERE id = $1 AND account_id = $2', [appId, accountId]);
  return rowCount === 1;
}
