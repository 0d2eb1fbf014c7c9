/** The files a succeeded job rendered (job_files), kept apart from its plan (jobs.result). */
import { createHash } from 'node:crypto';
import type { Queryable } from '../db/pool.ts';
import type { ObjectStore } from '../objects/index.ts';

export interface JobFile {
  /** The public name: 'slides/1.png', 'locales/de-DE/slides/1.png' or 'archive.zip'. */
  name: string;
  objectKey: string;
  contentType: string;
  bytes: number;
  sha256: string;
  width: number | null;
  height: number | null;
}

export const ARCHIVE_NAME = 'archive.zip';
/** Android sets: Google Play's feature graphic (the first locale's). */
export const FEATURE_GRAPHIC_NAME = 'feature-graphic.png';
/** A locale's feature graphic: the first locale's keeps the name the result links to, the others sit beside their slides. */
export const featureGraphicFileName = (locale: string | null): string =>
  locale ? `locales/${locale}/${FEATURE_GRAPHIC_NAME}` : FEATURE_GRAPHIC_NAME;
/** The set in the store's search results. */
export const STORE_PREVIEW_NAME = 'store-preview.png';
/**
 * A slide's file: .png, or .jpg for the rare slide a PNG of 8 MB could not hold. The first (or
 * only) locale's slides are the set's `slides`; other locales' have their own folder.
 */
export const slideFileName = (index: number, locale: string | null, ext: 'png' | 'jpg' = 'png'): string =>
  locale ? `locales/${locale}/slides/${index}.${ext}` : `slides/${index}.${ext}`;

export const sha256Hex = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/**
 * Writes a picture under the attempt's prefix and names it as one of the job's files. `sha256`:
 * the bytes' digest when the thread that made them took it already.
 */
export async function keepPicture(
  objects: ObjectStore,
  prefix: string,
  name: string,
  bytes: Buffer,
  contentType: string,
  size: { width: number; height: number },
  sha256?: string,
): Promise<JobFile> {
  await objects.put(`${prefix}/${name}`, bytes, contentType);
  return { name, objectKey: `${prefix}/${name}`, contentType, bytes: bytes.length, sha256: sha256 ?? sha256Hex(bytes), ...size };
}

export async function saveJobFiles(tx: Queryable, jobId: string, files: JobFile[]): Promise<void> {
  if (files.length === 0) return;
  await tx.query(
    `INSERT INTO job_files (job_id, name, object_key, content_type, bytes, sha256, width, height)
     SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::bigint[], $6::text[], $7::int[], $8::int[])`,
    [
      jobId,
      files.map((f) => f.name),
      files.map((f) => f.objectKey),
      files.map((f) => f.contentType),
      files.map((f) => f.bytes),
      files.map((f) => f.sha256),
      files.map((f) => f.width),
      files.map((f) => f.height),
    ],
  );
}

export async function listJobFiles(db: Queryable, jobId: string): Promise<JobFile[]> {
  const { rows } = await db.query<{
    name: string;
    object_key: string;
    content_type: string;
    bytes: string;
    sha256: string;
    width: number | null;
    height: number | null;
  }>({
    name: 'list-job-files',
    text: 'SELECT name, object_key, content_type, bytes, sha256, width, height FROM job_files WHERE job_id = $1',
    values: [jobId],
  });
  return rows.map((r) => ({
    name: r.name,
    objectKey: r.object_key,
    contentType: r.content_type,
    bytes: Number(r.bytes),
    sha256: r.sha256,
    width: r.width,
    height: r.height,
  }));
}

/** One file of one account's job, or null (another account's job is as unknown as a missing one). */
export async function findJobFile(db: Queryable, accountId: string | null, jobId: string, name: string): Promise<JobFile | null> {
  const { rows } = await db.query<{
    object_key: string;
    content_type: string;
    bytes: string;
    sha256: string;
    width: number | null;
    height: number | null;
  }>({
    name: 'find-job-file',
    text: `SELECT f.object_key, f.content_type, f.bytes, f.sha256, f.width, f.height FROM job_files f JOIN jobs j ON j.id = f.job_id
           WHERE f.job_id = $1 AND f.name = $2 AND ($3::text IS NULL OR j.account_id = $3)`,
    values: [jobId, name, accountId],
  });
  const r = rows[0];
  return r
    ? {
        name,
        objectKey: r.object_key,
        contentType: r.content_type,
        bytes: Number(r.bytes),
        sha256: r.sha256,
        width: r.width,
        height: r.height,
      }
    : null;
}
