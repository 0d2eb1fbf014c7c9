/**
 * The variants' own operations, each on its request and never implied by publishing: submit a
 * published custom product page version or test for review, start an approved test, and list the
 * app's pages and tests as the store holds them, each with the shotgen set it came from. Every
 * query is scoped to the account; the store is asked with the account's own connection.
 */
import type { Db, Queryable } from '../db/pool.ts';
import { appNotFound } from '../apps/apps.ts';
import { isId } from '../core/ids.ts';
import { Problem } from '../core/problem.ts';
import { AppStoreClient } from './app-store/client.ts';
import { isRunning, readVariants, startTest, submitForReview, type ReviewTarget, type StoreTest } from './app-store/review.ts';
import { connectionNotFound, openConnection } from './connections.ts';
import { StoreError } from './errors.ts';
import { loadPublication } from './publications.ts';
import type { PublishingServices } from './services.ts';

/** A store call's failure as the problem the API answers: the store's own code and text on a refusal. */
export function storeProblem(e: unknown): unknown {
  if (!(e instanceof StoreError)) return e;
  if (e.kind === 'rejected') return new Problem('store_credentials_rejected', e.message);
  if (e.kind === 'unavailable') return new Problem('store_unavailable', e.message);
  return new Problem('store_refused', e.message, e.storeError ? { storeError: e.storeError } : {});
}

/**
 * `publishing` is asked for only here, once the publication, test or app was found: a missing one
 * is its 404 even in a process that runs no publishing (whose answer is 503).
 */
async function clientFor(
  db: Queryable,
  publishing: () => PublishingServices,
  accountId: string,
  connectionId: string | null,
): Promise<AppStoreClient> {
  const p = publishing();
  const secret = connectionId ? await openConnection(db, p.keyring, accountId, connectionId) : null;
  if (!secret || secret.store !== 'app-store') throw connectionNotFound(connectionId ?? '(deleted)');
  return new AppStoreClient(secret.creds, { baseUrl: p.appStoreConnectUrl, retry: p.retry });
}

/** Every page version and test the account's publications of this app made or used: what shotgen may send along. */
async function knownVariantIds(db: Queryable, accountId: string, storeAppId: string): Promise<Set<string>> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT DISTINCT x.id FROM publications p,
       LATERAL (VALUES (p.variant->>'pageVersionId'), (p.variant->>'experimentId')) AS x(id)
     WHERE p.account_id = $1 AND p.store = 'app-store' AND p.store_app_id = $2 AND x.id IS NOT NULL`,
    [accountId, storeAppId],
  );
  return new Set(rows.map((r) => r.id));
}

/**
 * Sends a published custom product page version or test to App Review. A second call, or a test
 * another of its treatments' publications sent already, sends nothing more.
 */
export async function submitPublication(db: Db, p: () => PublishingServices, accountId: string, id: string, now: Date): Promise<void> {
  const pub = isId('pub', id) ? await loadPublication(db, id, accountId) : null;
  if (!pub) throw new Problem('publication_not_found', `No publication ${id} on this account.`);
  if (pub.submission) return;
  if (pub.target.kind === 'product-page')
    throw new Problem(
      'publication_not_ready',
      `Publication ${id} is for the product page, which goes to App Review with its app version in App Store Connect; submit is for custom product pages and test treatments.`,
    );
  if (pub.status !== 'published' || !pub.variant)
    throw new Problem('publication_not_ready', `Publication ${id} is ${pub.status}; only a published one can be submitted for review.`);
  const target: ReviewTarget =
    pub.target.kind === 'custom-product-page'
      ? { type: 'appCustomProductPageVersions', id: pub.variant.pageVersionId! }
      : { type: 'appStoreVersionExperiments', id: pub.variant.experimentId! };
  const client = await clientFor(db, p, accountId, pub.connection_id);
  const known = await knownVariantIds(db, accountId, pub.store_app_id);
  const result = await submitForReview(client, pub.store_app_id, target, (t) => !!t.id && known.has(t.id)).catch((e: unknown) => {
    throw storeProblem(e);
  });
  await db.query(`UPDATE publications SET submission = $2, updated_at = now() WHERE id = $1 AND submission IS NULL`, [
    id,
    JSON.stringify({ reviewSubmissionId: result.reviewSubmissionId, submittedAt: now.toISOString() }),
  ]);
}

/** The shotgen set each page and treatment came from: its newest publication's job. */
async function origins(db: Queryable, accountId: string, storeAppId: string) {
  const { rows } = await db.query<{ id: string; job_id: string; variant: Record<string, string> }>(
    `SELECT id, job_id, variant FROM publications
     WHERE account_id = $1 AND store = 'app-store' AND store_app_id = $2 AND variant IS NOT NULL ORDER BY created_at DESC`,
    [accountId, storeAppId],
  );
  return (key: 'pageId' | 'treatmentId', storeId: string) => {
    const row = rows.find((r) => r.variant[key] === storeId);
    return { jobId: row?.job_id ?? null, publicationId: row?.id ?? null };
  };
}

export function testView(t: StoreTest) {
  return {
    id: t.id,
    name: t.attributes.name ?? '',
    state: t.attributes.state ?? '',
    running: isRunning(t),
    trafficProportion: t.attributes.trafficProportion ?? null,
    startDate: t.attributes.startDate ?? null,
    endDate: t.attributes.endDate ?? null,
  };
}

/** Starts an approved test that a publication of this account put a treatment in. */
export async function startExperiment(db: Db, p: () => PublishingServices, accountId: string, experimentId: string) {
  const { rows } = await db.query<{ connection_id: string | null; store_app_id: string }>(
    `SELECT connection_id, store_app_id FROM publications WHERE account_id = $1 AND variant->>'experimentId' = $2
     ORDER BY connection_id IS NULL, created_at DESC LIMIT 1`,
    [accountId, experimentId],
  );
  const notFound = new Problem('experiment_not_found', `No test ${experimentId} that a publication of this account put a treatment in.`);
  if (!rows[0]) throw notFound;
  const client = await clientFor(db, p, accountId, rows[0].connection_id);
  const test = await startTest(client, experimentId).catch((e: unknown) => {
    throw storeProblem(e);
  });
  if (!test) throw notFound;
  return testView(test);
}

/** The app's custom product pages and tests as App Store Connect holds them, with the set each came from. */
export async function listVariants(db: Db, p: () => PublishingServices, accountId: string, appId: string, connectionId?: string) {
  const { rows } = await db.query<{ ios: string | null; android: string | null }>(
    `SELECT ios_listing->>'storeId' AS ios, android_listing->>'storeId' AS android FROM apps WHERE id = $1 AND account_id = $2`,
    [appId, accountId],
  );
  const app = isId('app', appId) ? rows[0] : undefined;
  if (!app) throw appNotFound(appId);
  if (!app.ios)
    throw new Problem(
      'store_api_unsupported',
      `App ${appId} has no App Store listing. Google Play’s custom store listings and store listing experiments have no API; they are in the Play Console (Grow users → Store presence).`,
    );
  const connection = connectionId ?? (await defaultConnection(db, accountId, app.ios));
  if (!connection)
    throw new Problem('store_connection_not_found', 'No App Store connection on this account: create one with POST /store-connections.');
  const client = await clientFor(db, p, accountId, connection);
  const store = await readVariants(client, app.ios).catch((e: unknown) => {
    throw storeProblem(e);
  });
  const from = await origins(db, accountId, app.ios);
  return {
    appId,
    storeAppId: app.ios,
    connectionId: connection,
    customProductPages: store.pages.map(({ page, versions }) => {
      const newest = versions.at(-1);
      return {
        id: page.id,
        name: page.attributes.name ?? '',
        url: page.attributes.url ?? null,
        visible: page.attributes.visible ?? false,
        state: newest?.attributes.state ?? null,
        version: newest?.attributes.version ?? null,
        versions: versions.map((v) => ({ id: v.id, version: v.attributes.version ?? '', state: v.attributes.state ?? '' })),
        ...from('pageId', page.id),
      };
    }),
    experiments: store.tests.map(({ test, treatments }) => ({
      ...testView(test),
      treatments: treatments.map((t) => ({ id: t.id, name: t.attributes.name ?? '', ...from('treatmentId', t.id) })),
    })),
  };
}

/** The connection of the app's newest App Store publication, else the account's newest App Store connection. */
async function defaultConnection(db: Queryable, accountId: string, storeAppId: string): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM (
       SELECT connection_id AS id, 0 AS rank, created_at FROM publications
        WHERE account_id = $1 AND store = 'app-store' AND store_app_id = $2 AND connection_id IS NOT NULL
       UNION ALL
       SELECT id, 1, created_at FROM store_connections WHERE account_id = $1 AND store = 'app-store'
     ) c ORDER BY rank, created_at DESC LIMIT 1`,
    [accountId, storeAppId],
  );
  return rows[0]?.id ?? null;
}
