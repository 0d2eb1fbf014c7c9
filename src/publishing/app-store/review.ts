/**
 * App Store Connect beyond publishing a variant's screenshots, each on its own request: sending a
 * custom product page version or a test to App Review (a review submission, an item in it, then
 * `submitted: true`), starting an approved test, and reading the app's pages and tests.
 *
 * Every write is looked for before it is made (findOrCreate) or checked after a lost answer, so a
 * retried submit adds nothing twice and a second submit sends nothing more.
 */
import { StoreError } from '../errors.ts';
import { noRetry } from '../../core/retry.ts';
import { retryStoreCall } from '../retry.ts';
import type { AppStoreClient, JsonApiResource } from './client.ts';
import { findOrCreate } from './surfaces.ts';
import { VARIANT_EDITABLE } from './variants.ts';

/** What a review submission item sends: a page version, or a test (v2). */
export type ReviewTarget = { type: 'appCustomProductPageVersions'; id: string } | { type: 'appStoreVersionExperiments'; id: string };
const ITEM_RELATIONSHIP = {
  appCustomProductPageVersions: 'appCustomProductPageVersion',
  appStoreVersionExperiments: 'appStoreVersionExperimentV2',
};
const TARGET_PATH = {
  appCustomProductPageVersions: '/v1/appCustomProductPageVersions',
  appStoreVersionExperiments: '/v2/appStoreVersionExperiments',
};

type Submission = JsonApiResource<{ state?: string; platform?: string; submittedDate?: string | null }>;
type Item = JsonApiResource<{ state?: string }> & { relationships?: Record<string, { data?: { type?: string; id?: string } | null }> };

const itemTarget = (i: Item) =>
  Object.values(ITEM_RELATIONSHIP)
    .map((r) => i.relationships?.[r]?.data)
    .find((d) => d?.id);

export interface SubmitResult {
  reviewSubmissionId: string | null;
  /** False when the target was in a submitted submission already: nothing more was sent. */
  submittedNow: boolean;
}

async function list<T>(client: AppStoreClient, path: string): Promise<T[]> {
  return (await client.call<{ data: T[] }>('GET', path))?.data ?? [];
}

/**
 * Sends `target` to App Review. Already submitted (in review, approved, or in a submission someone
 * sent): nothing is sent, and the submission it is in is answered. An open submission that holds
 * items `ours` does not know is refused rather than sent along with them.
 */
export async function submitForReview(
  client: AppStoreClient,
  appId: string,
  target: ReviewTarget,
  ours: (item: { type?: string; id?: string }) => boolean,
): Promise<SubmitResult> {
  const submissions = (states?: string) =>
    list<Submission>(
      client,
      `/v1/reviewSubmissions?filter[app]=${encodeURIComponent(appId)}&filter[platform]=IOS${states ? `&filter[state]=${states}` : ''}&limit=200`,
    );
  const items = (s: Submission) => list<Item>(client, `/v1/reviewSubmissions/${s.id}/items?limit=200`);
  const holding = async (candidates: Submission[]) => {
    for (const s of candidates) if ((await items(s)).some((i) => itemTarget(i)?.id === target.id)) return s;
    return null;
  };
  const current = await client.call<{ data: JsonApiResource<{ state?: string }> }>(
    'GET',
    `${TARGET_PATH[target.type]}/${target.id}`,
    undefined,
    true,
  );
  if (!current) throw new StoreError('refused', `App Store Connect has no ${target.type} ${target.id} any more`);
  const state = current.data.attributes.state ?? '';
  if (!VARIANT_EDITABLE.includes(state)) {
    // Sent already (by another publication of the same test, or by hand): nothing more to send.
    const s = await holding(await submissions());
    return { reviewSubmissionId: s?.id ?? null, submittedNow: false };
  }
  const open = async () => (await submissions('READY_FOR_REVIEW'))[0] ?? null;
  const submission = await findOrCreate(client, open, async () => {
    const made = await client.call<{ data: Submission }>(
      'POST',
      '/v1/reviewSubmissions',
      {
        data: { type: 'reviewSubmissions', attributes: { platform: 'IOS' }, relationships: { app: { data: { type: 'apps', id: appId } } } },
      },
      false,
      true,
    );
    return made!.data;
  });
  const others = (await items(submission)).map(itemTarget).filter((t) => t?.id !== target.id && !ours(t ?? {}));
  if (others.length)
    throw new StoreError(
      'refused',
      `App Store Connect has a review submission in preparation for app ${appId} (${submission.id}) holding ${others.length} item(s) shotgen did not put there (${others.map((t) => `${t?.type} ${t?.id}`).join(', ')}); shotgen sends only its own page versions and tests. Submit or empty it in App Store Connect first.`,
    );
  const relationship = ITEM_RELATIONSHIP[target.type];
  await findOrCreate(
    client,
    async () => (await items(submission)).find((i) => itemTarget(i)?.id === target.id) ?? null,
    async () =>
      (await client.call<{ data: Item }>(
        'POST',
        '/v1/reviewSubmissionItems',
        {
          data: {
            type: 'reviewSubmissionItems',
            relationships: {
              reviewSubmission: { data: { type: 'reviewSubmissions', id: submission.id } },
              [relationship]: { data: { type: target.type, id: target.id } },
            },
          },
        },
        false,
        true,
      ))!.data,
  );
  // Submitting is not repeated blindly either: a lost answer, or another request that sent it
  // first, shows in the submission's state, which each retry reads first.
  const sent = async () => {
    const now = await client.call<{ data: Submission }>('GET', `/v1/reviewSubmissions/${submission.id}`, undefined, true);
    return !!now && now.data.attributes.state !== 'READY_FOR_REVIEW';
  };
  await retryStoreCall(client.retry, async (n) => {
    if (n > 1 && (await noRetry(sent()))) return;
    try {
      await client.call(
        'PATCH',
        `/v1/reviewSubmissions/${submission.id}`,
        { data: { type: 'reviewSubmissions', id: submission.id, attributes: { submitted: true } } },
        false,
        true,
      );
    } catch (e) {
      if (!(e instanceof StoreError && e.status === 409 && (await noRetry(sent())))) throw e;
    }
  });
  return { reviewSubmissionId: submission.id, submittedNow: true };
}

export type StoreTest = JsonApiResource<{
  name?: string;
  state?: string;
  trafficProportion?: number;
  startDate?: string | null;
  endDate?: string | null;
}>;

export const isRunning = (t: StoreTest) => !!t.attributes.startDate && !t.attributes.endDate;

/** Starts an approved test; a running one is left as it is. Null: no such test. */
export async function startTest(client: AppStoreClient, experimentId: string): Promise<StoreTest | null> {
  const path = `/v2/appStoreVersionExperiments/${encodeURIComponent(experimentId)}`;
  const test = (await client.call<{ data: StoreTest }>('GET', path, undefined, true))?.data ?? null;
  if (!test || isRunning(test)) return test;
  // Starting twice is harmless (a running test stays running), so a lost answer may be retried.
  const started = await client.call<{ data: StoreTest }>('PATCH', path, {
    data: { type: 'appStoreVersionExperiments', id: test.id, attributes: { started: true } },
  });
  return started!.data;
}

export interface StoreVariants {
  pages: {
    page: JsonApiResource<{ name?: string; url?: string; visible?: boolean }>;
    versions: JsonApiResource<{ version?: string; state?: string }>[];
  }[];
  tests: { test: StoreTest; treatments: JsonApiResource<{ name?: string }>[] }[];
}

/** The app's custom product pages with their versions, and its tests with their treatments, as the store holds them. */
export async function readVariants(client: AppStoreClient, appId: string): Promise<StoreVariants> {
  const app = encodeURIComponent(appId);
  const pages: StoreVariants['pages'] = [];
  for (const page of await list<StoreVariants['pages'][number]['page']>(client, `/v1/apps/${app}/appCustomProductPages?limit=200`))
    pages.push({ page, versions: await list(client, `/v1/appCustomProductPages/${page.id}/appCustomProductPageVersions?limit=50`) });
  const tests: StoreVariants['tests'] = [];
  for (const test of await list<StoreTest>(client, `/v1/apps/${app}/appStoreVersionExperimentsV2?limit=200`))
    tests.push({
      test,
      treatments: await list(client, `/v2/appStoreVersionExperiments/${test.id}/appStoreVersionExperimentTreatments?limit=50`),
    });
  return { pages, tests };
}
