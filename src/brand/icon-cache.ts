/**
 * The app's icon, fetched from the store once and then kept in the object store beside the
 * pictures (`apps/<appId>/icon`): every set draws it (feature graphic, store preview, badge), and
 * the icon of a stored listing does not change. Only bytes that decode as a picture are kept, so a
 * broken answer of the image host is tried again by the next set, not kept for ever. An icon the
 * owner uploaded is read from its own key and nothing is fetched: an app before launch has no
 * store to fetch from, and the owner's choice outranks the store's.
 */
import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import type { ObjectStore } from '../objects/index.ts';
import type { IconFetcher } from './resolve.ts';

export const iconKey = (appId: string) => `apps/${appId}/icon`;

export function cachedIconFetcher(objects: ObjectStore, appId: string, fetchIcon: (artworkUrl: string) => Promise<Buffer>): IconFetcher {
  return async ({ artworkUrl: url, uploadedKey }) => {
    if (uploadedKey) {
      const uploaded = await objects.get(uploadedKey);
      if (!uploaded) throw new Error('the uploaded icon is no longer stored; upload it again');
      return buffer(uploaded.body);
    }
    if (!url) throw new Error(`the app has no icon; upload one (PUT /public/v1/apps/${appId}/icon)`);
    // The store being down costs a fetch, not the set.
    const found = await objects.get(iconKey(appId)).catch(() => null);
    if (found) return buffer(found.body);
    const bytes = await fetchIcon(url);
    const readable = await sharp(bytes, { limitInputPixels: 40_000_000 })
      .metadata()
      .then(() => true)
      .catch(() => false);
    if (readable) await objects.put(iconKey(appId), bytes, 'application/octet-stream').catch(() => undefined);
    return bytes;
  };
}
