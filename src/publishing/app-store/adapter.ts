/**
 * App Store Connect, set-based (what fastlane uses): the app's editable version of the set's
 * platform (iOS, or macOS for a Mac set: surfaces.ts), its
 * localizations, one appScreenshotSet per display type, and per new screenshot: reserve, upload
 * every part Apple names, commit with the MD5, wait for processing. Never creates a version.
 *
 * Every step's result is saved before the next call, and a step that may have happened without
 * being saved (a reservation whose answer was lost) first asks Apple what exists; that is what
 * keeps a killed and resumed run from leaving duplicates.
 */
import type { Db } from '../../db/pool.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { StoreBusy, StoreError } from '../errors.ts';
import { noRetry } from '../../core/retry.ts';
import { retryStoreCall } from '../retry.ts';
import { withStoreLock } from '../store-lock.ts';
import { slotKey, type Item, type ItemIO, type SlotRef, type SlotState, type StoreAdapter } from '../adapter.ts';
import type { AppStoreClient, JsonApiResource, UploadOperation } from './client.ts';
import { ProductPageSurface, type LocaleTexts, type Surface } from './surfaces.ts';
import { errorsText, uploadAsset, type AssetResource, type Delivery } from './upload.ts';

interface ScreenshotAttrs {
  fileName?: string;
  fileSize?: number;
  sourceFileChecksum?: string | null;
  assetDeliveryState?: { state?: string; errors?: { code?: string; description?: string }[] } | null;
  uploadOperations?: UploadOperation[] | null;
}
type Screenshot = JsonApiResource<ScreenshotAttrs>;

function screenshotDelivery(attrs: ScreenshotAttrs): Delivery {
  const d = attrs.assetDeliveryState;
  switch (d?.state) {
    case 'AWAITING_UPLOAD':
      return { state: 'awaiting' };
    case 'UPLOAD_COMPLETE':
      return { state: 'processing' };
    case 'COMPLETE':
      return { state: 'complete' };
    case 'FAILED':
      return { state: 'failed', why: errorsText(d.errors) };
    default:
      return { state: 'unknown' };
  }
}

export interface AppStoreAdapterOptions {
  pollIntervalMs?: number;
  /** Of the key's hourly request budget, what is left to other users of the key (see AppStoreClient). */
  budgetReserve?: (limit: number) => number;
  /** Longer than this UPLOAD_COMPLETE fails the run as unavailable; a retry resumes the polling. */
  pollTimeoutMs?: number;
}

/** Unique per item, so a lost reservation is found again by name. */
export const uploadFileName = (publicationId: string, item: Pick<Item, 'seq' | 'position'>) =>
  `shotgen-${publicationId.slice(-10).toLowerCase()}-${item.seq}-${item.position}.png`;

/**
 * Applies each slot's items on its own: one slot's failure is recorded on its items (which keep
 * their step, so a later run resumes them) and does not stop the other slots.
 */
export async function applyPerSlot(
  items: Item[],
  io: ItemIO,
  applySlot: (slotItems: Item[]) => Promise<void>,
): Promise<Map<string, Error>> {
  const failures = new Map<string, Error>();
  const bySlot = new Map<string, Item[]>();
  for (const it of items) bySlot.set(slotKey(it), [...(bySlot.get(slotKey(it)) ?? []), it]);
  for (const [key, slotItems] of bySlot) {
    try {
      await applySlot(slotItems);
    } catch (e) {
      // A spent budget is no failure of this slot: the whole step waits, the other slots too.
      if ((e instanceof StoreError && e.kind === 'rejected') || e instanceof StoreBusy) throw e;
      failures.set(key, e as Error);
      for (const it of slotItems) if (it.state !== 'done') await io.save(it, { error: (e as Error).message });
    }
  }
  return failures;
}

/**
 * What both App Store paths share: the surface the screenshots go to (the editable version's
 * localizations, or a variant's: surfaces.ts, variants.ts), one publication at a time per app (the
 * same lock on both paths, so a set-based and an asset-library publication of one app exclude each
 * other too), and a delete that is checked.
 */
export abstract class AppStoreAdapterBase {
  protected readonly surface: Surface;

  constructor(
    protected readonly client: AppStoreClient,
    protected readonly appId: string,
    private readonly db: Db,
    protected readonly opts: AppStoreAdapterOptions,
    surface?: Surface,
  ) {
    this.surface = surface ?? new ProductPageSurface(client, appId);
  }

  /** Reads and applies run one publication at a time per app: see store-lock.ts. */
  protected locked<T>(fn: () => Promise<T>): Promise<T> {
    return withStoreLock(
      this.db,
      `asc-app:${this.appId}`,
      `another publication is changing app ${this.appId} on App Store Connect; this one waits`,
      fn,
    );
  }

  locales(): Promise<string[]> {
    return this.surface.locales();
  }

  /** A variant's page, version, test, treatment and localizations, found or made before anything is applied. */
  async prepare(locales: LocaleTexts[]): Promise<void> {
    const prepare = this.surface.prepare?.bind(this.surface);
    if (prepare) await this.locked(() => prepare(locales));
  }

  /**
   * Deletes the resource an item names (`path` + its remoteId) and reads it back: Apple has
   * answered a DELETE with success and kept the resource, so it is asked again a few times.
   */
  protected async deleteChecked(it: Item, io: ItemIO, path: string, noun: string): Promise<void> {
    if (it.state === 'done') return;
    for (let i = 0; i < 4; i++) {
      await this.client.call('DELETE', `${path}/${it.remoteId}`, undefined, true);
      const still = await this.client.call('GET', `${path}/${it.remoteId}`, undefined, true);
      if (!still) return io.save(it, { state: 'done', error: null });
      await sleep(this.opts.pollIntervalMs ?? 2_000);
    }
    throw new StoreError('refused', `App Store Connect kept ${noun} ${it.remoteId} after being asked to delete it`);
  }

  /**
   * The localization of a store locale; null (nothing there yet) when `required` is false, as a
   * variant not made yet reads before it is prepared.
   */
  protected async localizationId(locale: string, required = true): Promise<string | null> {
    const id = (await this.surface.localizations()).get(locale) ?? null;
    if (!id && required) throw new StoreError('refused', `the ${this.surface.type} have no ${locale} localization`);
    return id;
  }
}

export class AppStoreAdapter extends AppStoreAdapterBase implements StoreAdapter {
  readonly appendOnly = false;
  readonly checksum = 'md5' as const;
  private sets = new Map<string, string>();

  constructor(
    client: AppStoreClient,
    appId: string,
    private readonly publicationId: string,
    db: Db,
    opts: AppStoreAdapterOptions = {},
    surface?: Surface,
  ) {
    super(client, appId, db, opts, surface);
  }

  read(refs: SlotRef[]): Promise<SlotState[]> {
    return this.locked(() => this.readUnlocked(refs));
  }

  private async readUnlocked(refs: SlotRef[]): Promise<SlotState[]> {
    const out: SlotState[] = [];
    for (const ref of refs) {
      const setId = await this.setId(ref, false);
      const shots = setId ? await this.screenshots(setId) : [];
      out.push({
        ...ref,
        images: shots.map((s) => ({
          id: s.id,
          checksum: s.attributes.sourceFileChecksum ?? '',
          ready: s.attributes.assetDeliveryState?.state === 'COMPLETE',
        })),
      });
    }
    return out;
  }

  apply(items: Item[], io: ItemIO): Promise<Map<string, Error>> {
    return this.locked(() => applyPerSlot(items, io, (slotItems) => this.applySlot(slotItems, io)));
  }

  private async applySlot(items: Item[], io: ItemIO): Promise<void> {
    const setId = (await this.setId(items[0], true))!;
    const uploads = items.filter((i) => i.action === 'upload');
    const deletes = items.filter((i) => i.action === 'delete');
    const placed = items.filter((i) => i.position !== null).length;
    // A set holds 10 at most: delete first only when the new ones would not fit beside the old.
    const deleteFirst = placed + deletes.length > 10;
    if (deleteFirst) for (const it of deletes) await this.deleteOne(it, io);
    for (const it of uploads) await this.uploadOne(setId, it, io);
    if (!deleteFirst) for (const it of deletes) await this.deleteOne(it, io);
    if (items.some((i) => i.action !== 'keep')) {
      const order = items.filter((i) => i.position !== null).sort((a, b) => a.position! - b.position!);
      await this.client.call('PATCH', `/v1/appScreenshotSets/${setId}/relationships/appScreenshots`, {
        data: order.map((i) => ({ type: 'appScreenshots', id: i.remoteId })),
      });
    }
    for (const it of items)
      if (it.action !== 'upload' && it.action !== 'delete' && it.state !== 'done') await io.save(it, { state: 'done' });
  }

  private async uploadOne(setId: string, it: Item, io: ItemIO): Promise<void> {
    await uploadAsset(this.client, this.screenshotResource(setId), it, io, uploadFileName(this.publicationId, it), this.opts);
    await io.save(it, { state: 'done', error: null });
  }

  /** appScreenshots in one set, for the shared reserve → upload → commit → poll (upload.ts). */
  private screenshotResource(setId: string): AssetResource {
    return {
      path: '/v1/appScreenshots',
      type: 'appScreenshots',
      noun: 'screenshot',
      relationships: () => ({ appScreenshotSet: { data: { type: 'appScreenshotSets', id: setId } } }),
      delivery: (attrs) => screenshotDelivery(attrs as ScreenshotAttrs),
      findByName: async (fileName) => (await this.screenshots(setId)).find((s) => s.attributes.fileName === fileName) ?? null,
    };
  }

  private deleteOne(it: Item, io: ItemIO): Promise<void> {
    return this.deleteChecked(it, io, '/v1/appScreenshots', 'screenshot');
  }

  private async screenshots(setId: string): Promise<Screenshot[]> {
    const res = await this.client.call<{ data: Screenshot[] }>('GET', `/v1/appScreenshotSets/${setId}/appScreenshots?limit=50`);
    return res?.data ?? [];
  }

  private async setId(ref: SlotRef, create: boolean): Promise<string | null> {
    const key = slotKey(ref);
    const known = this.sets.get(key);
    if (known) return known;
    const locId = await this.localizationId(ref.locale, create);
    // A variant not made yet (planning) holds no screenshots.
    if (!locId) return null;
    const { type, relationship } = this.surface;
    const find = async () => {
      const res = await this.client.call<{ data: JsonApiResource<{ screenshotDisplayType: string }>[] }>(
        'GET',
        `/v1/${type}/${locId}/appScreenshotSets?limit=50`,
      );
      return (res?.data ?? []).find((s) => s.attributes.screenshotDisplayType === ref.slot)?.id ?? null;
    };
    let id = await find();
    // Creating a set is not retried blindly either: an answer lost after Apple made it would make
    // the retry a 409 (one set per display type and localization). Each retry looks first.
    if (!id && create)
      id = await retryStoreCall(this.client.retry, async (n) => {
        const found = n > 1 ? await noRetry(find()) : null;
        if (found) return found;
        try {
          const made = await this.client.call<{ data: { id: string } }>(
            'POST',
            '/v1/appScreenshotSets',
            {
              data: {
                type: 'appScreenshotSets',
                attributes: { screenshotDisplayType: ref.slot },
                relationships: { [relationship]: { data: { type, id: locId } } },
              },
            },
            false,
            true,
          );
          return made!.data.id;
        } catch (e) {
          // A 409 is the set a try whose answer was lost made.
          const made = e instanceof StoreError && e.status === 409 ? await noRetry(find()) : null;
          if (!made) throw e;
          return made;
        }
      });
    if (id) this.sets.set(key, id);
    return id;
  }
}
