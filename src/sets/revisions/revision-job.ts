/** The worker's side of a revision job: read its parent, render what changed, map failures to job errors. */
import { buffer } from 'node:stream/consumers';
import { findApp, listingsOf } from '../../apps/apps.ts';
import { DEVICES } from '../../core/devices.ts';
import { iconKey } from '../../brand/icon-cache.ts';
import { previewSubtitle } from '../brand-pictures.ts';
import { FatalJobError, RetryableJobError, type JobContext } from '../../queue/runner.ts';
import type { SetJob, SetJobOutcome } from '../job-queue.ts';
import { outsideFailure } from '../picture-failures.ts';
import { saveJobFiles } from '../files.ts';
import { fileLocale } from '../archive.ts';
import { primaryListing } from '../../core/listing.ts';
import type { ScreenshotSetResult } from '../../core/set.ts';
import { renderRevision, type RevisionDeps } from './revision-runner.ts';
import type { StoredRevision } from './types.ts';

export async function runRevisionJob(
  deps: RevisionDeps,
  job: SetJob,
  rev: StoredRevision,
  ctx: JobContext,
  log?: { warn(obj: object, msg: string): void },
): Promise<SetJobOutcome> {
  const { rows } = await deps.db.query<{ result: ScreenshotSetResult | null }>(
    'SELECT result FROM jobs WHERE id = $1 AND account_id = $2',
    [rev.parentJobId, job.accountId],
  );
  const parent = rows[0]?.result;
  const app = await findApp(deps.db, job.accountId, job.appId);
  if (!parent || !app)
    throw new FatalJobError({ code: 'internal_error', message: 'The set this revises no longer exists.', retryable: false });
  const listings = listingsOf(app, DEVICES[rev.plan.device].store);
  const primary = listings.length ? primaryListing(listings, rev.plan.device) : null;
  const locale = fileLocale(parent, primary);
  // Drawn again only when the revision changes what they show, in the parent's colours, with the
  // icon the parent's set kept (apps/<id>/icon) or the uploaded one: a revision fetches nothing from the store.
  const brandPictures = parent.brand
    ? {
        brand: {
          palette: { primary: parent.brand.primary, secondary: parent.brand.secondary, textColor: parent.brand.textColor },
          kit: { font: parent.brand.font },
          icon: deps.objects
            .get(app.icon?.objectKey ?? iconKey(job.appId))
            .then((found) => (found ? buffer(found.body) : null))
            .catch(() => null),
        },
        appName: app.name,
        subtitle: previewSubtitle(primary, app.category),
      }
    : null;
  for (let a = 1; a < job.attempts; a++) await deps.objects.deletePrefix(`jobs/${job.id}/a${a}`).catch(() => undefined);
  const pictureJob = {
    id: job.id,
    accountId: job.accountId,
    appId: job.appId,
    attempt: job.attempts,
    device: rev.plan.device,
    screenIds: null,
  };
  try {
    const { result, files } = await renderRevision(deps, pictureJob, parent, rev, locale, ctx, brandPictures);
    return { result, save: (tx) => saveJobFiles(tx, job.id, files) };
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    const outside = outsideFailure(error);
    if (outside) throw outside;
    log?.warn({ err: error, jobId: job.id }, 'rendering a revision failed');
    throw new RetryableJobError({ code: 'internal_error', message: 'Rendering this revision failed on our side.', retryable: true });
  }
}
