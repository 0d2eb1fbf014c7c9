/**
 * What the fake App Store Connect holds: apps, their versions (one editable per platform: IOS, and
 * MAC_OS for an app added with it), their localizations, screenshot
 * sets and screenshots with their uploaded bytes. Routes (asc-*-routes.ts) read and change it;
 * the resources' JSON:API shapes are made in asc-json.ts.
 */
import { createHash, randomUUID } from 'node:crypto';
import { dimensionError, platformOfDisplayType, type AscPlatform } from './asc-display-types.ts';
import { FakeError, MAX_BODY_BYTES } from './server.ts';

/** The states in which App Store Connect lets screenshots change (the version is being prepared or was sent back). */
export const EDITABLE_STATES = ['PREPARE_FOR_SUBMISSION', 'DEVELOPER_REJECTED', 'REJECTED', 'METADATA_REJECTED'];

/** A set holds at most ten screenshots. */
export const MAX_SCREENSHOTS_PER_SET = 10;

export interface AscApp {
  id: string;
  bundleId: string;
  versionIds: string[];
}
export interface AscVersion {
  id: string;
  appId: string;
  /** IOS or MAC_OS: a version holds only its platform's screenshot sets. */
  platform: AscPlatform;
  versionString: string;
  state: string;
  localizationIds: string[];
}
/**
 * A localization screenshot sets hang from: an App Store version's (no `kind`), a custom product
 * page version's (`page`) or a product-page-optimization treatment's (`treatment`). `versionId`
 * is the parent of each: the App Store version, the page version or the treatment.
 */
export interface AscLocalization {
  id: string;
  versionId: string;
  locale: string;
  setIds: string[];
  kind?: 'page' | 'treatment';
  /** Custom product pages: the localization's promotional text and its search keywords. */
  promotionalText?: string | null;
  keywords?: string[];
}
/** The relationship from a screenshot set (or a library placement) to each kind of localization. */
export const SURFACES = {
  version: { relationship: 'appStoreVersionLocalization', type: 'appStoreVersionLocalizations' },
  page: { relationship: 'appCustomProductPageLocalization', type: 'appCustomProductPageLocalizations' },
  treatment: { relationship: 'appStoreVersionExperimentTreatmentLocalization', type: 'appStoreVersionExperimentTreatmentLocalizations' },
} as const;
export const surfaceOf = (localization: AscLocalization) => SURFACES[localization.kind ?? 'version'];

export interface AscSet {
  id: string;
  localizationId: string;
  displayType: string;
  screenshotIds: string[];
}
export interface UploadPart {
  offset: number;
  length: number;
  done: boolean;
}
export interface AscScreenshot {
  id: string;
  setId: string;
  fileName: string;
  fileSize: number;
  parts: UploadPart[];
  bytes: Buffer;
  checksum: string | null;
  /** When the upload was committed (ms); null while AWAITING_UPLOAD. */
  committedAt: number | null;
  /** Why processing ends FAILED; null when it ends COMPLETE. */
  deliveryError: { code: string; description: string } | null;
}

export const conflict = (code: string, detail: string) => new FakeError(409, code, detail);
export const notFound = (type: string, id: string) =>
  new FakeError(404, 'NOT_FOUND', `There is no resource of type '${type}' with id '${id}'`);

export class AscState {
  readonly apps = new Map<string, AscApp>();
  readonly versions = new Map<string, AscVersion>();
  readonly localizations = new Map<string, AscLocalization>();
  readonly sets = new Map<string, AscSet>();
  readonly screenshots = new Map<string, AscScreenshot>();
  processingDelayMs = 0;
  /** Upload operations split a file into parts of at most this many bytes. */
  uploadPartBytes = 5 * 1024 * 1024;
  ignoredDeletes = 0;
  /** Processing fails a screenshot whose PNG size the display type does not take (off by default). */
  checkDimensions = false;
  /** File names whose next commit ends FAILED, with how many commits still fail. */
  readonly failingDeliveries = new Map<string, number>();
  /** Whether a page's or a treatment's localization may change now (asc-variants.ts sets it). */
  variantEditable: (localization: AscLocalization) => void = () => undefined;

  addApp(app: {
    appId: string;
    bundleId?: string;
    versionState?: string;
    locales: string[];
    liveVersion?: boolean;
    platforms?: AscPlatform[];
  }): void {
    if (this.apps.has(app.appId)) throw new Error(`app ${app.appId} was already added`);
    this.apps.set(app.appId, { id: app.appId, bundleId: app.bundleId ?? `com.example.app${app.appId}`, versionIds: [] });
    // Each platform (a universal purchase has IOS and MAC_OS) has versions of its own.
    for (const platform of app.platforms ?? ['IOS']) {
      // The released version comes first, as on the store: publishing must find the editable one and leave this one alone.
      if (app.liveVersion) this.addVersion(app.appId, platform, '1.0', 'READY_FOR_SALE', app.locales);
      this.addVersion(app.appId, platform, app.liveVersion ? '1.1' : '1.0', app.versionState ?? 'PREPARE_FOR_SUBMISSION', app.locales);
    }
  }

  private addVersion(appId: string, platform: AscPlatform, versionString: string, state: string, locales: string[]): void {
    const version: AscVersion = { id: randomUUID(), appId, platform, versionString, state, localizationIds: [] };
    for (const locale of locales) {
      const localization: AscLocalization = { id: randomUUID(), versionId: version.id, locale, setIds: [] };
      this.localizations.set(localization.id, localization);
      version.localizationIds.push(localization.id);
    }
    this.versions.set(version.id, version);
    this.app(appId).versionIds.push(version.id);
  }

  app(id: string): AscApp {
    const app = this.apps.get(id);
    if (!app) throw notFound('apps', id);
    return app;
  }
  version(id: string): AscVersion {
    const version = this.versions.get(id);
    if (!version) throw notFound('appStoreVersions', id);
    return version;
  }
  localization(id: string): AscLocalization {
    const localization = this.localizations.get(id);
    if (!localization) throw notFound('appStoreVersionLocalizations', id);
    return localization;
  }
  set(id: string): AscSet {
    const set = this.sets.get(id);
    if (!set) throw notFound('appScreenshotSets', id);
    return set;
  }
  screenshot(id: string): AscScreenshot {
    const screenshot = this.screenshots.get(id);
    if (!screenshot) throw notFound('appScreenshots', id);
    return screenshot;
  }

  /** Screenshots change only while their version is editable, as on the real store. */
  assertEditable(localizationId: string): void {
    const localization = this.localization(localizationId);
    if (localization.kind) return this.variantEditable(localization);
    const version = this.version(localization.versionId);
    if (!EDITABLE_STATES.includes(version.state))
      throw conflict('STATE_ERROR', `The app store version is in the state ${version.state} and its screenshots cannot be changed.`);
  }

  /** The app's newest version of a platform (undefined when the app has none). */
  newestVersion(appId: string, platform: string = 'IOS'): AscVersion | undefined {
    return this.app(appId)
      .versionIds.map((id) => this.version(id))
      .filter((v) => v.platform === platform)
      .at(-1);
  }

  /** The newest version's set of the display type's platform: the one a publication edits. */
  findSet(appId: string, locale: string, displayType: string): AscSet | undefined {
    const app = this.apps.get(appId);
    if (!app) return undefined;
    const platform = platformOfDisplayType(displayType);
    const versions = app.versionIds.map((id) => this.version(id)).filter((v) => v.platform === platform);
    for (const version of versions.reverse())
      for (const localizationId of version.localizationIds) {
        const localization = this.localization(localizationId);
        if (localization.locale !== locale) continue;
        const set = localization.setIds.map((id) => this.set(id)).find((s) => s.displayType === displayType);
        if (set) return set;
      }
    return undefined;
  }

  createSet(localizationId: string, displayType: string): AscSet {
    const localization = this.localization(localizationId);
    this.assertEditable(localizationId);
    // A version holds its own platform's display types only: a Mac set in an IOS version is refused.
    if (!localization.kind) {
      const { platform } = this.version(localization.versionId);
      if (platformOfDisplayType(displayType) !== platform)
        throw conflict(
          'ENTITY_ERROR.ATTRIBUTE.INVALID',
          `The screenshotDisplayType '${displayType}' is not valid for an app store version of platform ${platform}.`,
        );
    }
    if (localization.setIds.some((id) => this.set(id).displayType === displayType))
      throw conflict('ENTITY_ERROR.RELATIONSHIP.INVALID', `A screenshot set of type ${displayType} already exists for this localization.`);
    const set: AscSet = { id: randomUUID(), localizationId, displayType, screenshotIds: [] };
    this.sets.set(set.id, set);
    localization.setIds.push(set.id);
    return set;
  }

  reserve(setId: string, fileName: string, fileSize: number): AscScreenshot {
    const set = this.set(setId);
    this.assertEditable(set.localizationId);
    if (set.screenshotIds.length >= MAX_SCREENSHOTS_PER_SET)
      throw conflict('ENTITY_ERROR.RELATIONSHIP.INVALID', `The screenshot set already holds ${MAX_SCREENSHOTS_PER_SET} screenshots.`);
    // The fake keeps the bytes in memory: a reservation past what it would accept in one body is refused.
    if (fileSize > MAX_BODY_BYTES)
      throw conflict(
        'ENTITY_ERROR.ATTRIBUTE.INVALID',
        `fileSize ${fileSize} is larger than the ${MAX_BODY_BYTES} bytes a screenshot may have.`,
      );
    const parts: UploadPart[] = [];
    for (let offset = 0; offset < fileSize; offset += this.uploadPartBytes)
      parts.push({ offset, length: Math.min(this.uploadPartBytes, fileSize - offset), done: false });
    const screenshot: AscScreenshot = {
      id: randomUUID(),
      setId,
      fileName,
      fileSize,
      parts,
      bytes: Buffer.alloc(fileSize),
      checksum: null,
      committedAt: null,
      deliveryError: null,
    };
    this.screenshots.set(screenshot.id, screenshot);
    set.screenshotIds.push(screenshot.id);
    return screenshot;
  }

  uploadPart(id: string, index: number, bytes: Buffer): void {
    const screenshot = this.screenshot(id);
    const part = screenshot.parts[index];
    if (!part) throw new FakeError(404, 'NOT_FOUND', `Upload part ${index} does not exist.`);
    if (screenshot.committedAt !== null) throw conflict('STATE_ERROR', 'The upload was already committed.');
    if (bytes.length !== part.length)
      throw new FakeError(400, 'PARAMETER_ERROR.INVALID', `Part ${index} must be ${part.length} bytes; got ${bytes.length}.`);
    bytes.copy(screenshot.bytes, part.offset);
    part.done = true;
  }

  commit(id: string, checksum: string): AscScreenshot {
    const screenshot = this.screenshot(id);
    this.assertEditable(this.set(screenshot.setId).localizationId);
    if (screenshot.committedAt !== null) return screenshot;
    const missing = screenshot.parts.findIndex((p) => !p.done);
    if (missing >= 0) throw conflict('ENTITY_ERROR.ATTRIBUTE.INVALID', `Upload part ${missing} was not uploaded.`);
    const actual = createHash('md5').update(screenshot.bytes).digest('hex');
    if (checksum.toLowerCase() !== actual)
      throw conflict('ENTITY_ERROR.ATTRIBUTE.INVALID', `sourceFileChecksum ${checksum} does not match the uploaded file (${actual}).`);
    screenshot.checksum = actual;
    screenshot.committedAt = Date.now();
    const failing = this.failingDeliveries.get(screenshot.fileName) ?? 0;
    if (failing > 0) {
      screenshot.deliveryError = { code: 'IMAGE_TOOL_FAILURE', description: `The image ${screenshot.fileName} could not be processed.` };
      if (failing === 1) this.failingDeliveries.delete(screenshot.fileName);
      else this.failingDeliveries.set(screenshot.fileName, failing - 1);
    } else if (this.checkDimensions) {
      screenshot.deliveryError = dimensionError(this.set(screenshot.setId).displayType, screenshot.bytes);
    }
    return screenshot;
  }

  /** Screenshots already on the store (uploaded and processed), in the newest version's set, made if missing. */
  seed(appId: string, locale: string, displayType: string, files: { fileName: string; bytes: Buffer }[]): AscScreenshot[] {
    let set = this.findSet(appId, locale, displayType);
    if (!set) {
      const platform = platformOfDisplayType(displayType);
      const version = this.newestVersion(appId, platform);
      if (!version) throw new Error(`app ${appId} has no ${platform} version`);
      const localization = version.localizationIds.map((id) => this.localization(id)).find((l) => l.locale === locale);
      if (!localization) throw new Error(`app ${appId} has no localization ${locale}`);
      set = { id: randomUUID(), localizationId: localization.id, displayType, screenshotIds: [] };
      this.sets.set(set.id, set);
      localization.setIds.push(set.id);
    }
    return files.map(({ fileName, bytes }) => {
      const screenshot: AscScreenshot = {
        id: randomUUID(),
        setId: set.id,
        fileName,
        fileSize: bytes.length,
        parts: [{ offset: 0, length: bytes.length, done: true }],
        bytes: Buffer.from(bytes),
        checksum: createHash('md5').update(bytes).digest('hex'),
        committedAt: 0,
        deliveryError: null,
      };
      this.screenshots.set(screenshot.id, screenshot);
      set.screenshotIds.push(screenshot.id);
      return screenshot;
    });
  }

  deliveryState(screenshot: AscScreenshot): string {
    if (screenshot.committedAt === null) return 'AWAITING_UPLOAD';
    if (Date.now() - screenshot.committedAt < this.processingDelayMs) return 'UPLOAD_COMPLETE';
    return screenshot.deliveryError ? 'FAILED' : 'COMPLETE';
  }

  /** An ignored delete (ignoreDeletes) returns as if it took but leaves the screenshot, like a delete the store lost. */
  deleteScreenshot(id: string): void {
    const screenshot = this.screenshot(id);
    const set = this.set(screenshot.setId);
    this.assertEditable(set.localizationId);
    if (this.ignoredDeletes > 0) {
      this.ignoredDeletes--;
      return;
    }
    this.screenshots.delete(id);
    set.screenshotIds = set.screenshotIds.filter((s) => s !== id);
  }

  reorder(setId: string, ids: string[]): void {
    const set = this.set(setId);
    this.assertEditable(set.localizationId);
    const current = [...set.screenshotIds].sort();
    const wanted = [...ids].sort();
    if (current.length !== wanted.length || current.some((id, i) => id !== wanted[i]))
      throw conflict(
        'ENTITY_ERROR.RELATIONSHIP.INVALID',
        'The new order must name each screenshot of the set exactly once: ' + `the set holds [${set.screenshotIds.join(', ')}].`,
      );
    set.screenshotIds = [...ids];
  }

  deleteSet(id: string): void {
    const set = this.set(id);
    this.assertEditable(set.localizationId);
    for (const screenshotId of set.screenshotIds) this.screenshots.delete(screenshotId);
    this.sets.delete(id);
    const localization = this.localization(set.localizationId);
    localization.setIds = localization.setIds.filter((s) => s !== id);
  }
}
