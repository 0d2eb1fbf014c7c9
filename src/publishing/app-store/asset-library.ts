/**
 * App Store Connect through the App Asset Library (API 4.5): each distinct picture is uploaded
 * once into the app's library (`appAssetLibraryImages`: the same reserve → upload → commit → poll
 * as screenshots, upload.ts), then placed on each localization (`appAssetLibraryPlacements`,
 * `placementType: APP_SCREENSHOT`, a `placementGroup` instead of a display type), and ordered per
 * localization and group (`appAssetLibraryPlacementOrderingRequests`). The placement group and the
 * valid sizes come from the reference data (`appAssetLibraryRefData`), never from a table here.
 *
 * A library image is named after its MD5 (`shotgen-<md5>.png`): the name is how a later item, a
 * later publication or a resumed run finds it instead of uploading it again. Library images are
 * never deleted by a publication (other placements may use them); a plan's delete removes the
 * placement only.
 *
 * Sources: Apple's "App Asset Library" pages (Understanding the App Asset Library; Uploading and
 * managing image assets; Placing assets on your App Store surfaces; Discovering asset
 * specifications; the endpoint pages). What those pages leave open is listed in docs/publishing.md.
 */
import { StoreError } from '../errors.ts';
import { noRetry } from '../../core/retry.ts';
import { retryStoreCall } from '../retry.ts';
import { type Item, type ItemIO, type SlotRef, type SlotState, type StoreAdapter } from '../adapter.ts';
import type { Db } from '../../db/pool.ts';
import { AppStoreAdapterBase, applyPerSlot, type AppStoreAdapterOptions } from './adapter.ts';
import type { Surface } from './surfaces.ts';
import type { AppStoreClient, JsonApiResource } from './client.ts';
import { errorsText, uploadAsset, type AssetResource, type Delivery } from './upload.ts';

export const PLACEMENT_TYPE = 'APP_SCREENSHOT';
/** The reference data's feature for an App Store version's product page. */
export const FEATURE = 'APP_STORE_VERSIONS';

/** Content-addressed: the same picture has the same name in the library, whoever uploaded it when. */
export const libraryFileName = (md5: string) => `shotgen-${md5.toLowerCase()}.png`;
const md5OfName = (fileName: unknown) => (typeof fileName === 'string' ? (/^shotgen-([0-9a-f]{32})\.png$/.exec(fileName)?.[1] ?? '') : '');

interface ImageAttrs {
  fileName?: string;
  state?: string;
  stateDetails?: { errors?: { code?: string; description?: string }[] } | null;
}
interface PlacementAttrs {
  placementType?: string;
  placementGroup?: string;
  state?: string;
}
type Placement = JsonApiResource<PlacementAttrs> & { relationships?: { image?: { data?: { id?: string } | null } } };

/** The part of `appAssetLibraryRefData` a screenshot placement needs. */
export interface RefData {
  features?: {
    featureId: string;
    placementPolicies?: { placementType: string; groupLimits?: { groupIds: string[]; maxCount: number }[] }[];
  }[];
  placementProfileGroups?: { placementProfileGroupId: string; platform?: string; displayClassId: string }[];
  imageSpecs?: { specId: string; displayClassId: string; width: number; height: number }[];
}

/** Library image states: AWAITING_UPLOAD, UPLOAD_COMPLETE (processing), then a review state once processed. */
export function imageDelivery(attrs: ImageAttrs): Delivery {
  const s = attrs.state;
  if (!s) return { state: 'unknown' };
  if (s === 'AWAITING_UPLOAD') return { state: 'awaiting' };
  if (s === 'UPLOAD_COMPLETE') return { state: 'processing' };
  // Processing failed, or the picture cannot be placed (rejected, archived).
  if (s.includes('FAILED') || s === 'REJECTED' || s === 'ARCHIVED')
    return { state: 'failed', why: errorsText(attrs.stateDetails?.errors) || s };
  return { state: 'complete' };
}

export interface ImageSize {
  locale: string;
  file: string;
  width: number;
  height: number;
}

export class AssetLibraryAdapter extends AppStoreAdapterBase implements StoreAdapter {
  readonly appendOnly = false;
  readonly checksum = 'md5' as const;
  private library: string | null = null;
  private ref: RefData | null = null;

  constructor(client: AppStoreClient, appId: string, db: Db, opts: AppStoreAdapterOptions = {}, surface?: Surface) {
    super(client, appId, db, opts, surface);
  }

  /**
   * The placement group every picture fits, from the reference data: a group of the App Store
   * version's screenshot policy whose display class has an image spec of each picture's size
   * (portrait or landscape). Refuses, before anything is written, a size no group takes or a set
   * longer than the group's limit.
   */
  async slotFor(images: ImageSize[]): Promise<string> {
    const ref = await this.refData();
    const limits = (ref.features ?? [])
      .filter((f) => f.featureId === FEATURE)
      .flatMap((f) => f.placementPolicies ?? [])
      .filter((p) => p.placementType === PLACEMENT_TYPE)
      .flatMap((p) => p.groupLimits ?? []);
    const fits = (displayClassId: string, i: ImageSize) =>
      (ref.imageSpecs ?? []).some(
        (s) =>
          s.displayClassId === displayClassId &&
          ((s.width === i.width && s.height === i.height) || (s.width === i.height && s.height === i.width)),
      );
    const groups = (ref.placementProfileGroups ?? []).filter((g) => limits.some((l) => l.groupIds.includes(g.placementProfileGroupId)));
    const group = groups.find((g) => images.every((i) => fits(g.displayClassId, i)));
    if (!group) {
      const sizes = [...new Set(images.map((i) => `${i.width}×${i.height}`))].join(', ');
      const valid = [...new Set((ref.imageSpecs ?? []).map((s) => `${s.width}×${s.height}`))].join(', ');
      throw new StoreError(
        'refused',
        `App Store Connect's asset library has no screenshot placement group for ${sizes} (its reference data takes ${valid || 'none'}).`,
      );
    }
    const max = Math.min(...limits.filter((l) => l.groupIds.includes(group.placementProfileGroupId)).map((l) => l.maxCount));
    const perLocale = new Map<string, number>();
    for (const i of images) perLocale.set(i.locale, (perLocale.get(i.locale) ?? 0) + 1);
    for (const [locale, n] of perLocale)
      if (n > max)
        throw new StoreError('refused', `${group.placementProfileGroupId} takes at most ${max} screenshots; the ${locale} set has ${n}.`);
    return group.placementProfileGroupId;
  }

  read(refs: SlotRef[]): Promise<SlotState[]> {
    return this.locked(() => this.readUnlocked(refs));
  }

  private async readUnlocked(refs: SlotRef[]): Promise<SlotState[]> {
    const out: SlotState[] = [];
    for (const ref of refs) {
      const { placements, images } = await this.placements(ref);
      out.push({
        ...ref,
        images: placements.map((p) => {
          const image = images.get(p.relationships?.image?.data?.id ?? '');
          return {
            id: p.id,
            checksum: md5OfName(image?.attributes.fileName),
            ready: !!image && imageDelivery(image.attributes).state === 'complete',
          };
        }),
      });
    }
    return out;
  }

  apply(items: Item[], io: ItemIO): Promise<Map<string, Error>> {
    return this.locked(() => applyPerSlot(items, io, (slotItems) => this.applySlot(slotItems, io)));
  }

  private async applySlot(items: Item[], io: ItemIO): Promise<void> {
    const ref = { locale: items[0].locale, slot: items[0].slot };
    const locId = (await this.localizationId(ref.locale))!;
    await this.libraryId();
    const uploads = items.filter((i) => i.action === 'upload');
    const deletes = items.filter((i) => i.action === 'delete');
    const max = await this.maxCount(ref.slot);
    const placed = items.filter((i) => i.position !== null).length;
    const deleteFirst = placed + deletes.length > max;
    if (deleteFirst) for (const it of deletes) await this.unplace(it, io);
    // What the localization held before this run, for a placement made by an earlier run that never heard back.
    const before = uploads.some((i) => i.state !== 'done') ? (await this.placements(ref)).placements : [];
    for (const it of uploads) {
      if (it.state === 'done') continue;
      // Uploaded once: a picture already in the library (another locale, an earlier publication) is adopted by name.
      await uploadAsset(this.client, this.imageResource(), it, io, libraryFileName(it.md5!), { ...this.opts, lookFirst: true });
      await this.place(ref, locId, it, items, io, before);
    }
    if (!deleteFirst) for (const it of deletes) await this.unplace(it, io);
    if (items.some((i) => i.action !== 'keep')) {
      const order = items.filter((i) => i.position !== null).sort((a, b) => a.position! - b.position!);
      await this.client.call('POST', '/v1/appAssetLibraryPlacementOrderingRequests', {
        data: {
          type: 'appAssetLibraryPlacementOrderingRequests',
          attributes: { placementGroup: ref.slot },
          relationships: {
            orderedPlacements: { data: order.map((i) => ({ type: 'appAssetLibraryPlacements', id: i.remoteId })) },
            [this.surface.relationship]: { data: { type: this.surface.type, id: locId } },
          },
        },
      });
    }
    for (const it of items)
      if (it.action !== 'upload' && it.action !== 'delete' && it.state !== 'done') await io.save(it, { state: 'done' });
  }

  /**
   * The processed image (`it.remoteId`) placed on the localization; then `it.remoteId` is the
   * placement's id. A placement whose answer was lost is found on the localization (its image,
   * not claimed by another item of the slot) instead of being made twice.
   */
  private async place(ref: SlotRef, locId: string, it: Item, slotItems: Item[], io: ItemIO, before: Placement[]): Promise<void> {
    const imageId = it.remoteId!;
    // Placements other items of the slot stand for (kept, moved, deleted, or placed already).
    const claimed = new Set(slotItems.filter((o) => o !== it && (o.action !== 'upload' || o.state === 'done')).map((o) => o.remoteId));
    const unclaimed = (ps: Placement[]) => ps.find((p) => p.relationships?.image?.data?.id === imageId && !claimed.has(p.id))?.id ?? null;
    const find = async () => unclaimed((await this.placements(ref)).placements);
    const id =
      unclaimed(before) ??
      (await retryStoreCall(this.client.retry, async (n) => {
        const found = n > 1 ? await noRetry(find()) : null;
        if (found) return found;
        const made = await this.client.call<{ data: { id: string } }>(
          'POST',
          '/v1/appAssetLibraryPlacements',
          {
            data: {
              type: 'appAssetLibraryPlacements',
              attributes: { placementType: PLACEMENT_TYPE, placementGroup: ref.slot },
              relationships: {
                image: { data: { type: 'appAssetLibraryImages', id: imageId } },
                [this.surface.relationship]: { data: { type: this.surface.type, id: locId } },
              },
            },
          },
          false,
          true,
        );
        return made!.data.id;
      }));
    await io.save(it, { remoteId: id, state: 'done', error: null });
  }

  private unplace(it: Item, io: ItemIO): Promise<void> {
    return this.deleteChecked(it, io, '/v1/appAssetLibraryPlacements', 'placement');
  }

  private imageResource(): AssetResource {
    return {
      path: '/v1/appAssetLibraryImages',
      type: 'appAssetLibraryImages',
      noun: 'library image',
      attributes: () => ({ category: 'APP_SCREENSHOTS_AND_PREVIEWS' }),
      relationships: () => ({ assetLibrary: { data: { type: 'appAssetLibraries', id: this.library } } }),
      delivery: (attrs) => imageDelivery(attrs as ImageAttrs),
      findByName: async (fileName) => {
        const library = await this.libraryId();
        const res = await this.client.call<{ data: JsonApiResource<ImageAttrs>[] }>(
          'GET',
          `/v1/appAssetLibraries/${library}/images?filter[fileName]=${encodeURIComponent(fileName)}&limit=50`,
        );
        return (res?.data ?? []).find((i) => i.attributes.fileName === fileName) ?? null;
      },
    };
  }

  private async libraryId(): Promise<string> {
    if (this.library) return this.library;
    const res = await this.client.call<{ data: { id: string } | null }>(
      'GET',
      `/v1/apps/${encodeURIComponent(this.appId)}/assetLibrary`,
      undefined,
      true,
    );
    if (!res?.data) throw new StoreError('refused', `App ${this.appId} has no App Asset Library at App Store Connect for this key`);
    this.library = res.data.id;
    return this.library;
  }

  private async refData(): Promise<RefData> {
    if (this.ref) return this.ref;
    const res = await this.client.call<{ data: JsonApiResource<RefData>[] }>('GET', '/v1/appAssetLibraryRefData');
    const all = res?.data ?? [];
    // The catalog may come in more than one resource: their lists are read as one.
    this.ref = {
      features: all.flatMap((d) => d.attributes.features ?? []),
      placementProfileGroups: all.flatMap((d) => d.attributes.placementProfileGroups ?? []),
      imageSpecs: all.flatMap((d) => d.attributes.imageSpecs ?? []),
    };
    return this.ref;
  }

  private async maxCount(group: string): Promise<number> {
    const limits = ((await this.refData()).features ?? [])
      .filter((f) => f.featureId === FEATURE)
      .flatMap((f) => f.placementPolicies ?? [])
      .filter((p) => p.placementType === PLACEMENT_TYPE)
      .flatMap((p) => p.groupLimits ?? [])
      .filter((l) => l.groupIds.includes(group));
    return limits.length ? Math.min(...limits.map((l) => l.maxCount)) : 10;
  }

  /** The localization's screenshot placements in this group, in display order, with their images. */
  private async placements(ref: SlotRef): Promise<{ placements: Placement[]; images: Map<string, JsonApiResource<ImageAttrs>> }> {
    // A variant not made yet (planning) has no placements.
    const locId = await this.localizationId(ref.locale, false);
    if (!locId) return { placements: [], images: new Map() };
    const res = await this.client.call<{ data: Placement[]; included?: JsonApiResource<ImageAttrs>[] }>(
      'GET',
      `/v1/${this.surface.type}/${locId}/placements?filter[placementType]=${PLACEMENT_TYPE}&filter[placementGroup]=${encodeURIComponent(ref.slot)}&include=image&limit=50`,
    );
    const images = new Map((res?.included ?? []).filter((r) => r.type === 'appAssetLibraryImages').map((r) => [r.id, r]));
    // Filtered here too: a store that ignores a filter must not mix in other groups' placements.
    const placements = (res?.data ?? []).filter(
      (p) => p.attributes.placementType === PLACEMENT_TYPE && p.attributes.placementGroup === ref.slot,
    );
    return { placements, images };
  }
}

/** Width and height from a PNG's IHDR chunk, or null for anything that is not a PNG. */
export function pngSize(bytes: Buffer): { width: number; height: number } | null {
  const isPng = bytes.length >= 24 && bytes.readUInt32BE(0) === 0x89504e47 && bytes.toString('latin1', 12, 16) === 'IHDR';
  return isPng ? { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) } : null;
}
