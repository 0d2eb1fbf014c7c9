/**
 * What the fake Google Play holds: per package its store listings (one per language, like a real
 * app's, which has at least its default language's), their live images, and at most one open
 * edit, a working copy of both that a commit makes live. Edits expire, as Play's do after about
 * an hour; a commit can be refused while the app is in review; a committed edit answers as Play's
 * does ("This edit has already been successfully committed").
 */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { FakeError } from './server.ts';

/** Screenshot types hold up to eight images; the graphics one. */
export const IMAGE_LIMITS: Record<string, number> = {
  phoneScreenshots: 8,
  sevenInchScreenshots: 8,
  tenInchScreenshots: 8,
  tvScreenshots: 8,
  wearScreenshots: 8,
  featureGraphic: 1,
  icon: 1,
  promoGraphic: 1,
  tvBanner: 1,
};

export interface StoredImage {
  id: string;
  sha1: string;
  sha256: string;
  bytes: Buffer;
}

/** Images per `language/imageType`, in order. */
type Listings = Map<string, StoredImage[]>;

/** A language's store listing (androidpublisher's Listing): the texts the fake keeps, by language. */
export interface PlayListing {
  language: string;
  title: string;
  shortDescription: string;
  fullDescription: string;
}

export interface PlayEdit {
  id: string;
  packageName: string;
  expiresAt: number;
  listings: Listings;
  texts: Map<string, PlayListing>;
}

export interface PlayApp {
  packageName: string;
  inReview: boolean;
  reviewsCancelled: number;
  live: Listings;
  texts: Map<string, PlayListing>;
}

export const listingKey = (language: string, imageType: string) => `${language}/${imageType}`;

export const playError = (status: number, reason: string, message: string) => new FakeError(status, reason, message);

const emptyListing = (language: string): PlayListing => ({ language, title: '', shortDescription: '', fullDescription: '' });

const copy = (listings: Listings): Listings => new Map([...listings].map(([key, images]) => [key, [...images]]));

export function imageFormat(bytes: Buffer): 'png' | 'jpeg' | null {
  if (bytes.length >= 8 && bytes.readUInt32BE(0) === 0x89504e47 && bytes.readUInt32BE(4) === 0x0d0a1a0a) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  return null;
}

/**
 * What Play's listing rules say about a PNG's size: screenshots 320 to 3840 px a side, the long
 * side at most twice the short; a feature graphic exactly 1024×500. JPEGs are not measured.
 */
function dimensionProblem(imageType: string, bytes: Buffer): string | null {
  if (imageFormat(bytes) !== 'png' || bytes.toString('latin1', 12, 16) !== 'IHDR') return null;
  const [width, height] = [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
  if (imageType === 'featureGraphic')
    return width === 1024 && height === 500 ? null : `A feature graphic must be 1024x500; this one is ${width}x${height}.`;
  if (!imageType.endsWith('Screenshots')) return null;
  const [short, long] = [Math.min(width, height), Math.max(width, height)];
  if (short < 320 || long > 3840) return `Screenshots must be 320 to 3840 px a side; this one is ${width}x${height}.`;
  if (long > 2 * short) return `A screenshot's long side may be at most twice its short side; this one is ${width}x${height}.`;
  return null;
}

export class PlayState {
  readonly apps = new Map<string, PlayApp>();
  readonly edits = new Map<string, PlayEdit>();
  /** Every image ever uploaded, by id, so its URL keeps answering. */
  readonly images = new Map<string, StoredImage>();
  /** Committed edits by id (with their package): Play tells a committed edit from an unknown one. */
  private readonly committed = new Map<string, string>();
  editTtlMs = 60 * 60 * 1000;
  /** Uploads are held to Play's size rules for PNGs (off by default). */
  checkDimensions = false;

  /** A package with a listing per language (a real app has at least its default language's). */
  addApp(packageName: string, inReview = false, languages: string[] = ['en-US']): void {
    if (this.apps.has(packageName)) throw new Error(`package ${packageName} was already added`);
    const texts = new Map(languages.map((language) => [language, emptyListing(language)]));
    this.apps.set(packageName, { packageName, inReview, reviewsCancelled: 0, live: new Map(), texts });
  }

  app(packageName: string): PlayApp {
    const app = this.apps.get(packageName);
    if (!app) throw playError(404, 'applicationNotFound', `Package not found: ${packageName}.`);
    return app;
  }

  private isOpen(edit: PlayEdit): boolean {
    return edit.expiresAt > Date.now();
  }

  insertEdit(packageName: string): PlayEdit {
    const app = this.app(packageName);
    const open = [...this.edits.values()].find((e) => e.packageName === packageName && this.isOpen(e));
    if (open)
      throw playError(409, 'editAlreadyOpen', `Another edit (${open.id}) is already open for ${packageName}; commit or delete it first.`);
    const edit: PlayEdit = {
      id: String(randomInt(1e9, 1e10)) + String(randomInt(1e9, 1e10)),
      packageName,
      expiresAt: Date.now() + this.editTtlMs,
      listings: copy(app.live),
      texts: new Map(app.texts),
    };
    this.edits.set(edit.id, edit);
    return edit;
  }

  /** The open edit `editId` of `packageName`; a deleted, committed or expired edit is refused as Play refuses it. */
  edit(packageName: string, editId: string): PlayEdit {
    this.app(packageName);
    // Play's words (gradle-play-publisher, r0adkll/upload-google-play and fastforge met them on a
    // commit sent twice): a 400 whose reason is editAlreadyCommitted. The status is assumed.
    if (this.committed.get(editId) === packageName)
      throw playError(400, 'editAlreadyCommitted', 'This edit has already been successfully committed, please create a new Edit.');
    const edit = this.edits.get(editId);
    if (!edit || edit.packageName !== packageName) throw playError(404, 'editNotFound', 'This Edit has been deleted.');
    if (!this.isOpen(edit)) throw playError(400, 'editExpired', 'This Edit has expired. Please create a new Edit.');
    return edit;
  }

  deleteEdit(packageName: string, editId: string): void {
    this.edit(packageName, editId);
    this.edits.delete(editId);
  }

  commit(packageName: string, editId: string, changesInReviewBehavior: string | null): PlayEdit {
    const edit = this.edit(packageName, editId);
    const app = this.app(packageName);
    if (app.inReview) {
      if (changesInReviewBehavior === 'ERROR_IF_IN_REVIEW')
        throw playError(
          400,
          'changesInReview',
          'This app has changes in review; committing would cancel the review (changesInReviewBehavior=ERROR_IF_IN_REVIEW).',
        );
      // Play's default: the review in progress is cancelled and the changes are sent with these.
      app.reviewsCancelled++;
    }
    app.live = edit.listings;
    app.texts = edit.texts;
    this.edits.delete(editId);
    this.committed.set(editId, packageName);
    return edit;
  }

  /** The edit's listings, in the order their languages were added. */
  listings(edit: PlayEdit): PlayListing[] {
    return [...edit.texts.values()];
  }

  list(edit: PlayEdit, language: string, imageType: string): StoredImage[] {
    if (!(imageType in IMAGE_LIMITS)) throw playError(400, 'invalid', `Invalid value for imageType: ${imageType}.`);
    return edit.listings.get(listingKey(language, imageType)) ?? [];
  }

  upload(edit: PlayEdit, language: string, imageType: string, bytes: Buffer): StoredImage {
    const images = this.list(edit, language, imageType);
    if (images.length >= IMAGE_LIMITS[imageType])
      throw playError(400, 'imageLimitExceeded', `${imageType} holds at most ${IMAGE_LIMITS[imageType]} images for ${language}.`);
    if (!imageFormat(bytes)) throw playError(400, 'imageInvalid', 'The uploaded file is not a PNG or JPEG image.');
    const wrongSize = this.checkDimensions ? dimensionProblem(imageType, bytes) : null;
    if (wrongSize) throw playError(400, 'imageInvalid', wrongSize);
    const image = this.store(bytes);
    edit.listings.set(listingKey(language, imageType), [...images, image]);
    // An image for a language the app has no listing in makes one: the bug this fake now shows
    // (a set published to a new `en` listing beside the app's `en-US`).
    if (!edit.texts.has(language)) edit.texts.set(language, emptyListing(language));
    return image;
  }

  /** Images already live, appended to a language and type without an edit. */
  seed(packageName: string, language: string, imageType: string, files: Buffer[]): StoredImage[] {
    const app = this.app(packageName);
    const images = files.map((bytes) => this.store(bytes));
    if (!app.texts.has(language)) app.texts.set(language, emptyListing(language));
    app.live.set(listingKey(language, imageType), [...(app.live.get(listingKey(language, imageType)) ?? []), ...images]);
    return images;
  }

  private store(bytes: Buffer): StoredImage {
    const image: StoredImage = {
      id: randomBytes(16).toString('hex'),
      sha1: createHash('sha1').update(bytes).digest('hex'),
      sha256: createHash('sha256').update(bytes).digest('hex'),
      bytes: Buffer.from(bytes),
    };
    this.images.set(image.id, image);
    return image;
  }

  deleteImage(edit: PlayEdit, language: string, imageType: string, imageId: string): void {
    const images = this.list(edit, language, imageType);
    if (!images.some((i) => i.id === imageId)) throw playError(404, 'imageNotFound', `Image ${imageId} not found.`);
    edit.listings.set(
      listingKey(language, imageType),
      images.filter((i) => i.id !== imageId),
    );
  }

  deleteAll(edit: PlayEdit, language: string, imageType: string): StoredImage[] {
    const images = this.list(edit, language, imageType);
    edit.listings.set(listingKey(language, imageType), []);
    return images;
  }
}
