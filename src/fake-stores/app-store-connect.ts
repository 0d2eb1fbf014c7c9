/**
 * A stateful fake App Store Connect API v1 on a real HTTP server, speaking the set-based screenshot
 * resources the way fastlane's deliver uses them. Tests and `shotgen fake-stores` seed it, point
 * APP_STORE_CONNECT_URL at `url` and read the result back; see docs/publishing-fakes.md.
 */
import { appRoutes, type AscContext } from './asc-app-routes.ts';
import { AscKeys } from './asc-auth.ts';
import { errorDocument } from './asc-json.ts';
import { AscLibrary, type RefData } from './asc-library.ts';
import { libraryRoutes } from './asc-library-routes.ts';
import { screenshotRoutes } from './asc-screenshot-routes.ts';
import { AscState } from './asc-state.ts';
import type { AscPlatform } from './asc-display-types.ts';
import { AscVariants } from './asc-variants.ts';
import { pageRoutes } from './asc-page-routes.ts';
import { experimentRoutes } from './asc-experiment-routes.ts';
import { FakeError, startFakeServer, type FakeServerOptions } from './server.ts';
import type { FakeAppStoreConnect, FakeScreenshot } from './types.ts';

export interface FakeAppStoreConnectServer extends FakeAppStoreConnect {
  /** A revoked key: its tokens are 401 from the next request. */
  removeKey(keyId: string): void;
  /** Move the app's newest version of a platform (default IOS) to another state (e.g. WAITING_FOR_REVIEW, where screenshots cannot change). */
  setVersionState(appId: string, state: string, platform?: AscPlatform): void;
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
  /** Custom product pages an app may have (default 70; 35 before October 2025). */
  setCustomProductPageLimit(limit: number): void;
  /** The app's custom product pages, each version with its localizations (promotional text, keywords). */
  customProductPages(appId: string): FakePage[];
  /** The app's product page optimization tests, each treatment with its localizations. */
  experiments(appId: string): FakeExperiment[];
  /** The screenshots of a page's or a treatment's localization in one display type, in order. */
  localizationScreenshots(localizationId: string, displayType: string): FakeScreenshot[];
  /** App Asset Library: a page's or a treatment's localization's placements in one group, in order (MD5s). */
  localizationPlacements(localizationId: string, placementGroup: string): string[];
  /** Puts a page version or a test in a state, as App Review or the store would (e.g. APPROVED). */
  setPageVersionState(pageVersionId: string, state: string): void;
  setExperimentState(experimentId: string, state: string): void;
  /** App Review's verdict on everything the app has submitted: APPROVED (default) or REJECTED. */
  completeReview(appId: string, outcome?: 'APPROVED' | 'REJECTED'): void;
  /** Submitted items are approved this long after submission (null: only by completeReview). */
  setReviewDelayMs(ms: number | null): void;
  /** The app's review submissions with their items. */
  reviewSubmissions(appId: string): { id: string; state: string; items: { type: string; id: string; state: string }[] }[];
}

export interface FakeVariantLocalization {
  id: string;
  locale: string;
  /** Custom product pages only. */
  promotionalText?: string | null;
  keywords?: string[];
}
export interface FakePage {
  id: string;
  name: string;
  visible: boolean;
  url: string;
  versions: { id: string; version: string; state: string; localizations: FakeVariantLocalization[] }[];
}
export interface FakeExperiment {
  id: string;
  name: string;
  state: string;
  trafficProportion: number;
  startDate: string | null;
  treatments: { id: string; name: string; localizations: FakeVariantLocalization[] }[];
}

export async function startFakeAppStoreConnect(opts: FakeServerOptions = {}): Promise<FakeAppStoreConnectServer> {
  const state = new AscState();
  const library = new AscLibrary(state);
  const variants = new AscVariants(state);
  const keys = new AscKeys();
  let base = '';
  const ctx: AscContext = {
    state,
    base: () => base,
    authed: (handle) => async (req) => {
      const rateLimit = keys.spend(await keys.verify(req.headers.authorization));
      variants.settle();
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
    routes: [
      ...appRoutes(ctx),
      ...screenshotRoutes(ctx),
      ...libraryRoutes(ctx, library),
      ...pageRoutes(ctx, variants),
      ...experimentRoutes(ctx, variants),
    ],
    errorBody: errorDocument,
  });
  base = server.url;
  const toFake = (id: string): FakeScreenshot => {
    const s = state.screenshot(id);
    return {
      id: s.id,
      fileName: s.fileName,
      fileSize: s.fileSize,
      sourceFileChecksum: s.checksum ?? '',
      assetDeliveryState: state.deliveryState(s),
    };
  };
  const fakeLocalization = (id: string): FakeVariantLocalization => {
    const l = state.localization(id);
    return l.kind === 'page'
      ? { id, locale: l.locale, promotionalText: l.promotionalText ?? null, keywords: [...(l.keywords ?? [])] }
      : { id, locale: l.locale };
  };

  return {
    url: server.url,
    calls: server.calls,
    fail: (fault) => server.fail(fault),
    hold: (match) => server.hold(match),
    close: () => server.close(),
    addKey: (issuerId, keyId, publicKeyPem) => keys.add(issuerId, keyId, publicKeyPem),
    removeKey: (keyId) => keys.remove(keyId),
    addApp: (app) => state.addApp(app),
    setVersionState(appId, versionState, platform = 'IOS') {
      // The newest version: a released one stays released.
      const version = state.newestVersion(appId, platform);
      if (!version) throw new Error(`app ${appId} has no ${platform} version`);
      version.state = versionState;
    },
    screenshots(appId, locale, displayType): FakeScreenshot[] {
      return (state.findSet(appId, locale, displayType)?.screenshotIds ?? []).map(toFake);
    },
    setCustomProductPageLimit(limit) {
      variants.pageLimit = limit;
    },
    customProductPages: (appId) =>
      variants.pagesOf(appId).map((p) => ({
        id: p.id,
        name: p.name,
        visible: p.visible,
        url: `https://apps.apple.com/us/app/id${appId}?ppid=${p.id}`,
        versions: p.versionIds.map((id) => {
          const v = variants.pageVersion(id);
          return { id, version: v.version, state: v.state, localizations: v.localizationIds.map(fakeLocalization) };
        }),
      })),
    experiments: (appId) =>
      variants.experimentsOf(appId).map((e) => ({
        id: e.id,
        name: e.name,
        state: e.state,
        trafficProportion: e.trafficProportion,
        startDate: e.startDate,
        treatments: e.treatmentIds.map((id) => {
          const t = variants.treatment(id);
          return { id, name: t.name, localizations: t.localizationIds.map(fakeLocalization) };
        }),
      })),
    localizationScreenshots(localizationId, displayType) {
      const set = state
        .localization(localizationId)
        .setIds.map((id) => state.set(id))
        .find((x) => x.displayType === displayType);
      return (set?.screenshotIds ?? []).map(toFake);
    },
    localizationPlacements: (localizationId, group) =>
      library.placementsOf(localizationId, ['APP_SCREENSHOT'], [group]).map((p) => library.image(p.imageId).checksum ?? ''),
    setPageVersionState(id, versionState) {
      variants.pageVersion(id).state = versionState;
    },
    setExperimentState(id, experimentState) {
      variants.experiment(id).state = experimentState;
    },
    completeReview: (appId, outcome) => variants.completeReview(appId, outcome),
    setReviewDelayMs(ms) {
      variants.reviewDelayMs = ms;
    },
    reviewSubmissions: (appId) =>
      [...variants.submissions.values()]
        .filter((x) => x.appId === appId)
        .map((x) => ({
          id: x.id,
          state: x.state,
          items: x.itemIds.map((id) => {
            const i = variants.items.get(id)!;
            return { ...i.target, state: i.state };
          }),
        })),
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
      const localization = state
        .newestVersion(appId)!
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
