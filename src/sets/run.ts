/**
 * What a worker does with a claimed job: plan the set from the app's stored listings, then render
 * and store its pictures. The job completes with both, or not at all.
 */
import { shownRating } from '../rendering/rating.ts';
import { findApp, listingsOf } from '../apps/apps.ts';
import type { Queryable } from '../db/pool.ts';
import type { ObjectStore } from '../objects/store.ts';
import type { PlanningPool } from '../planning/pool.ts';
import { planDuration, timed } from '../metrics/index.ts';
import { isProblem } from '../core/problem.ts';
import { TranslationFailed } from '../captions/model/errors.ts';
import { fileLocale } from './archive.ts';
import { primaryListing } from '../core/listing.ts';
import { saveJobFiles } from './files.ts';
import { attemptPrefix, drawnColours, readScreensEarly, renderPictures, uploadedScreensFor, type PictureDeps } from './render.ts';
import { fetchStoreImage } from '../screens/store-images.ts';
import { readOlderScreens, waitForScreenText } from '../screens/screens.ts';
import type { ScreenReader } from '../screens/reader.ts';
import { storeScreenTexts } from '../screens/store-screen-text.ts';
import { screensFor } from '../planning/screens.ts';
import { askedOrientation } from '../core/orientation.ts';
import type { Listing } from '../core/listing.ts';
import { resolveSetBrand, withSetBrand } from '../brand/resolve.ts';
import { cachedIconFetcher } from '../brand/icon-cache.ts';
import { runRevisionJob } from './revisions/revision-job.ts';
import { previewSubtitle } from './brand-pictures.ts';
import { outsideFailure } from './picture-failures.ts';
import { DEVICES } from '../core/devices.ts';
import { planDefaults } from '../core/set.ts';
import { FatalJobError, RetryableJobError } from '../queue/runner.ts';
import type { SetJobRunner } from './job-queue.ts';

export interface SetRunnerDeps {
  db: Queryable;
  planner: Pick<PlanningPool, 'plan'>;
  /** Without pictures (tests of planning alone), a job ends with its plan only. */
  pictures?: Omit<PictureDeps, 'db'> | null;
  log?: { warn(obj: object, msg: string): void };
  /** How long a job waits for its screens' text (default 30 s); past it, it plans without. */
  screenTextWaitMs?: number;
  /** LLM_VISION: hand the planner each uploaded screen's file, for the caption model to see. */
  sendPictures?: boolean;
  /** Reads the listing's screenshots that no set has read yet (store_screen_texts); without one, none are read. */
  screenReader?: Pick<ScreenReader, 'lines' | 'read'> | null;
}

export function screenshotSetRunner({
  db,
  planner,
  pictures,
  log,
  screenTextWaitMs,
  sendPictures,
  screenReader,
}: SetRunnerDeps): SetJobRunner {
  return async (job, ctx) => {
    const { signal } = ctx;
    if (job.request.revision && pictures) return runRevisionJob({ db, ...pictures }, job, job.request.revision, ctx, log);
    const app = await findApp(db, job.accountId, job.appId);
    if (!app) throw new FatalJobError({ code: 'planning_failed', message: 'The app of this job no longer exists.', retryable: false });
    const listings = listingsOf(app, DEVICES[job.request.device].store);
    const pictureJob = {
      id: job.id,
      accountId: job.accountId,
      appId: job.appId,
      attempt: job.attempts,
      device: job.request.device,
      screenIds: job.request.screenIds ?? null,
    };
    const uploaded = pictures ? await uploadedScreensFor(db, pictureJob) : [];
    // The screens the set will frame if the planner keeps their order, read while it plans.
    const early = pictures ? readScreensEarly(pictures.objects, uploaded.slice(0, planDefaults(job.request).count)) : undefined;
    // What each screen shows, so that each caption goes over the screen it speaks of; the reader
    // has ~1 s a screen, and the set is planned without the screens it could not read.
    if (pictures && screenReader && uploaded.length)
      await readOlderScreens(
        db,
        pictures.objects,
        screenReader,
        job.accountId,
        uploaded.map((s) => s.screenId),
      );
    const read = uploaded.length
      ? await waitForScreenText(
          db,
          job.accountId,
          uploaded.map((s) => s.screenId),
          { timeoutMs: screenTextWaitMs, signal },
        )
      : null;
    const unread = read ? [...read.unread, ...read.failed] : [];
    const screenWarnings = unread.length
      ? [
          `${unread.length === 1 ? `Screen ${unread[0]} could not be read` : `Screens ${unread.join(', ')} could not be read`}, so no caption was matched to what ${unread.length === 1 ? 'it shows' : 'they show'}.`,
        ]
      : [];
    // Without uploads the listing's screenshots are framed: what they show places the captions too.
    const storeTexts =
      pictures && screenReader && uploaded.length === 0
        ? await listingScreenTexts(db, listings, job.request, pictures, screenReader, signal, log)
        : null;
    const screenPictures = sendPictures && pictures && uploaded.length ? await pictureFiles(pictures.objects, uploaded) : null;
    const fetchIcon = pictures
      ? cachedIconFetcher(pictures.objects, job.appId, (url) =>
          fetchStoreImage(url, { origins: pictures.storeImageOrigins, timeoutMs: pictures.storeImageTimeoutMs, signal }),
        )
      : null;
    const brand = await resolveSetBrand(db, job.accountId, job.appId, job.request.theme, fetchIcon);
    if (!brand) throw new FatalJobError({ code: 'planning_failed', message: 'The app of this job no longer exists.', retryable: false });
    let planned;
    try {
      planned = await timed(planDuration, () =>
        planner.plan(
          {
            listings,
            extraContext: app.extraContext,
            request: job.request,
            brand: brand.palette,
            // Known only with pictures: a planning-only runner frames nothing and checks nothing.
            ...(pictures
              ? { uploadedScreens: uploaded.length, uploadedLandscape: uploaded.every((s) => (s.width ?? 0) > (s.height ?? 0)) }
              : {}),
            ...(read ? { screenTexts: read.screens, screensInOrder: pictureJob.screenIds !== null } : {}),
            ...(storeTexts?.size ? { storeScreenTexts: Object.fromEntries(storeTexts) } : {}),
            ...(screenPictures ? { screenPictures } : {}),
          },
          signal,
          job.accountId,
        ),
      );
      planned = withSetBrand(planned, brand, drawnColours(brand, planned.slides[0]));
      if (screenWarnings.length) planned = { ...planned, warnings: [...planned.warnings, ...screenWarnings] };
    } catch (error) {
      if (signal.aborted) throw error;
      // A model that could not translate a locale may well answer later: retry, refund at the last attempt.
      if (error instanceof TranslationFailed)
        throw new RetryableJobError({ code: 'planning_failed', message: error.message, retryable: true });
      // The planner is otherwise pure (its caption model call falls back on any failure), so the same input would
      // fail the same way again: fail at once rather than retry.
      if (isProblem(error)) throw new FatalJobError({ code: 'planning_failed', message: error.detail, retryable: false });
      log?.warn({ err: error, jobId: job.id }, 'planner failed');
      throw new FatalJobError({
        code: 'internal_error',
        message: 'Planning this set failed on our side; the credits were refunded.',
        retryable: false,
      });
    }
    if (!pictures) return { result: planned };

    const deps: PictureDeps = { db, ...pictures };
    // Earlier attempts of this job were abandoned; their files are of no use to anyone.
    for (let a = 1; a < job.attempts; a++) await pictures.objects.deletePrefix(attemptPrefix(job.id, a)).catch(() => undefined);
    try {
      const primary = listings.length ? primaryListing(listings, job.request.device) : null;
      const rating = shownRating(
        primary?.rating != null && primary.ratingCount != null ? { value: primary.rating, count: primary.ratingCount } : null,
      );
      if (rating) planned = { ...planned, rating };
      const locale = fileLocale(planned, primary);
      const { result, files } = await renderPictures(
        deps,
        pictureJob,
        planned,
        uploaded,
        locale,
        ctx,
        { brand, appName: app.name, subtitle: previewSubtitle(primary, app.category) },
        early,
      );
      return { result, save: (tx) => saveJobFiles(tx, job.id, files) };
    } catch (error) {
      if (signal.aborted) throw error;
      const outside = outsideFailure(error);
      if (outside) throw outside;
      log?.warn({ err: error, jobId: job.id }, 'rendering failed');
      throw new RetryableJobError({
        code: 'internal_error',
        message: 'Rendering this set failed on our side; the credits were refunded.',
        retryable: true,
      });
    }
  };
}

/**
 * The text of the listing screenshots the planner may frame (those of the device's family, the
 * same list it takes), each read once ever (src/screens/store-screen-text.ts). A Mac listing's
 * screenshots are not framed on an iPhone set, so they are not read for one.
 */
async function listingScreenTexts(
  db: Queryable,
  listings: Listing[],
  request: { device: keyof typeof DEVICES; orientation?: 'portrait' | 'landscape' | null; size?: string | null },
  pictures: Omit<PictureDeps, 'db'>,
  reader: Pick<ScreenReader, 'lines'>,
  signal: AbortSignal,
  log: SetRunnerDeps['log'],
): Promise<Map<string, string[]> | null> {
  if (listings.length === 0) return null;
  const family = DEVICES[request.device].family;
  if (primaryListing(listings, request.device).platform === 'mac' && family !== 'mac') return null;
  const { urls } = screensFor(listings, request.device, askedOrientation(request.device, request.orientation, request.size));
  return storeScreenTexts(
    db,
    urls,
    {
      fetch: (url) => fetchStoreImage(url, { origins: pictures.storeImageOrigins, timeoutMs: pictures.storeImageTimeoutMs, signal }),
      read: (bytes, url) => reader.lines(bytes, `store:${url}`),
    },
    (url, err) => log?.warn({ err, url }, 'reading a listing screenshot failed'),
  );
}

/**
 * The uploaded screens' files, in framing order, for the caption model to see (LLM_VISION); a
 * screen whose file is gone is sent as an empty file, which the writer leaves out.
 */
async function pictureFiles(objects: ObjectStore, uploaded: { objectKey: string }[]): Promise<Uint8Array[]> {
  return Promise.all(
    uploaded.map(async (s) => {
      const o = await objects.get(s.objectKey);
      if (!o) return new Uint8Array();
      const chunks: Buffer[] = [];
      for await (const c of o.body) chunks.push(c as Buffer);
      return new Uint8Array(Buffer.concat(chunks));
    }),
  );
}
