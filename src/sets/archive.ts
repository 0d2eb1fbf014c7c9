/**
 * The set's ZIP, laid out as fastlane expects it, so `fastlane deliver` (App Store) or `supply`
 * (Google Play) uploads it as it is:
 *   {locale}/{index}_{device}_{role}.png                                  App Store devices
 *   android/{locale}/images/{phoneScreenshots|tenInchScreenshots}/{index}_{role}.png   Play
 *   android/{locale}/images/featureGraphic.png                                       Play
 * plus plan.json, the result without URLs.
 */
import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ObjectStore } from '../objects/index.ts';
import { ARCHIVE_NAME, type JobFile } from './files.ts';
import { DEVICES, type Device } from '../core/devices.ts';
import type { Role } from '../core/narratives.ts';
import { zipParts } from './zip.ts';
import { captionsLanguage } from '../captions/checker/language.ts';
import { captionsLocale } from '../core/locales.ts';
import type { Listing } from '../core/listing.ts';
import type { ScreenshotSetResult } from '../core/set.ts';

export interface ArchiveSlide {
  locale: string;
  index: number;
  role: Role;
  png: Buffer;
  /** Its CRC-32, taken when the slide was stored. */
  crc32?: number;
  /** The file's type: a slide a PNG of 8 MB could not hold is a JPEG (deliver and supply take both). */
  ext?: 'png' | 'jpg';
}

/**
 * The locale a set without `locales` is filed under (its ZIP folders, Play's `android/{locale}`):
 * the language its captions are written in, not the listing's. An English set of a Korean Play
 * listing (captions written by hand, or from an English description) goes to android/en-US/, where
 * supply uploads it as the English listing's, not over the Korean one's.
 */
export function fileLocale(result: Pick<ScreenshotSetResult, 'slides'>, primary: Listing | null): string {
  const texts = result.slides.flatMap((s) => [s.headline, s.subheadline ?? '']);
  if (!primary) return captionsLocale(captionsLanguage(texts, 'en'), 'us');
  return captionsLocale(captionsLanguage(texts, primary.language), primary.country);
}

export function archivePath(device: Device, slide: Pick<ArchiveSlide, 'locale' | 'index' | 'role' | 'ext'>): string {
  const index = String(slide.index).padStart(2, '0');
  const { store, family } = DEVICES[device];
  if (store === 'google-play') {
    const folder = family === 'android-tablet' ? 'tenInchScreenshots' : 'phoneScreenshots';
    return `android/${slide.locale}/images/${folder}/${index}_${slide.role}.${slide.ext ?? 'png'}`;
  }
  return `${slide.locale}/${index}_${device}_${slide.role}.${slide.ext ?? 'png'}`;
}

/**
 * The ZIP in memory, as its parts in order: its PNGs are in memory already, and they are stored,
 * not recompressed.
 */
export function buildArchive(
  device: Device,
  slides: ArchiveSlide[],
  plan: unknown,
  mtime: Date,
  /** Other pictures at their own paths: Play's featureGraphic.png beside the locale's screenshots. */
  extras: { path: string; png: Buffer }[] = [],
): Buffer[] {
  return zipParts(
    [
      ...slides.map((s) => ({ path: archivePath(device, s), data: s.png, crc32: s.crc32 })),
      ...extras.map((e) => ({ path: e.path, data: e.png })),
      { path: 'plan.json', data: Buffer.from(`${JSON.stringify(plan, null, 2)}\n`) },
    ],
    mtime,
  );
}

/** ~0.3 ms of SHA-256 on this project's VM. */
const HASH_SLICE = 128 * 1024;

/** Stores the set's ZIP under the attempt's prefix and names it as the job's archive file. */
export async function storeArchive(objects: ObjectStore, prefix: string, zip: Buffer[]): Promise<JobFile> {
  // Written while it is hashed (the write on libuv's threads or the network, the hash here): one
  // after the other, the 10 MB's hash (~10 ms) came before the write on every set's last stretch.
  const stored = objects.put(`${prefix}/${ARCHIVE_NAME}`, zip, 'application/zip');
  stored.catch(() => undefined);
  // Hashed in slices of at most HASH_SLICE bytes, giving the event loop a turn between them: the
  // whole 10 MB at once held the thread that answers polls for ~7 ms, and a part (a ~1 MB slide)
  // at a time still 2.5-4 ms a turn on this project's VM (no SHA extensions), a poll's p99.
  const hash = createHash('sha256');
  let since = 0;
  for (const part of zip) {
    for (let at = 0; at < part.length; at += HASH_SLICE) {
      const slice = part.subarray(at, at + HASH_SLICE);
      hash.update(slice);
      since += slice.length;
      if (since >= HASH_SLICE) {
        since = 0;
        await nextTurn();
      }
    }
  }
  await stored;
  return {
    name: ARCHIVE_NAME,
    objectKey: `${prefix}/${ARCHIVE_NAME}`,
    contentType: 'application/zip',
    bytes: zip.reduce((n, part) => n + part.length, 0),
    sha256: hash.digest('hex'),
    width: null,
    height: null,
  };
}
