/**
 * A stateful fake Google Play Developer API (androidpublisher v3) with its OAuth token endpoint, on
 * a real HTTP server: `@googleapis/androidpublisher` with `rootUrl` set to `url` works against it.
 * Tests and `shotgen fake-stores` seed it and read it back; see docs/publishing-fakes.md.
 */
import { oauthError, PlayAuth } from './play-auth.ts';
import { googleError, playRoutes } from './play-routes.ts';
import { listingKey, PlayState } from './play-state.ts';
import { startFakeServer, type FakeServerOptions } from './server.ts';
import type { FakeGooglePlay } from './types.ts';

export interface FakeGooglePlayServer extends FakeGooglePlay {
  /** A revoked key: its assertions are refused and the tokens it was given are 401 from the next request. */
  removeServiceAccount(clientEmail: string): void;
  /** How many reviews a commit cancelled (a commit without ERROR_IF_IN_REVIEW while in review). */
  reviewsCancelled(packageName: string): number;
  /** The ids of the package's open (unexpired) edits: at most one. */
  openEdits(packageName: string): string[];
  /** Images already live for a language and type (appended in order, no edit needed); returns their ids. */
  seedImages(packageName: string, language: string, imageType: string, files: Buffer[]): string[];
  /** Refuse uploads (400 imageInvalid) of PNGs outside Play's sizes: screenshots 320-3840 px a side, at most 2:1; feature graphic 1024x500. Off by default. */
  setDimensionCheck(on: boolean): void;
  /** The bytes of an uploaded image. */
  imageBytes(imageId: string): Buffer;
}

export async function startFakeGooglePlay(opts: FakeServerOptions = {}): Promise<FakeGooglePlayServer> {
  const state = new PlayState();
  let base = '';
  const tokenUri = () => `${base}/token`;
  const auth = new PlayAuth(tokenUri);
  const server = await startFakeServer({
    ...opts,
    routes: playRoutes({ state, auth, base: () => base }),
    errorBody: (error, pathname) => (pathname === '/token' ? oauthError(error) : googleError(error)),
  });
  base = server.url;

  return {
    url: server.url,
    tokenUri: tokenUri(),
    calls: server.calls,
    fail: (fault) => server.fail(fault),
    hold: (match) => server.hold(match),
    close: () => server.close(),
    addServiceAccount: (clientEmail, publicKeyPem) => auth.addServiceAccount(clientEmail, publicKeyPem),
    removeServiceAccount: (clientEmail) => auth.removeServiceAccount(clientEmail),
    addApp: (packageName, appOpts) => state.addApp(packageName, appOpts?.inReview ?? false, appOpts?.listings),
    listings: (packageName) => [...state.app(packageName).texts.keys()],
    images: (packageName, language, imageType) =>
      (state.app(packageName).live.get(listingKey(language, imageType)) ?? []).map((i) => ({
        id: i.id,
        sha256: i.sha256,
        url: `${base}/images/${i.id}`,
      })),
    seedImages: (packageName, language, imageType, files) => state.seed(packageName, language, imageType, files).map((i) => i.id),
    setDimensionCheck(on) {
      state.checkDimensions = on;
    },
    imageBytes(imageId) {
      const image = state.images.get(imageId);
      if (!image) throw new Error(`no image ${imageId}`);
      return Buffer.from(image.bytes);
    },
    setEditTtlMs(ms) {
      state.editTtlMs = ms;
      // Edits already open expire by the new rule too, so a test can expire the one it holds.
      for (const edit of state.edits.values()) edit.expiresAt = Math.min(edit.expiresAt, Date.now() + ms);
    },
    setInReview(packageName, inReview) {
      state.app(packageName).inReview = inReview;
    },
    reviewsCancelled: (packageName) => state.app(packageName).reviewsCancelled,
    openEdits: (packageName) =>
      [...state.edits.values()].filter((e) => e.packageName === packageName && e.expiresAt > Date.now()).map((e) => e.id),
  };
}
