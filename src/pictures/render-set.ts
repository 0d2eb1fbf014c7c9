/**
 * The pictures of a planned set: pick each slide's screen (CONTRACT: the request's screenIds, else
 * the app's uploaded screens of the device's family, else the listing's screenshots), fetch or read
 * the screens, render every slide on the rendering threads, store the PNGs and the ZIP. Returns
 * the plan as completed (screens chosen) and the files to record with the job's completion.
 *
 * Files of attempt n live under jobs/<id>/a<n>/: an abandoned attempt that wakes up late writes
 * beside the winner's files, never over them.
 */
import { createHash } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import type { Queryable } from '../db/pool.ts';
import type { ObjectStore } from '../objects/index.ts';
import { layoutFor } from '../planning/look.ts';
import { DEVICES, type Device, type ScreenshotSetResult, type Slide } from '../planning/types.ts';
import { checkStoreRules, type RenderPool } from '../rendering/index.ts';
import { familyScreens, screenObjects, type ScreenObject } from '../screens/screens.ts';
import { fetchStoreImage } from '../screens/store-images.ts';
import { buildArchive, type ArchiveSlide } from './archive.ts';
import { ARCHIVE_NAME, slideFileName, type JobFile } from './files.ts';

export interface PictureJob {
  id: string;
  accountId: string;
  appId: string;
  attempt: number;
  device: Device;
  /** The request's screenIds, in order; null when it named none. */
  screenIds: string[] | null;
}

export interface PictureDeps {
  db: Queryable;
  objects: ObjectStore;
  renderer: Pick<RenderPool, 'renderSet'>;
  storeImageOrigins: string[];
  /** How long one listing screenshot may take to arrive (default 15 s). */
  storeImageTimeoutMs?: number;
  now(): Date;
}

export interface Rendered {
  result: ScreenshotSetResult;
  files: JobFile[];
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

export const attemptPrefix = (jobId: string, attempt: number) => `jobs/${jobId}/a${attempt}`;

/** The screens this job may frame, before planning: what the request named, or the family's uploads. */
export async function uploadedScreensFor(db: Queryable, job: PictureJob): Promise<ScreenObject[]> {
  if (job.screenIds) return screenObjects(db, job.accountId, job.appId, job.screenIds);
  return familyScreens(db, job.accountId, job.appId, DEVICES[job.device].family);
}

/** Slide i frames uploaded screen i (cycling); a slide with its own screenId keeps it. */
export function frameUploadedScreens(slides: Slide[], uploaded: ScreenObject[]): Slide[] {
  if (uploaded.length === 0) return slides;
  return slides.map((s, i) => {
    if (s.screenId) return s;
    const layout = s.layout === 'text-only' ? layoutFor(s.role, i, true) : s.layout;
    return { ...s, screenId: uploaded[i % uploaded.length].screenId, screenshotUrl: null, layout };
  });
}

// The planner's words about the listing's screenshots (missing, landscape, borrowed from another
// family) do not apply to a set that frames the user's own screens.
const LISTING_SCREENSHOT_WARNING = /^(The listing has (no |\d+ screenshots? for)|\d+ of the listing's)/;

function applyScreens(result: ScreenshotSetResult, uploaded: ScreenObject[]): ScreenshotSetResult {
  if (uploaded.length === 0) return result;
  const framed = result.slides.filter((s) => !s.screenId).length;
  const repeats =
    uploaded.length < framed
      ? [
          `${uploaded.length} of your screens for ${framed} slides, so some appear twice; upload more screens of this family for a set without repeats.`,
        ]
      : [];
  return {
    ...result,
    warnings: [...result.warnings.filter((w) => !LISTING_SCREENSHOT_WARNING.test(w)), ...repeats],
    slides: frameUploadedScreens(result.slides, uploaded),
    ...(result.locales
      ? {
          locales: result.locales.map((l) => ({
            ...l,
            warnings: l.warnings.filter((w) => !LISTING_SCREENSHOT_WARNING.test(w)),
            slides: frameUploadedScreens(l.slides, uploaded),
          })),
        }
      : {}),
  };
}

async function readObject(objects: ObjectStore, key: string): Promise<Buffer> {
  const found = await objects.get(key);
  if (!found) throw new Error(`object ${key} is missing`);
  return buffer(found.body);
}

/** Each distinct screen once: an uploaded screen's bytes, or a listing screenshot at full size. */
async function loadScreens(deps: PictureDeps, job: PictureJob, slides: Slide[], signal: AbortSignal): Promise<(Buffer | null)[]> {
  const ids = [...new Set(slides.map((s) => s.screenId).filter((id): id is string => !!id))];
  const keys = new Map((await screenObjects(deps.db, job.accountId, job.appId, ids)).map((s) => [s.screenId, s.objectKey]));
  const cache = new Map<string, Promise<Buffer>>();
  const once = (k: string, load: () => Promise<Buffer>) => {
    if (!cache.has(k)) cache.set(k, load());
    return cache.get(k)!;
  };
  return Promise.all(
    slides.map((s) => {
      if (s.screenId) {
        const key = keys.get(s.screenId);
        if (!key) throw new Error(`screen ${s.screenId} is missing`);
        return once(key, () => readObject(deps.objects, key));
      }
      if (s.screenshotUrl)
        return once(s.screenshotUrl, () =>
          fetchStoreImage(s.screenshotUrl!, { origins: deps.storeImageOrigins, timeoutMs: deps.storeImageTimeoutMs, signal }),
        );
      return null;
    }),
  );
}

export async function renderPictures(
  deps: PictureDeps,
  job: PictureJob,
  planned: ScreenshotSetResult,
  uploaded: ScreenObject[],
  defaultLocale: string,
  ctx: { signal: AbortSignal; progress(done: number, total: number): void },
): Promise<Rendered> {
  const result = applyScreens(planned, uploaded);
  const sets = result.locales
    ? result.locales.map((l, i) => ({ locale: l.locale, slides: l.slides, fileLocale: i === 0 ? null : l.locale }))
    : [{ locale: defaultLocale, slides: result.slides, fileLocale: null }];
  // Every locale has the same screens in the same places: load them once.
  const screens = await loadScreens(deps, job, sets[0].slides, ctx.signal);
  const total = sets.reduce((n, s) => n + s.slides.length, 0);
  let done = 0;
  ctx.progress(0, total);

  const prefix = attemptPrefix(job.id, job.attempt);
  const files: JobFile[] = [];
  const archived: ArchiveSlide[] = [];
  const { width, height } = DEVICES[job.device];
  for (const set of sets) {
    const pngs = await deps.renderer.renderSet(
      { device: job.device, slides: set.slides, screens },
      { signal: ctx.signal, onSlide: () => ctx.progress(++done, total) },
    );
    await Promise.all(
      pngs.map(async (png, i) => {
        const slide = set.slides[i];
        // Never deliver a picture a store would refuse (size, alpha, bytes): that is our bug, not the user's.
        const broken = checkStoreRules(png, job.device);
        if (broken.length) throw new Error(`slide ${slide.index} breaks the store rules: ${broken.join('; ')}`);
        const name = slideFileName(slide.index, set.fileLocale);
        await deps.objects.put(`${prefix}/${name}`, png, 'image/png');
        files.push({
          name,
          objectKey: `${prefix}/${name}`,
          contentType: 'image/png',
          bytes: png.length,
          sha256: sha256(png),
          width,
          height,
        });
        archived.push({ locale: set.locale, index: slide.index, role: slide.role, png });
      }),
    );
  }
  ctx.signal.throwIfAborted();
  archived.sort((a, b) => a.locale.localeCompare(b.locale) || a.index - b.index);
  const zip = await buildArchive(job.device, archived, result, deps.now());
  await deps.objects.put(`${prefix}/${ARCHIVE_NAME}`, zip, 'application/zip');
  files.push({
    name: ARCHIVE_NAME,
    objectKey: `${prefix}/${ARCHIVE_NAME}`,
    contentType: 'application/zip',
    bytes: zip.length,
    sha256: sha256(zip),
    width: null,
    height: null,
  });
  return { result, files };
}
