/** POST /publications: checks that make a publication possible at all, before anything is queued. */
import type { Db } from '../db/pool.ts';
import { isId } from '../core/ids.ts';
import { Problem, validationFailed } from '../core/problem.ts';
import { DEVICES, type Device } from '../core/devices.ts';
import { connectionNotFound, getConnection } from './connections.ts';
import { insertPublication } from './publications.ts';
import type { VariantTarget } from './app-store/variants.ts';
import { variantArchiveUrl, type PictureLinks } from '../sets/present.ts';
import { variantName } from '../sets/variant-archive.ts';

export interface CreatePublicationInput {
  jobId: string;
  connectionId: string;
  locales?: Record<string, string>;
  target?: VariantTarget;
}

/** What the Play Console needs instead, since the Android Publisher API has no variants. */
const PLAY_VARIANTS =
  'Google Play’s API (Android Publisher v3) edits the main store listing only: custom store listings and store listing experiments have no API. ' +
  'Create them in the Play Console (Grow users → Store presence → Custom store listings, or Store listing experiments) and upload the set’s screenshots there by hand: ' +
  'they are in the set’s ZIP for this variant (variantArchive.url) under android/variants/{name}/{locale}/images/, with each locale’s featureGraphic.png. Publish with target product-page to update the main listing.';

/** The Play variant a target names, as a ZIP folder: the listing's name, or the test's and the treatment's. */
function playVariant(target: VariantTarget): string {
  if (target.kind === 'custom-product-page') return variantName(target.name);
  if (target.kind === 'experiment-treatment') return variantName(`${target.experiment.name}-${target.treatment}`);
  return variantName(target.kind);
}

export async function createPublication(
  db: Db,
  accountId: string,
  input: CreatePublicationInput,
  /** The links the 422 for a Play variant names its ZIP with (signed, like the set's archive URL). */
  links?: PictureLinks,
): Promise<string> {
  const connection = isId('sc', input.connectionId) ? await getConnection(db, accountId, input.connectionId) : null;
  if (!connection) throw connectionNotFound(input.connectionId);
  const { rows } = await db.query<{
    status: string;
    device: Device;
    app_id: string;
    ios: string | null;
    android: string | null;
    locales: string[] | null;
    language: string | null;
  }>(
    `SELECT j.status, j.request->>'device' AS device, j.app_id, a.ios_listing->>'storeId' AS ios, a.android_listing->>'storeId' AS android,
       CASE WHEN j.request->>'device' LIKE 'android%' THEN a.android_listing->>'language' ELSE a.ios_listing->>'language' END AS language,
       ARRAY(SELECT jsonb_array_elements_text(COALESCE(j.request->'locales', '[]'::jsonb))) AS locales
     FROM jobs j JOIN apps a ON a.id = j.app_id WHERE j.id = $1 AND j.account_id = $2`,
    [input.jobId, accountId],
  );
  const job = isId('job', input.jobId) ? rows[0] : undefined;
  if (!job) throw new Problem('job_not_found', `No job ${input.jobId} on this account.`);
  if (job.status !== 'succeeded')
    throw new Problem('publication_not_ready', `Job ${input.jobId} is ${job.status}; only a succeeded set can be published.`);
  const store = DEVICES[job.device]?.store;
  if (store !== connection.store)
    throw validationFailed([
      { field: 'connectionId', message: `is a ${connection.store} connection, and this set (${job.device}) is for ${store}` },
    ]);
  const target = input.target ?? { kind: 'product-page' };
  if (store === 'google-play' && target.kind !== 'product-page') {
    const name = playVariant(target);
    throw new Problem('store_api_unsupported', `A ${target.kind} target cannot be published to Google Play. ${PLAY_VARIANTS}`, {
      errors: [{ field: 'target/kind', message: `${target.kind} is App Store only` }],
      variantArchive: { name, ...(links ? { url: variantArchiveUrl(links, input.jobId, name) } : {}) },
    });
  }
  // Variants are made from the iOS version (pages, tests and their review submissions): a Mac set
  // goes to its macOS version's product page only, rather than into an iOS page it does not fit.
  if (DEVICES[job.device]?.family === 'mac' && target.kind !== 'product-page')
    throw validationFailed([
      {
        field: 'target/kind',
        message: `a Mac set is published to the app's macOS product page (target product-page); shotgen makes ${target.kind}s from iPhone and iPad sets`,
      },
    ]);
  const storeAppId = store === 'app-store' ? job.ios : job.android;
  // An app made from its own listing before launch has no store page yet: say how it gets one.
  if (!storeAppId) {
    const [label, field] = store === 'app-store' ? ['App Store', 'iosUrl'] : ['Google Play', 'androidUrl'];
    throw validationFailed([
      {
        field: 'jobId',
        message: `the job's app ${job.app_id} has no ${label} listing to publish to: once the app is in ${label}, add its URL (PATCH /public/v1/apps/${job.app_id} with ${field}), then publish this set`,
      },
    ]);
  }
  const setLocales = job.locales?.length ? job.locales : null;
  for (const l of Object.keys(input.locales ?? {}))
    if (setLocales ? !setLocales.includes(l) : Object.keys(input.locales ?? {}).length > 1)
      throw validationFailed([{ field: `locales/${l}`, message: `the set has no locale ${l}` }]);
  // A set without locales is in its listing's language (job-images.ts).
  checkTextLocales(target, [...(setLocales ?? [job.language ?? 'en']), ...Object.values(input.locales ?? {})]);
  return insertPublication(db, {
    accountId,
    jobId: input.jobId,
    connectionId: connection.id,
    store,
    storeAppId,
    locales: input.locales ?? {},
    target,
  });
}

/**
 * A custom product page's texts are given per locale: each must be a locale the set can go to (a
 * set locale, a store locale named in `locales`, or one of their languages), or it would never be
 * written. An unmatched one is refused now rather than silently dropped.
 */
function checkTextLocales(target: VariantTarget, known: string[]): void {
  if (target.kind !== 'custom-product-page' || !known.length) return;
  const lang = (l: string) => l.split(/[-_]/)[0].toLowerCase();
  const errors = (['promotionalText', 'keywords'] as const).flatMap((field) =>
    Object.keys(target[field] ?? {})
      .filter((l) => !known.some((k) => lang(k) === lang(l)))
      .map((l) => ({ field: `target/${field}/${l}`, message: `the set has no locale of this language (it has ${known.join(', ')})` })),
  );
  if (errors.length) throw validationFailed(errors);
}
