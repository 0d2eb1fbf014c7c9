/**
 * The pictures a succeeded job made, per set locale, as a publication sees them: in slide order,
 * with the checksums each store compares (App Store: MD5, Play: SHA-256).
 */
import { createHash } from 'node:crypto';
import type { Queryable } from '../db/pool.ts';
import type { ObjectStore } from '../objects/index.ts';
import type { Device } from '../core/devices.ts';
import { featureGraphicFileName, listJobFiles } from '../sets/files.ts';
import { Problem } from '../core/problem.ts';

export interface JobImage {
  /** The job's file name, e.g. slides/2.png. */
  file: string;
  objectKey: string;
  bytes: number;
  sha256: string;
  md5: string;
}

export interface JobImages {
  appId: string;
  device: Device;
  iosStoreId: string | null;
  androidPackage: string | null;
  /** Set locale -> its slides in order. */
  sets: Map<string, JobImage[]>;
  /** Set locale -> Play's feature graphic of that locale (Android sets; none on a set made before each locale had one). */
  featureGraphics: Map<string, JobImage>;
}

export async function readObject(objects: ObjectStore, key: string): Promise<Buffer> {
  const obj = await objects.get(key);
  if (!obj) throw new Error(`object ${key} is missing`);
  const chunks: Buffer[] = [];
  for await (const c of obj.body) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** The device a job's set was made for (which App Store platform it goes to). */
export async function jobDevice(db: Queryable, jobId: string): Promise<Device> {
  const { rows } = await db.query<{ device: Device }>(`SELECT request->>'device' AS device FROM jobs WHERE id = $1`, [jobId]);
  if (!rows[0]) throw new Problem('job_not_found', `No job ${jobId}.`);
  return rows[0].device;
}

export async function loadJobImages(db: Queryable, objects: ObjectStore, accountId: string, jobId: string): Promise<JobImages> {
  const { rows } = await db.query<{
    status: string;
    app_id: string;
    request: { device: Device; locales?: string[] };
    ios: { storeId: string; language: string } | null;
    android: { storeId: string; language: string } | null;
  }>(
    `SELECT j.status, j.app_id, j.request, a.ios_listing AS ios, a.android_listing AS android
     FROM jobs j JOIN apps a ON a.id = j.app_id WHERE j.id = $1 AND j.account_id = $2`,
    [jobId, accountId],
  );
  const job = rows[0];
  if (!job) throw new Problem('job_not_found', `No job ${jobId} on this account.`);
  if (job.status !== 'succeeded')
    throw new Problem('publication_not_ready', `Job ${jobId} is ${job.status}; only a succeeded set can be published.`);
  const files = await listJobFiles(db, jobId);
  const listing = job.request.device.startsWith('android') ? job.android : job.ios;
  const setLocales = job.request.locales?.length ? job.request.locales : [listing?.language ?? 'en'];
  const sets = new Map<string, JobImage[]>();
  const featureGraphics = new Map<string, JobImage>();
  const image = async (f: (typeof files)[number]): Promise<JobImage> => ({
    file: f.name,
    objectKey: f.objectKey,
    bytes: f.bytes,
    sha256: f.sha256,
    md5: createHash('md5')
      .update(await readObject(objects, f.objectKey))
      .digest('hex'),
  });
  for (const [i, locale] of setLocales.entries()) {
    const prefix = i === 0 ? 'slides/' : `locales/${locale}/slides/`;
    const slides = files
      .filter((f) => f.name.startsWith(prefix) && /^\d+\.png$/.test(f.name.slice(prefix.length)))
      .sort((a, b) => Number(a.name.slice(prefix.length, -4)) - Number(b.name.slice(prefix.length, -4)));
    const images: JobImage[] = [];
    for (const f of slides) images.push(await image(f));
    sets.set(locale, images);
    const graphic = files.find((f) => f.name === featureGraphicFileName(i === 0 ? null : locale));
    if (graphic) featureGraphics.set(locale, await image(graphic));
  }
  return {
    appId: job.app_id,
    device: job.request.device,
    iosStoreId: job.ios?.storeId ?? null,
    androidPackage: job.android?.storeId ?? null,
    sets,
    featureGraphics,
  };
}
