/**
 * What a create's checks before the charge read of an app, kept per process: the app (its listings
 * never change; its guidance can) and, once a check needed them, how many live screens it has per
 * family. Without this every create read the app and counted its screens again: two round trips
 * of the three a create made, and most of its CPU.
 *
 * A snapshot may be stale (another process changed the guidance or the screens). That is safe
 * because nothing is decided on it alone: the charge writes only while the app still says what the
 * check read (./charge.ts), and a refusal is only answered after checking again from the database.
 */
import { LRUCache } from 'lru-cache';
import { findApp, type App } from '../apps/apps.ts';
import type { Queryable } from '../db/pool.ts';
import { familyScreens } from '../screens/screens.ts';
import type { ScreenshotFamily } from '../core/listing.ts';

interface Snapshot {
  app: App;
  screens: Map<ScreenshotFamily, number>;
}

/** Per pool (tests run many databases in one process), per account and app. */
const byDb = new WeakMap<Queryable, LRUCache<string, Snapshot>>();

function cacheOf(db: Queryable): LRUCache<string, Snapshot> {
  let cache = byDb.get(db);
  if (!cache) byDb.set(db, (cache = new LRUCache<string, Snapshot>({ max: 10_000 })));
  return cache;
}

export interface AppReader {
  /** The account's app, or null; read from the database when `fresh` or not known yet. */
  app(): Promise<App | null>;
  /** Live uploaded screens of the family, counted when `fresh` or not known yet. */
  screenCount(family: ScreenshotFamily): Promise<number>;
}

export function appReader(db: Queryable, accountId: string, appId: string, fresh: boolean): AppReader {
  const cache = cacheOf(db);
  const key = `${accountId} ${appId}`;
  let snapshot: Snapshot | undefined;
  return {
    async app() {
      snapshot = fresh ? undefined : cache.get(key);
      if (snapshot) return snapshot.app;
      const app = await findApp(db, accountId, appId);
      if (!app) {
        cache.delete(key);
        return null;
      }
      snapshot = { app, screens: new Map() };
      cache.set(key, snapshot);
      return app;
    },
    async screenCount(family) {
      if (!snapshot) throw new Error('screenCount() before app()');
      const known = snapshot.screens.get(family);
      if (known !== undefined) return known;
      const count = (await familyScreens(db, accountId, appId, family)).length;
      snapshot.screens.set(family, count);
      return count;
    },
  };
}
