/**
 * App Store Connect's one way of sending a file, shared by both App Store paths: reserve (a POST
 * naming the file and its size, answered with upload operations), run every operation (method,
 * url, offset, length, requestHeaders), commit (PATCH `uploaded: true` with the MD5), then poll
 * until Apple has processed it. The set-based path sends appScreenshots this way, the App Asset
 * Library path appAssetLibraryImages; what differs between them is an `AssetResource`.
 *
 * Every step's result is saved before the next call. A step that may have happened without being
 * saved (a reservation whose answer was lost) first asks Apple what exists, by the file's name,
 * which is what keeps a killed and resumed run from leaving duplicates.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { StoreError } from '../errors.ts';
import { noRetry } from '../../core/retry.ts';
import { retryStoreCall } from '../retry.ts';
import type { Item, ItemIO } from '../adapter.ts';
import type { AppStoreClient, JsonApiResource, UploadOperation } from './client.ts';

/** Where an uploaded asset stands at Apple. `unknown`: the answer named no state. */
export type Delivery = { state: 'awaiting' | 'processing' | 'complete' | 'unknown' } | { state: 'failed'; why: string };

export interface AssetResource {
  /** The collection path, e.g. `/v1/appScreenshots`. */
  readonly path: string;
  /** The JSON:API type, e.g. `appScreenshots`. */
  readonly type: string;
  /** How errors name one, e.g. "screenshot". */
  readonly noun: string;
  /** The reservation's `data.relationships`. */
  relationships(): Record<string, unknown>;
  /** Extra reservation attributes beside fileName and fileSize. */
  attributes?(): Record<string, unknown>;
  delivery(attrs: object): Delivery;
  /** An asset of this name made by an earlier try (or, for a shared library, an earlier item); null when none. */
  findByName(fileName: string): Promise<{ id: string; attributes: object } | null>;
}

export interface UploadOptions {
  pollIntervalMs?: number;
  /** Longer than this in processing fails the run as unavailable; a retry resumes the polling. */
  pollTimeoutMs?: number;
  /** Look for the name before the first reservation too (a content-addressed name: the asset may exist already). */
  lookFirst?: boolean;
}

type Reserved = JsonApiResource<{ uploadOperations?: UploadOperation[] | null } & Record<string, unknown>>;

/**
 * Brings `it` from wherever it stands (pending, reserved, uploaded, committed) to an asset Apple
 * has processed; `it.remoteId` is then the asset's id. Does not mark the item done: the caller has
 * its own last step (nothing, or a placement).
 */
export async function uploadAsset(
  client: AppStoreClient,
  res: AssetResource,
  it: Item,
  io: ItemIO,
  fileName: string,
  opts: UploadOptions = {},
): Promise<void> {
  // A reservation made by this very run needs no look at Apple before its parts go up.
  let reservedNow = false;
  // Reserving is never retried blindly: an answer lost on the way back (a 5xx after the work, a
  // dropped connection, a killed worker) may hide a reservation, so every retry first looks for
  // it by its unique name.
  if (it.state === 'pending')
    await retryStoreCall(client.retry, async () => {
      if (it.attempts > 0 || opts.lookFirst) await noRetry(adoptOrRemove(client, res, fileName, it, io));
      if (it.state !== 'pending') return;
      await io.save(it, { attempts: it.attempts + 1 });
      const made = await client.call<{ data: Reserved }>(
        'POST',
        res.path,
        {
          data: {
            type: res.type,
            attributes: { fileName, fileSize: it.bytes, ...res.attributes?.() },
            relationships: res.relationships(),
          },
        },
        false,
        true,
      );
      const asset = made!.data;
      reservedNow = true;
      await io.save(it, { remoteId: asset.id, upload: asset.attributes.uploadOperations ?? [], partsDone: 0, state: 'reserved' });
    });
  if (it.state === 'reserved') {
    const current = reservedNow ? 'awaiting' : (await read(client, res, it.remoteId!))?.state;
    if (!current) {
      // The reservation is gone (expired or deleted): start this item again.
      await io.save(it, { state: 'pending', remoteId: null, upload: null, partsDone: 0 });
      return uploadAsset(client, res, it, io, fileName, opts);
    }
    if (current !== 'awaiting') {
      await io.save(it, { state: 'committed' });
    } else {
      const ops = (it.upload as UploadOperation[] | null) ?? [];
      const bytes = await io.bytes(it);
      for (let p = it.partsDone; p < ops.length; p++) {
        await client.uploadPart(ops[p], bytes);
        await io.save(it, { partsDone: p + 1 });
      }
      await io.save(it, { state: 'uploaded' });
    }
  }
  if (it.state === 'uploaded') {
    try {
      await client.call('PATCH', `${res.path}/${it.remoteId}`, {
        data: { type: res.type, id: it.remoteId, attributes: { uploaded: true, sourceFileChecksum: it.md5 } },
      });
    } catch (e) {
      // A retried commit whose first answer was lost is refused as already done: ask Apple.
      const now = (await read(client, res, it.remoteId!))?.state;
      if (!now || now === 'awaiting' || now === 'unknown') throw e;
    }
    await io.save(it, { state: 'committed' });
  }
  if (it.state === 'committed') await awaitProcessed(client, res, it, opts);
}

async function read(client: AppStoreClient, res: AssetResource, id: string): Promise<Delivery | null> {
  const got = await client.call<{ data: JsonApiResource }>('GET', `${res.path}/${id}`, undefined, true);
  return got ? res.delivery(got.data.attributes) : null;
}

/** A reservation of this item that an earlier try made without hearing back: adopted when committed, else removed. */
async function adoptOrRemove(client: AppStoreClient, res: AssetResource, fileName: string, it: Item, io: ItemIO): Promise<void> {
  const found = await res.findByName(fileName);
  if (!found) return;
  const state = res.delivery(found.attributes).state;
  if (state === 'complete' || state === 'processing') await io.save(it, { remoteId: found.id, state: 'committed' });
  else await client.call('DELETE', `${res.path}/${found.id}`, undefined, true);
}

async function awaitProcessed(client: AppStoreClient, res: AssetResource, it: Item, opts: UploadOptions): Promise<void> {
  const deadline = Date.now() + (opts.pollTimeoutMs ?? 10 * 60_000);
  for (;;) {
    const d = await read(client, res, it.remoteId!);
    if (!d) throw new StoreError('refused', `${res.noun} ${it.remoteId} (${it.file}) disappeared while processing`);
    if (d.state === 'complete') return;
    if (d.state === 'failed') throw new StoreError('refused', `App Store Connect could not process ${it.file}: ${d.why || 'FAILED'}`);
    if (Date.now() > deadline) throw new StoreError('unavailable', `${it.file} is still processing at App Store Connect`);
    await sleep(opts.pollIntervalMs ?? 2_000);
  }
}

/** Apple's error list (`[{ code, description }]`) as one line. */
export const errorsText = (errors: { code?: string; description?: string }[] | null | undefined): string =>
  (errors ?? []).map((e) => [e.code, e.description].filter(Boolean).join(': ')).join('; ');
