/**
 * The fake App Store Connect's App Asset Library (API 4.5), written from Apple's pages: one
 * library per app (`GET /v1/apps/{id}/assetLibrary`), images reserved, uploaded and committed into
 * it (`appAssetLibraryImages`, upload operations pointing back at the fake, the MD5 checked at
 * commit, a processing delay, then PREPARE_FOR_SUBMISSION, or FAILED for a size no image spec
 * takes), placements of an image on a localization in a placement group
 * (`appAssetLibraryPlacements`, refused for a group the reference data does not name, an image
 * whose size the group's display class does not take, or past the group's limit), their order per
 * localization and group (`appAssetLibraryPlacementOrderingRequests`), and the reference data
 * itself (`appAssetLibraryRefData`).
 *
 * Placement group, display class and spec identifiers besides Apple's own example
 * (IPHONE_DYNAMIC_ISLAND_LARGE_PROFILE) are the fake's: the adapter reads them from here, as it
 * must from Apple, and hard-codes none.
 */
import { createHash, randomUUID } from 'node:crypto';
import { pngSize } from './asc-display-types.ts';
import { conflict, notFound, surfaceOf, type AscState, type UploadPart } from './asc-state.ts';
import { FakeError, MAX_BODY_BYTES } from './server.ts';

export interface RefData {
  features: {
    featureId: string;
    placementPolicies: { placementType: string; groupLimits: { groupIds: string[]; maxCount: number }[] }[];
  }[];
  placementProfileGroups: { placementProfileGroupId: string; platform: string; displayClassId: string }[];
  imageSpecs: { specId: string; displayClassId: string; width: number; height: number }[];
}

const spec = (displayClassId: string, sizes: [number, number][]) =>
  sizes.map(([width, height]) => ({ specId: `${displayClassId}-${width}x${height}`, displayClassId, width, height }));

/** The reference data the fake starts with: the sizes of Apple's screenshot specifications for the devices shotgen renders. */
export function defaultRefData(): RefData {
  const groups = [
    ['IPHONE_DYNAMIC_ISLAND_LARGE_PROFILE', 'IPHONE_APP_STORE', 'IPHONE_DYNAMIC_ISLAND_LARGE_DISPLAY'],
    ['IPHONE_DYNAMIC_ISLAND_PROFILE', 'IPHONE_APP_STORE', 'IPHONE_DYNAMIC_ISLAND_DISPLAY'],
    ['IPHONE_HOME_INDICATOR_LARGE_PROFILE', 'IPHONE_APP_STORE', 'IPHONE_HOME_INDICATOR_LARGE_DISPLAY'],
    ['IPAD_PRO_13_PROFILE', 'IPAD_APP_STORE', 'IPAD_PRO_13_DISPLAY'],
  ].map(([placementProfileGroupId, platform, displayClassId]) => ({ placementProfileGroupId, platform, displayClassId }));
  return {
    features: [
      {
        featureId: 'APP_STORE_VERSIONS',
        placementPolicies: [
          { placementType: 'APP_SCREENSHOT', groupLimits: [{ groupIds: groups.map((g) => g.placementProfileGroupId), maxCount: 10 }] },
        ],
      },
    ],
    placementProfileGroups: groups,
    imageSpecs: [
      ...spec('IPHONE_DYNAMIC_ISLAND_LARGE_DISPLAY', [
        [1320, 2868],
        [1290, 2796],
        [1260, 2736],
      ]),
      ...spec('IPHONE_DYNAMIC_ISLAND_DISPLAY', [
        [1206, 2622],
        [1179, 2556],
      ]),
      ...spec('IPHONE_HOME_INDICATOR_LARGE_DISPLAY', [
        [1242, 2688],
        [1284, 2778],
      ]),
      ...spec('IPAD_PRO_13_DISPLAY', [
        [2064, 2752],
        [2048, 2732],
      ]),
    ],
  };
}

export interface LibraryImage {
  id: string;
  libraryId: string;
  fileName: string;
  fileSize: number;
  referenceName: string | null;
  parts: UploadPart[];
  bytes: Buffer;
  checksum: string | null;
  committedAt: number | null;
  error: { code: string; description: string } | null;
}

export interface LibraryPlacement {
  id: string;
  imageId: string;
  localizationId: string;
  placementType: string;
  placementGroup: string;
}

export class AscLibrary {
  /** App id → its library's id. */
  readonly libraries = new Map<string, string>();
  readonly images = new Map<string, LibraryImage>();
  readonly placements = new Map<string, LibraryPlacement>();
  /** `localizationId/placementType/group` → placement ids in display order. */
  readonly order = new Map<string, string[]>();
  refData: RefData = defaultRefData();
  /** Reservations made (every POST that created an image), for "uploaded once" checks. */
  reservations = 0;

  constructor(private readonly state: AscState) {}

  /** The relationship from a placement to its localization: a version's, a custom product page's or a treatment's. */
  surface(localizationId: string) {
    return surfaceOf(this.state.localization(localizationId));
  }

  libraryOf(appId: string): string {
    this.state.app(appId);
    let id = this.libraries.get(appId);
    if (!id) this.libraries.set(appId, (id = randomUUID()));
    return id;
  }

  image(id: string): LibraryImage {
    const image = this.images.get(id);
    if (!image) throw notFound('appAssetLibraryImages', id);
    return image;
  }

  placement(id: string): LibraryPlacement {
    const p = this.placements.get(id);
    if (!p) throw notFound('appAssetLibraryPlacements', id);
    return p;
  }

  imageState(image: LibraryImage): string {
    if (image.committedAt === null) return 'AWAITING_UPLOAD';
    if (Date.now() - image.committedAt < this.state.processingDelayMs) return 'UPLOAD_COMPLETE';
    return image.error ? 'FAILED' : 'PREPARE_FOR_SUBMISSION';
  }

  reserve(libraryId: string, fileName: string, fileSize: number, referenceName: string | null): LibraryImage {
    if (![...this.libraries.values()].includes(libraryId)) throw notFound('appAssetLibraries', libraryId);
    if (fileSize > MAX_BODY_BYTES) throw conflict('ENTITY_ERROR.ATTRIBUTE.INVALID', `fileSize ${fileSize} is too large.`);
    const parts: UploadPart[] = [];
    for (let offset = 0; offset < fileSize; offset += this.state.uploadPartBytes)
      parts.push({ offset, length: Math.min(this.state.uploadPartBytes, fileSize - offset), done: false });
    const image: LibraryImage = {
      id: randomUUID(),
      libraryId,
      fileName,
      fileSize,
      referenceName,
      parts,
      bytes: Buffer.alloc(fileSize),
      checksum: null,
      committedAt: null,
      error: null,
    };
    this.images.set(image.id, image);
    this.reservations++;
    return image;
  }

  uploadPart(id: string, index: number, bytes: Buffer): void {
    const image = this.image(id);
    const part = image.parts[index];
    if (!part) throw new FakeError(404, 'NOT_FOUND', `Upload part ${index} does not exist.`);
    if (image.committedAt !== null) throw conflict('STATE_ERROR', 'The upload was already committed.');
    if (bytes.length !== part.length)
      throw new FakeError(400, 'PARAMETER_ERROR.INVALID', `Part ${index} must be ${part.length} bytes; got ${bytes.length}.`);
    bytes.copy(image.bytes, part.offset);
    part.done = true;
  }

  commit(id: string, checksum: unknown): LibraryImage {
    const image = this.image(id);
    if (image.committedAt !== null) return image;
    const missing = image.parts.findIndex((p) => !p.done);
    if (missing >= 0) throw conflict('ENTITY_ERROR.ATTRIBUTE.INVALID', `Upload part ${missing} was not uploaded.`);
    const actual = createHash('md5').update(image.bytes).digest('hex');
    if (typeof checksum === 'string' && checksum.toLowerCase() !== actual)
      throw conflict('ENTITY_ERROR.ATTRIBUTE.INVALID', `sourceFileChecksum ${checksum} does not match the uploaded file (${actual}).`);
    image.checksum = actual;
    image.committedAt = Date.now();
    const failing = this.state.failingDeliveries.get(image.fileName) ?? 0;
    if (failing > 0) {
      image.error = { code: 'IMAGE_TOOL_FAILURE', description: `The image ${image.fileName} could not be processed.` };
      if (failing === 1) this.state.failingDeliveries.delete(image.fileName);
      else this.state.failingDeliveries.set(image.fileName, failing - 1);
    } else if (this.specsOf(image).length === 0) {
      const size = pngSize(image.bytes);
      image.error = {
        code: 'IMAGE_INCORRECT_DIMENSIONS',
        description: `No image specification takes ${size ? `${size.width}x${size.height}` : 'a file that is not a PNG'}.`,
      };
    }
    return image;
  }

  /** The image specs whose size is the image's (either way round). */
  specsOf(image: LibraryImage) {
    const size = pngSize(image.bytes);
    if (!size) return [];
    return this.refData.imageSpecs.filter(
      (s) => (s.width === size.width && s.height === size.height) || (s.width === size.height && s.height === size.width),
    );
  }

  deleteImage(id: string): void {
    this.image(id);
    if ([...this.placements.values()].some((p) => p.imageId === id))
      throw conflict('STATE_ERROR', 'The image has placements; delete them first.');
    this.images.delete(id);
  }

  private key = (localizationId: string, placementType: string, group: string) => `${localizationId}/${placementType}/${group}`;

  place(imageId: string, localizationId: string, placementType: string, group: string): LibraryPlacement {
    const image = this.image(imageId);
    this.state.assertEditable(localizationId);
    const state = this.imageState(image);
    if (state === 'AWAITING_UPLOAD' || state === 'UPLOAD_COMPLETE' || state === 'FAILED')
      throw conflict('STATE_ERROR', `The image is ${state} and cannot be placed yet.`);
    const profile = this.refData.placementProfileGroups.find((g) => g.placementProfileGroupId === group);
    const limits = this.refData.features
      .flatMap((f) => f.placementPolicies)
      .filter((p) => p.placementType === placementType)
      .flatMap((p) => p.groupLimits)
      .filter((l) => l.groupIds.includes(group));
    if (!profile || !limits.length)
      throw conflict('ENTITY_ERROR.ATTRIBUTE.INVALID', `'${group}' is not a placement group for ${placementType}.`);
    if (!this.specsOf(image).some((s) => s.displayClassId === profile.displayClassId)) {
      const size = pngSize(image.bytes);
      throw conflict(
        'ENTITY_ERROR.ATTRIBUTE.INVALID',
        `An image of ${size?.width}x${size?.height} cannot be placed in ${group} (display class ${profile.displayClassId}).`,
      );
    }
    const key = this.key(localizationId, placementType, group);
    const ids = this.order.get(key) ?? [];
    const max = Math.min(...limits.map((l) => l.maxCount));
    if (ids.length >= max) throw conflict('ENTITY_ERROR.RELATIONSHIP.INVALID', `${group} already holds ${max} placements.`);
    const p: LibraryPlacement = { id: randomUUID(), imageId, localizationId, placementType, placementGroup: group };
    this.placements.set(p.id, p);
    this.order.set(key, [...ids, p.id]);
    return p;
  }

  unplace(id: string): void {
    const p = this.placement(id);
    this.state.assertEditable(p.localizationId);
    if (this.state.ignoredDeletes > 0) {
      this.state.ignoredDeletes--;
      return;
    }
    this.placements.delete(id);
    const key = this.key(p.localizationId, p.placementType, p.placementGroup);
    this.order.set(
      key,
      (this.order.get(key) ?? []).filter((x) => x !== id),
    );
  }

  /** A localization's placements, in display order, optionally of one type and group. */
  placementsOf(localizationId: string, types?: string[], groups?: string[]): LibraryPlacement[] {
    return [...this.order.entries()]
      .filter(([k]) => k.startsWith(`${localizationId}/`))
      .flatMap(([, ids]) => ids.map((id) => this.placement(id)))
      .filter((p) => (!types || types.includes(p.placementType)) && (!groups || groups.includes(p.placementGroup)));
  }

  reorder(localizationId: string, group: string, ids: string[]): void {
    this.state.assertEditable(localizationId);
    const types = new Set(ids.map((id) => this.placement(id).placementType));
    if (types.size !== 1) throw conflict('ENTITY_ERROR.RELATIONSHIP.INVALID', 'The placements must be of one placement type.');
    const key = this.key(localizationId, [...types][0], group);
    const current = [...(this.order.get(key) ?? [])].sort();
    const wanted = [...ids].sort();
    if (current.length !== wanted.length || current.some((id, i) => id !== wanted[i]))
      throw conflict(
        'ENTITY_ERROR.RELATIONSHIP.INVALID',
        `The order must name each placement of ${group} on the localization exactly once.`,
      );
    this.order.set(key, [...ids]);
  }
}
