/**
 * The app's icon, uploaded by its owner (PUT /apps/{appId}/icon): for an app before launch the
 * only icon there is, and for any app the one its brand colours, feature graphic and badge are
 * drawn from, outranking the store's. Decoded with the screens' limits before anything is stored,
 * stored without its metadata, under a key of its own bytes: a set that read the app before the
 * upload still finds the icon it was given.
 */
import { createHash } from 'node:crypto';
import type { Queryable } from '../db/pool.ts';
import { isId } from '../core/ids.ts';
import type { ObjectStore } from '../objects/index.ts';
import { Problem } from '../core/problem.ts';
import { decodeScreen } from './decode.ts';
import { stripMetadata } from './strip.ts';
import { appNotFound, findApp, type App, type AppIcon } from '../apps/apps.ts';

/** What the stores ask for: Google Play 512 × 512, the App Store 1024 × 1024. */
export const MIN_ICON_SIDE = 512;

export async function uploadIcon(db: Queryable, objects: ObjectStore, accountId: string, appId: string, body: Buffer): Promise<App> {
  const app = isId('app', appId) ? await findApp(db, accountId, appId) : null;
  if (!app) throw appNotFound(appId);
  const decoded = await decodeScreen(body, MIN_ICON_SIDE);
  if (decoded.width !== decoded.height)
    throw new Problem('invalid_image', `The icon is ${decoded.width}×${decoded.height}; an app icon is square.`);
  const stripped = await stripMetadata(body, decoded.contentType);
  // The upload's hash, as for screens: a client recognises the file it sent.
  const sha256 = createHash('sha256').update(body).digest('hex');
  const objectKey = `apps/${appId}/icons/${sha256.slice(0, 32)}.${decoded.contentType === 'image/png' ? 'png' : 'jpg'}`;
  const icon: AppIcon = {
    objectKey,
    contentType: decoded.contentType,
    width: stripped.width,
    height: stripped.height,
    bytes: stripped.bytes.length,
    sha256,
  };
  await objects.put(objectKey, stripped.bytes, decoded.contentType);
  // The colours kept were the old icon's: the next set takes them from this one.
  const { rows } = await db.query<{ previous: string | null }>(
    `UPDATE apps a SET icon = $3, icon_colors = NULL FROM (SELECT icon->>'objectKey' AS previous FROM apps WHERE id = $1 AND account_id = $2 FOR UPDATE) old
     WHERE a.id = $1 AND a.account_id = $2 RETURNING old.previous`,
    [appId, accountId, icon],
  );
  if (!rows[0]) {
    await objects.delete(objectKey).catch(() => undefined);
    throw appNotFound(appId);
  }
  const previous = rows[0].previous;
  if (previous && previous !== objectKey) await objects.delete(previous).catch(() => undefined);
  return { ...app, icon };
}
