/**
 * The control surface of the fake stores (App Store Connect and Google Play) that the tests and
 * `shotgen fake-stores` run. The fakes speak the stores' real HTTP APIs on their `url`; what is
 * here is only how a test seeds them, reads them back and injects faults.
 */

/** One request the fake answered, for counting calls per published image. */
export interface FakeCall {
  method: string;
  /** Path and query, e.g. `/v1/appScreenshots/abc`. */
  path: string;
  status: number;
}

/** Answer the next `times` requests matching `method` and `path` with `status` (and headers). */
export interface FakeFault {
  method: string;
  path: RegExp;
  status: number;
  /** How many matching requests fail; then they pass again. Default 1. */
  times?: number;
  headers?: Record<string, string>;
  /** Do the work first, then answer with the fault: the store changed but the client never hears of it (a lost answer). */
  after?: boolean;
  /** Close the connection without any answer instead of answering `status` (recorded with status 0). */
  drop?: boolean;
}

/** Which request `hold` stops: the next one whose method matches and whose path-and-query matches `path`. */
export interface FakeHoldMatch {
  method: string;
  path: RegExp;
}

/**
 * A request the fake has done the work of and not answered yet: `reached` settles once the store
 * changed, the answer goes out on `release()` (or is lost, if the client is gone by then: how a
 * test kills a worker between a store's work and the worker hearing of it).
 */
export interface FakeHold {
  reached: Promise<void>;
  /**
   * The held request's connection closed. A killed client's exit can be seen before its socket's
   * end: wait for this before release() to make the answer certain to be lost.
   */
  clientGone: Promise<void>;
  release(): void;
}

export interface FakeScreenshot {
  id: string;
  fileName: string;
  fileSize: number;
  /** MD5 (hex) the commit named and the fake checked against the uploaded bytes. */
  sourceFileChecksum: string;
  /** AWAITING_UPLOAD | UPLOAD_COMPLETE | COMPLETE | FAILED */
  assetDeliveryState: string;
}

export interface FakeAppStoreConnect {
  /** Base URL: what APP_STORE_CONNECT_URL points at. Upload operations point back here too. */
  url: string;
  /** JWTs (ES256, aud appstoreconnect-v1) are checked against these keys; anything else is 401. */
  addKey(issuerId: string, keyId: string, publicKeyPem: string): void;
  /**
   * An app with one version per platform (`platforms`, default IOS only; a Mac app or a universal
   * purchase adds MAC_OS) in `versionState` (default PREPARE_FOR_SUBMISSION) and its localizations;
   * with `liveVersion`, a released 1.0 (READY_FOR_SALE) comes first and the editable one is 1.1.
   */
  addApp(app: {
    appId: string;
    bundleId?: string;
    versionState?: string;
    locales: string[];
    liveVersion?: boolean;
    platforms?: ('IOS' | 'MAC_OS')[];
  }): void;
  /** The screenshots of a set (e.g. APP_IPHONE_67; APP_DESKTOP is the MAC_OS version's), in the set's order. */
  screenshots(appId: string, locale: string, displayType: string): FakeScreenshot[];
  /** Every request so far. */
  readonly calls: FakeCall[];
  fail(fault: FakeFault): void;
  /** Do the next matching request's work and hold its answer until released. */
  hold(match: FakeHoldMatch): FakeHold;
  /** How long a committed upload stays UPLOAD_COMPLETE before it is COMPLETE. Default 0. */
  setProcessingDelayMs(ms: number): void;
  /** The next commit of this file name ends as FAILED with an error. */
  failDelivery(fileName: string): void;
  /** The next `times` DELETEs of a screenshot answer 204 but leave it there. */
  ignoreDeletes(times: number): void;
  close(): Promise<void>;
}

export interface FakeImage {
  id: string;
  sha256: string;
  url: string;
}

export interface FakeGooglePlay {
  /** rootUrl for @googleapis/androidpublisher: serves /androidpublisher/v3/… and /upload/androidpublisher/v3/…; what GOOGLE_PLAY_API_URL points at. */
  url: string;
  /** The OAuth token endpoint: put it in the service-account key's `token_uri`. */
  tokenUri: string;
  /** JWT-bearer assertions are checked against these keys; anything else is `invalid_grant`. */
  addServiceAccount(clientEmail: string, publicKeyPem: string): void;
  /**
   * A package the service accounts may edit, with a store listing per language of `listings`
   * (default `['en-US']`, as an app has its default language's); `inReview` makes a commit with
   * ERROR_IF_IN_REVIEW fail.
   */
  addApp(packageName: string, opts?: { inReview?: boolean; listings?: string[] }): void;
  /** The languages of the committed (live) store listings, in the order they were added. */
  listings(packageName: string): string[];
  /** The committed (live) images of a language and type (phoneScreenshots, featureGraphic, …), in order. */
  images(packageName: string, language: string, imageType: string): FakeImage[];
  readonly calls: FakeCall[];
  fail(fault: FakeFault): void;
  hold(match: FakeHoldMatch): FakeHold;
  /** Open edits expire after this long (Play's are about an hour). */
  setEditTtlMs(ms: number): void;
  setInReview(packageName: string, inReview: boolean): void;
  close(): Promise<void>;
}
