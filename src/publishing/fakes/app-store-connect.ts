/**
 * A stateful fake App Store Connect API v1 on a real HTTP server, speaking the set-based screenshot
 * resources the way fastlane's deliver uses them. Tests and `shotgen fake-stores` seed it, point
 * APP_STORE_CONNECT_URL at `url` and read the result back; see docs/publishing-fakes.md.
 */
import { appRoutes, type AscContext } from './asc-app-routes.ts';
import { AscKeys } from './asc-auth.ts';
import { errorDocument } from './asc-json.ts';
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
}

export async function startFakeAppStoreConnect(opts: FakeServerOptions = {}): Promise<FakeAppStoreConnectServer> {
  const state = new AscState();
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
  const server = await startFakeServer({ ...opts, routes: [...appRoutes(ctx), ...screenshotRoutes(ctx)], errorBody: errorDocument });
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
