/**
 * A stateful fake App Store Connect API v1 on a real HTTP server, speaking the set-based screenshot
 * resources the way fastlane's deliver uses them. Tests and `shotgen fake-stores` seed it, point
 * APP_STORE_CONNECT_URL at `url` and read the result back; see docs/publishing-fakes.md.
 */
import { appRoutes, type AscContext } from './asc-app-routes.ts';
import { AscKeys } from './asc-auth.ts';
import { errorDocument } from './asc-json.ts';
import { AscLibrary, libraryRoutes, type RefData } from './asc-library.ts';
import { screenshotRoutes } from './asc-screenshot-routes.ts';
import { AscState } from './asc-state.ts';
import { FakeError, startFakeServer, type FakeServerOptions } from './server.ts';
import type { FakeAppStoreConnect, FakeScreenshot } from './types.ts';

export interface FakeAppStoreConnectServer extends FakeAppStoreConnect {
  /** A revoked key: its tokens are 401 from the next request. */
  removeKey(keyId: string): void;
  /** Move the app's newest version to another state (e.g. WAITING_FOR_REVIEW, where screenshots cannot change). */
  setVersionState(appId: string, state: string): void;
  /** Upload operations split files into parts of at most this many bytes (default 5 MiB). */
  setUploadPartBytes(bytes: number): void;
  /** Processing fails (IMAGE_INCORRECT_DIMENSIONS) a PNG whose size the set's display type does not take (iPhone 6.9"/6.7", 6.5", iPad 13"); off by default. */
  setDimensionCheck(on: boolean): void;
  /** Screenshots already live in a set (processed, COMPLETE), appended in order; returns their ids. */
  seedScreenshots(appId: string, locale: string, displayType: string, files: { fileName: string; bytes: Buffer }[]): string[];
  /** Requests each key may make per rolling hour before a 429 (default 3600, as Apple documents). */
  setHourlyRequestLimit(limit: number): void;
  /** The bytes a screenshot was uploaded with. */
  screenshotBytes(screenshotId: string): Buffer;
  /** App Asset Library: the app's library images (the MD5 is of the bytes received). */
  libraryImages(appId: string): { id: string; fileName: string; md5: string | null; state: string }[];
  /** App Asset Library: the newest version's placements on a localization in one group, in display order. */
  placements(appId: string, locale: string, placementGroup: string): { id: string; imageId: string; md5: string | null; state: string }[];
  /** App Asset Library: library images reserved so far (each POST /v1/appAssetLibraryImages that made one). */
  libraryReservations(): number;
  /** App Asset Library: the reference data served at /v1/appAssetLibraryRefData (a copy). */
  refData(): RefData;
  setRefData(ref: RefData): void;
}

export async function startFakeAppStoreConnect(opts: FakeServerOptions = {}): Promise<FakeAppStoreConnectServer> {
  const state = new AscState();
  const library = new AscLibrary(state);
  const keys = new AscKeys();
  let base = '';
  const ctx: AscContext = {
    state,
    base: () => base,
    authed: (handle) => async (req) => {
      const rateLimit = keys.spend(await keys.verify(req.headers.authorization));
      try {
        const reply = await handle(req);
        return { ...reply, headers: { ...rateLimit, ...reply.headers } };
      } catch (error) {
        // Refusals count against the budget too, and say so.
        if (error instanceof FakeError) Object.assign(error.headers, rateLimit);
        throw error;
      }
    },
  };
  const server = await startFakeServer({
    ...opts,
    routes: [...appRoutes(ctx), ...screenshotRoutes(ctx), ...libraryRoutes(ctx, library)],
    errorBody: errorDocument,
  });
  base = server.url;

  return {
    url: server.url,
    calls: server.calls,
    fail: (fault) => server.fail(fault),
    hold: (match) => server.hold(match),
    close: () => server.close(),
    addKey: (issuerId, keyId, publicKeyPem) => keys.add(issuerId, keyId, publicKeyPem),
    removeKey: (keyId) => keys.remove(keyId),
    addApp: (app) => state.addApp(app),
    setVersionState(appId, versionState) {
      // The newest version: a released one stays released.
      state.version(state.app(appId).versionIds.at(-1)!).state = versionState;
    },
    screenshots(appId, locale, displayType): FakeScreenshot[] {
      const set = state.findSet(appId, locale, displayType);
      return (set?.screenshotIds ?? []).map((id) => {
        const s = state.screenshot(id);
        return {
          id: s.id,
          fileName: s.fileName,
          fileSize: s.fileSize,
          sourceFileChecksum: s.checksum ?? '',
          assetDeliveryState: state.deliveryState(s),
        };
      });
    },
    setHourlyRequestLimit(limit) {
      keys.hourlyLimit = limit;
    },
    setDimensionCheck(on) {
      state.checkDimensions = on;
    },
    seedScreenshots: (appId, locale, displayType, files) => state.seed(appId, locale, displayType, files).map((s) => s.id),
    screenshotBytes: (id) => Buffer.from(state.screenshot(id).bytes),
    libraryImages(appId) {
      const libraryId = library.libraries.get(appId);
      return [...library.images.values()]
        .filter((i) => i.libraryId === libraryId)
        .map((i) => ({ id: i.id, fileName: i.fileName, md5: i.checksum, state: library.imageState(i) }));
    },
    placements(appId, locale, placementGroup) {
      const versionId = state.app(appId).versionIds.at(-1)!;
      const localization = state
        .version(versionId)
        .localizationIds.map((id) => state.localization(id))
        .find((l) => l.locale === locale);
      if (!localization) return [];
      return library.placementsOf(localization.id, ['APP_SCREENSHOT'], [placementGroup]).map((p) => {
        const image = library.image(p.imageId);
        return { id: p.id, imageId: p.imageId, md5: image.checksum, state: library.imageState(image) };
      });
    },
    libraryReservations: () => library.reservations,
    refData: () => structuredClone(library.refData),
    setRefData(ref) {
      library.refData = structuredClone(ref);
    },
    setProcessingDelayMs(ms) {
      state.processingDelayMs = ms;
    },
    setUploadPartBytes(bytes) {
      if (!Number.isInteger(bytes) || bytes <= 0) throw new Error('upload part size must be a positive whole number of bytes');
      state.uploadPartBytes = bytes;
    },
    failDelivery(fileName) {
      state.failingDeliveries.set(fileName, (state.failingDeliveries.get(fileName) ?? 0) + 1);
    },
    ignoreDeletes(times) {
      state.ignoredDeletes += times;
    },
  };
}
