/** POST /publications: checks that make a publication possible at all, before anything is queued. */
import type { Db } from '../db/pool.ts';
import { isId } from '../core/ids.ts';
import { Problem, validationFailed } from '../core/problem.ts';
import { DEVICES, type Device } from '../core/devices.ts';
import { connectionNotFound, getConnection } from './connections.ts';
import { insertPublication } from './publications.ts';

export interface CreatePublicationInput {
  jobId: string;
  connectionId: string;
  locales?: Record<string, string>;
}

export async function createPublication(db: Db, accountId: string, input: CreatePublicationInput): Promise<string> {
  const connection = isId('sc', input.connectionId) ? await getConnection(db, accountId, input.connectionId) : null;
  if (!connection) throw connectionNotFound(input.connectionId);
  const { rows } = await db.query<{
    status: string;
    device: Device;
    app_id: string;
    ios: string | null;
    android: string | null;
    locales: string[] | null;
  }>(
    `SELECT j.status, j.request->>'device' AS device, j.app_id, a.ios_listing->>'storeId' AS ios, a.android_listing->>'storeId' AS android,
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
  return insertPublication(db, {
    accountId,
    jobId: input.jobId,
    connectionId: connection.id,
    store,
    storeAppId,
    locales: input.locales ?? {},
  });
}
