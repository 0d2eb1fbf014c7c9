/**
 * An Android set's ZIP for one Play variant (a custom store listing or a store listing experiment's
 * variant), which Google Play has no API for: the set's slides and feature graphics under
 * `android/variants/<name>/{locale}/images/…`, laid out like the set's own ZIP so each folder is
 * uploaded as it is in the Play Console. Built when it is downloaded, from the slide files the set
 * stored (the variant is named by a publication long after the set rendered its ZIP), and streamed.
 */
import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { Queryable } from '../db/pool.ts';
import type { ObjectStore } from '../objects/index.ts';
import { DEVICES, type Device } from '../core/devices.ts';
import { primaryListing } from '../core/listing.ts';
import { Problem, validationFailed } from '../core/problem.ts';
import type { ScreenshotSetResult } from '../core/set.ts';
import { isId } from '../core/ids.ts';
import { listingsOf, type App } from '../apps/apps.ts';
import { archivePath, fileLocale } from './archive.ts';
import { featureGraphicFileName, listJobFiles, slideFileName, type JobFile } from './files.ts';
import { zipLength, zipStream, type StreamedEntry } from './zip.ts';

/** A variant's name: one safe path segment (a folder in the ZIP, a query value without escaping). */
export const VARIANT_NAME = '^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$';
const VARIANT = new RegExp(VARIANT_NAME);

/** The variant name a store listing's or treatment's label is filed under: "Back to école" -> "Back-to-ecole". */
export function variantName(label: string): string {
  const slug = label
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[.-]+|-+$/g, '')
    .slice(0, 100);
  return VARIANT.test(slug) ? slug : 'variant';
}

export interface VariantArchive {
  /** A digest of the entries (names and each file's sha256) and the time stamped on them. */
  etag: string;
  bytes: number;
  /** Reads the slides again as it is consumed; never the whole ZIP in memory. */
  open(): Promise<ReturnType<typeof zipStream>>;
}

/**
 * The variant ZIP of a succeeded Android set, or a problem: no such set of this account (or, with
 * `accountId` null, a signed URL's, any account's), or a set for the App Store, whose variants go
 * through the API (`target` of a publication).
 */
export async function variantArchive(
  db: Queryable,
  objects: ObjectStore,
  accountId: string | null,
  jobId: string,
  name: string,
): Promise<VariantArchive> {
  if (!VARIANT.test(name)) throw validationFailed([{ field: 'variant', message: `must match ${VARIANT_NAME}` }]);
  const { rows } = await db.query<{
    device: Device;
    result: ScreenshotSetResult;
    created_at: Date;
    ios_listing: App['iosListing'];
    android_listing: App['androidListing'];
    own_listing: App['listing'];
  }>(
    `SELECT j.request->>'device' AS device, j.result, j.created_at, a.ios_listing, a.android_listing, a.own_listing
     FROM jobs j JOIN apps a ON a.id = j.app_id
     WHERE j.id = $1 AND j.status = 'succeeded' AND j.result IS NOT NULL AND ($2::text IS NULL OR j.account_id = $2)`,
    [jobId, accountId],
  );
  const job = isId('job', jobId) ? rows[0] : undefined;
  if (!job) throw new Problem('job_not_found', `No succeeded job ${jobId} on this account.`);
  if (DEVICES[job.device].store !== 'google-play')
    throw validationFailed([
      {
        field: 'variant',
        message: `job ${jobId} is an App Store set (${job.device}): its custom product pages and test treatments are published through the API (POST /public/v1/publications with a target), not uploaded by hand`,
      },
    ]);
  // A set whose plan lists no slides (a row written by hand, an old shape) has nothing to lay out.
  if (!Array.isArray(job.result.slides)) throw new Problem('job_not_found', `Job ${jobId} has no stored slides.`);
  const files = new Map((await listJobFiles(db, jobId)).map((f) => [f.name, f]));
  // The locale the set's own ZIP filed it under (./archive.ts): the first locale, or for a set
  // without locales the language of its captions.
  const listings = listingsOf(
    { iosListing: job.ios_listing, androidListing: job.android_listing, listing: job.own_listing },
    'google-play',
  );
  const sets = job.result.locales?.length
    ? job.result.locales.map((l, i) => ({ locale: l.locale, slides: l.slides, own: i === 0 ? null : l.locale }))
    : [
        {
          locale: fileLocale(job.result, listings.length ? primaryListing(listings, job.device) : null),
          slides: job.result.slides,
          own: null,
        },
      ];
  const chosen: { path: string; file: JobFile }[] = [];
  const root = `android/variants/${name}/`;
  for (const set of sets) {
    for (const slide of set.slides) {
      const png = files.get(slideFileName(slide.index, set.own));
      const file = png ?? files.get(slideFileName(slide.index, set.own, 'jpg'));
      if (!file) continue;
      const path = archivePath(job.device, { locale: set.locale, index: slide.index, role: slide.role, ext: png ? 'png' : 'jpg' });
      chosen.push({ path: root + path.slice('android/'.length), file });
    }
    const graphic = files.get(featureGraphicFileName(set.own));
    if (graphic) chosen.push({ path: `${root}${set.locale}/images/featureGraphic.png`, file: graphic });
  }
  if (!chosen.length) throw new Problem('job_not_found', `Job ${jobId} has no stored slides (yet).`);
  // The job's creation, not now: the same bytes (and ETag) at every download.
  const mtime = job.created_at;
  const etag = createHash('sha256');
  etag.update(`${mtime.toISOString()}\n`);
  for (const c of chosen) etag.update(`${c.path}\n${c.file.sha256}\n`);
  return {
    etag: etag.digest('hex'),
    bytes: zipLength(chosen.map((c) => ({ path: c.path, bytes: c.file.bytes }))),
    async open() {
      // A stored entry's CRC-32 comes before its bytes, and the set stored none: each slide is read
      // twice, once for its CRC, then into the ZIP. Not a data descriptor instead: Java's
      // ZipInputStream, among others, refuses one on a stored entry.
      const entries: StreamedEntry[] = [];
      for (const c of chosen) {
        let crc = 0;
        for await (const chunk of await read(objects, c.file)) crc = crc32(chunk, crc);
        entries.push({ path: c.path, bytes: c.file.bytes, crc32: crc, read: () => read(objects, c.file) });
      }
      return zipStream(entries, mtime);
    },
  };
}

async function read(objects: ObjectStore, file: JobFile): Promise<AsyncIterable<Buffer>> {
  const object = await objects.get(file.objectKey);
  if (!object) throw new Problem('job_not_found', `${file.name} is no longer stored.`);
  return object.body as AsyncIterable<Buffer>;
}
