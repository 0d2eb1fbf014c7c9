/** Small builders for rows the tests need: an account with a key, an app with a stored listing. */
import { createAccount } from '../../src/accounts/accounts.ts';
import { createApiKey } from '../../src/accounts/api-keys.ts';
import type { PlanId } from '../../src/accounts/plans.ts';
import type { Queryable } from '../../src/db/pool.ts';
import { newId } from '../../src/core/ids.ts';
import { emptyScreenshots, type Listing } from '../../src/core/listing.ts';

export async function accountWithKey(db: Queryable, plan: PlanId = 'free', name = 'Test account') {
  const account = await createAccount(db, { name, plan });
  const key = await createApiKey(db, account.id, 'test');
  return { account, key: key.key, keyId: key.id };
}

export function sampleListing(overrides: Partial<Listing> = {}): Listing {
  const screenshots = emptyScreenshots();
  screenshots.iphone = [1, 2, 3].map((i) => ({
    url: `https://is1-ssl.mzstatic.com/image/thumb/shot${i}/1290x2796bb.png`,
    width: 1290,
    height: 2796,
  }));
  // An iOS app ships iPad screenshots too: every App Store device has something to frame.
  screenshots.ipad = [1, 2].map((i) => ({
    url: `https://is1-ssl.mzstatic.com/image/thumb/ipad${i}/2064x2752bb.png`,
    width: 2064,
    height: 2752,
  }));
  return {
    store: 'app-store',
    storeId: '1234567890',
    country: 'us',
    language: 'en',
    url: 'https://apps.apple.com/us/app/id1234567890',
    name: 'Pantry Planner',
    category: 'Food & Drink',
    categoryId: '6023',
    artworkUrl: 'https://is1-ssl.mzstatic.com/image/thumb/icon/512x512bb.jpg',
    description:
      'Plan meals for the week in minutes.\n• Build shopping lists automatically\n• Share lists with your family\n• Track what is in your pantry\n• Scan barcodes to add groceries\n• Save favourite recipes offline',
    subtitle: 'Meal plans and shopping lists',
    developer: 'Pantry Labs',
    rating: 4.7,
    ratingCount: 12800,
    price: 0,
    currency: 'USD',
    screenshots,
    ...overrides,
  };
}

/** Insert an app directly (the create-app endpoint is tested on its own against the fake store). */
export async function insertApp(db: Queryable, accountId: string, listing: Listing = sampleListing()): Promise<string> {
  const id = newId('app');
  await db.query(
    `INSERT INTO apps (id, account_id, name, category, artwork_url, ios_listing, android_listing) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      id,
      accountId,
      listing.name,
      listing.category,
      listing.artworkUrl,
      listing.store === 'app-store' ? listing : null,
      listing.store === 'google-play' ? listing : null,
    ],
  );
  return id;
}
