/** createShotgenClient: one method per API operation over openapi-fetch, plus waitForJob and downloadSet. */
import createClient, { type Client } from 'openapi-fetch';
import { downloadSet, type DownloadedSet, type DownloadOptions } from './download.ts';
import { ShotgenError } from './errors.ts';
import { retryingFetch, type RetryOptions } from './retry.ts';
import type { paths } from './schema.js';
import type {
  Account,
  App,
  CreateAppRequest,
  UpdateAppRequest,
  CreatePreviewRequest,
  CreateRevisionRequest,
  CreateScreenshotSetRequest,
  CreateWebhookRequest,
  Job,
  NarrativeCatalogue,
  RevisionAccepted,
  Screen,
  ScreenFamily,
  ScreenList,
  ScreenshotSetAccepted,
  ScreenshotSetEstimate,
  WebhookCreated,
  WebhookList,
  CreateStoreConnectionRequest,
  StoreConnection,
  StoreConnectionList,
  CreatePublicationRequest,
  Publication,
  AppVariants,
  Experiment,
} from './types.ts';
import { waitForJob, type WaitOptions } from './wait.ts';

export interface ShotgenClientOptions {
  /** The API's base URL, mount path included: `https://shotgen.example/api/v1`. */
  baseUrl: string;
  /** `sk_live_…`, sent as `Authorization: Bearer`. */
  apiKey: string;
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Retries of 429/502/503 answers honouring Retry-After (see RetryOptions); `false` turns them off. */
  retry?: RetryOptions | false;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export interface ShotgenClient {
  /** The openapi-fetch client underneath (authenticated, retrying), typed by the generated paths. */
  readonly http: Client<paths>;
  readonly baseUrl: string;
  /** From store URLs, or from `listing` (an app not in a store yet; its `artworkUrl` is null until uploadAppIcon). */
  createApp(body: CreateAppRequest, opts?: CallOptions): Promise<App>;
  /** Adds (or reads again) the app's store listing(s) from their URLs; its own listing text stays where the store has none. */
  updateApp(appId: string, body: UpdateAppRequest, opts?: CallOptions): Promise<App>;
  /** The app's icon: PNG or JPEG bytes, square, at least 512 px; it outranks the store's. */
  uploadAppIcon(appId: string, image: Uint8Array | Blob, opts: CallOptions & { contentType: 'image/png' | 'image/jpeg' }): Promise<App>;
  /** Costs credits: pass an `idempotencyKey` so that a retry (yours or the client's) is never charged twice. */
  createScreenshotSet(
    body: CreateScreenshotSetRequest,
    opts?: CallOptions & { idempotencyKey?: string },
  ): Promise<ScreenshotSetAccepted & { replayed: boolean }>;
  /** Free: every check a create makes, with the number of slides, the price, the balance and the warnings known before the charge. */
  estimateScreenshotSet(body: CreateScreenshotSetRequest, opts?: CallOptions): Promise<ScreenshotSetEstimate>;
  /** Edits a succeeded set as a new job (free): only the slides that change are rendered again. Wait for it with waitForJob. */
  createRevision(jobId: string, body: CreateRevisionRequest, opts?: CallOptions): Promise<RevisionAccepted>;
  /** One slide with unsaved changes as a small PNG, not stored (free, rate-limited); `fits` is false when a caption cannot fit. */
  preview(body: CreatePreviewRequest, opts?: CallOptions): Promise<{ png: Uint8Array; fits: boolean }>;
  /** `wait`: seconds (1..30) the server may hold the answer until the job finishes (`Prefer: wait`). */
  getJob(jobId: string, opts?: CallOptions & { wait?: number }): Promise<Job>;
  /** One of the app's own screens, PNG or JPEG bytes; `family` is inferred from the aspect ratio when absent. */
  uploadScreen(
    appId: string,
    image: Uint8Array | Blob,
    opts: CallOptions & { contentType: 'image/png' | 'image/jpeg'; family?: ScreenFamily },
  ): Promise<Screen>;
  listScreens(appId: string, opts?: CallOptions): Promise<ScreenList>;
  deleteScreen(appId: string, screenId: string, opts?: CallOptions): Promise<void>;
  /** A slide's PNG (`file`: `{index}.png`) or the set's ZIP, as the raw response to stream; downloadSet writes and verifies them all. With `locales`, these are the first locale's slides. */
  getSlideImage(jobId: string, file: string, opts?: CallOptions): Promise<Response>;
  /** A slide's PNG (`file`: `{index}.png`) of a locale after the first, for a set created with `locales` (the first locale's are getSlideImage's). */
  getLocaleSlideImage(jobId: string, locale: string, file: string, opts?: CallOptions): Promise<Response>;
  getSetArchive(jobId: string, opts?: CallOptions): Promise<Response>;
  listNarratives(opts?: CallOptions): Promise<NarrativeCatalogue>;
  getAccount(opts?: CallOptions): Promise<Account>;
  /** The answer holds the signing secret, shown only this once. */
  createWebhook(body: CreateWebhookRequest, opts?: CallOptions): Promise<WebhookCreated>;
  listWebhooks(opts?: CallOptions): Promise<WebhookList>;
  deleteWebhook(webhookId: string, opts?: CallOptions): Promise<void>;
  /** Publishing: store credentials (never shown again) and publications (plan, approve). */
  createStoreConnection(body: CreateStoreConnectionRequest, opts?: CallOptions): Promise<StoreConnection>;
  listStoreConnections(opts?: CallOptions): Promise<StoreConnectionList>;
  deleteStoreConnection(connectionId: string, opts?: CallOptions): Promise<void>;
  createPublication(body: CreatePublicationRequest, opts?: CallOptions): Promise<Publication>;
  getPublication(publicationId: string, opts?: CallOptions): Promise<Publication>;
  approvePublication(publicationId: string, opts?: CallOptions): Promise<Publication>;
  /** Sends a published custom product page or test to App Review; a second call sends nothing more. */
  submitPublication(publicationId: string, opts?: CallOptions): Promise<Publication>;
  /** Starts an approved product page optimization test (customer-facing). */
  startExperiment(experimentId: string, opts?: CallOptions): Promise<Experiment>;
  /** The app's custom product pages and tests as App Store Connect holds them, with the set each came from. */
  listVariants(appId: string, opts?: CallOptions & { connectionId?: string }): Promise<AppVariants>;
  /** Until the job is `succeeded` or `failed` (returned, not thrown); ShotgenTimeoutError after `timeoutMs`. */
  waitForJob(jobId: string, opts?: WaitOptions): Promise<Job>;
  /** Writes a succeeded job's slide PNGs and ZIP into `dir`, each checked against the result's sha256. */
  downloadSet(job: string | Job, dir: string, opts?: DownloadOptions): Promise<DownloadedSet>;
}

/** The job and the headers that say how to poll it next. */
export interface JobAnswer {
  job: Job;
  response: Response;
}

/** openapi-fetch's answer, or the problem thrown as a ShotgenError. */
export function unwrap<T>(answer: { data?: T; error?: unknown; response: Response }): T {
  if (!answer.response.ok) throw ShotgenError.from(answer.response, answer.error);
  return answer.data as T;
}

export function createShotgenClient(options: ShotgenClientOptions): ShotgenClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const baseFetch = options.fetch ?? globalThis.fetch;
  const fetchOnce = (request: Request) => baseFetch(request);
  const send = options.retry === false ? fetchOnce : retryingFetch(baseFetch, options.retry);
  const auth = { authorization: `Bearer ${options.apiKey}` };
  const http = createClient<paths>({ baseUrl, fetch: send, headers: auth });

  const getJobAnswer = async (jobId: string, opts: CallOptions & { wait?: number } = {}): Promise<JobAnswer> => {
    const answer = await http.GET('/public/v1/jobs/{id}', {
      params: { path: { id: jobId } },
      headers: opts.wait ? { prefer: `wait=${Math.round(opts.wait)}` } : {},
      signal: opts.signal,
    });
    return { job: unwrap(answer), response: answer.response };
  };

  const client: ShotgenClient = {
    http,
    baseUrl,
    async createApp(body, opts = {}) {
      return unwrap(await http.POST('/public/v1/apps', { body, signal: opts.signal }));
    },
    async updateApp(appId, body, opts = {}) {
      return unwrap(await http.PATCH('/public/v1/apps/{appId}', { params: { path: { appId } }, body, signal: opts.signal }));
    },
    async uploadAppIcon(appId, image, opts) {
      const answer = await http.PUT('/public/v1/apps/{appId}/icon', {
        params: { path: { appId } },
        // The body is the image itself, not JSON.
        body: image as unknown as string,
        bodySerializer: (body: unknown) => body as BodyInit,
        headers: { 'content-type': opts.contentType },
        signal: opts.signal,
      });
      return unwrap(answer);
    },
    async createScreenshotSet(body, opts = {}) {
      const answer = await http.POST('/public/v1/screenshots', {
        body,
        params: { header: opts.idempotencyKey ? { 'idempotency-key': opts.idempotencyKey } : {} },
        signal: opts.signal,
      });
      return { ...unwrap(answer), replayed: answer.response.headers.get('idempotent-replayed') === 'true' };
    },
    async estimateScreenshotSet(body, opts = {}) {
      return unwrap(await http.POST('/public/v1/screenshots/estimate', { body, signal: opts.signal }));
    },
    async createRevision(jobId, body, opts = {}) {
      return unwrap(await http.POST('/public/v1/jobs/{id}/revisions', { params: { path: { id: jobId } }, body, signal: opts.signal }));
    },
    async preview(body, opts = {}) {
      const answer = await http.POST('/public/v1/previews', { body, parseAs: 'arrayBuffer', signal: opts.signal });
      const bytes = unwrap(answer) as unknown as ArrayBuffer;
      return { png: new Uint8Array(bytes), fits: answer.response.headers.get('caption-fits') !== 'false' };
    },
    async getJob(jobId, opts) {
      return (await getJobAnswer(jobId, opts)).job;
    },
    async uploadScreen(appId, image, opts) {
      const answer = await http.POST('/public/v1/apps/{appId}/screens', {
        params: { path: { appId }, query: opts.family ? { family: opts.family } : {} },
        // The body is the image itself, not JSON.
        body: image as unknown as string,
        bodySerializer: (body: unknown) => body as BodyInit,
        headers: { 'content-type': opts.contentType },
        signal: opts.signal,
      });
      return unwrap(answer);
    },
    async listScreens(appId, opts = {}) {
      return unwrap(await http.GET('/public/v1/apps/{appId}/screens', { params: { path: { appId } }, signal: opts.signal }));
    },
    async deleteScreen(appId, screenId, opts = {}) {
      unwrap(
        await http.DELETE('/public/v1/apps/{appId}/screens/{screenId}', { params: { path: { appId, screenId } }, signal: opts.signal }),
      );
    },
    async getSlideImage(jobId, file, opts = {}) {
      const answer = await http.GET('/public/v1/jobs/{id}/slides/{file}', {
        params: { path: { id: jobId, file } },
        parseAs: 'stream',
        signal: opts.signal,
      });
      unwrap(answer);
      return answer.response;
    },
    async getLocaleSlideImage(jobId, locale, file, opts = {}) {
      const answer = await http.GET('/public/v1/jobs/{id}/locales/{locale}/slides/{file}', {
        params: { path: { id: jobId, locale, file } },
        parseAs: 'stream',
        signal: opts.signal,
      });
      unwrap(answer);
      return answer.response;
    },
    async getSetArchive(jobId, opts = {}) {
      const answer = await http.GET('/public/v1/jobs/{id}/archive.zip', {
        params: { path: { id: jobId } },
        parseAs: 'stream',
        signal: opts.signal,
      });
      unwrap(answer);
      return answer.response;
    },
    async listNarratives(opts = {}) {
      return unwrap(await http.GET('/public/v1/narratives', { signal: opts.signal }));
    },
    async getAccount(opts = {}) {
      return unwrap(await http.GET('/public/v1/account', { signal: opts.signal }));
    },
    async createWebhook(body, opts = {}) {
      return unwrap(await http.POST('/public/v1/webhooks', { body, signal: opts.signal }));
    },
    async listWebhooks(opts = {}) {
      return unwrap(await http.GET('/public/v1/webhooks', { signal: opts.signal }));
    },
    async deleteWebhook(webhookId, opts = {}) {
      unwrap(await http.DELETE('/public/v1/webhooks/{id}', { params: { path: { id: webhookId } }, signal: opts.signal }));
    },
    async createStoreConnection(body, opts = {}) {
      return unwrap(await http.POST('/public/v1/store-connections', { body, signal: opts.signal }));
    },
    async listStoreConnections(opts = {}) {
      return unwrap(await http.GET('/public/v1/store-connections', { signal: opts.signal }));
    },
    async deleteStoreConnection(connectionId, opts = {}) {
      unwrap(await http.DELETE('/public/v1/store-connections/{id}', { params: { path: { id: connectionId } }, signal: opts.signal }));
    },
    async createPublication(body, opts = {}) {
      return unwrap(await http.POST('/public/v1/publications', { body, signal: opts.signal }));
    },
    async getPublication(publicationId, opts = {}) {
      return unwrap(await http.GET('/public/v1/publications/{id}', { params: { path: { id: publicationId } }, signal: opts.signal }));
    },
    async approvePublication(publicationId, opts = {}) {
      return unwrap(
        await http.POST('/public/v1/publications/{id}/approve', { params: { path: { id: publicationId } }, signal: opts.signal }),
      );
    },
    async submitPublication(publicationId, opts = {}) {
      return unwrap(
        await http.POST('/public/v1/publications/{id}/submit', { params: { path: { id: publicationId } }, signal: opts.signal }),
      );
    },
    async startExperiment(experimentId, opts = {}) {
      return unwrap(await http.POST('/public/v1/experiments/{id}/start', { params: { path: { id: experimentId } }, signal: opts.signal }));
    },
    async listVariants(appId, opts = {}) {
      const query = opts.connectionId ? { connectionId: opts.connectionId } : {};
      return unwrap(await http.GET('/public/v1/apps/{appId}/variants', { params: { path: { appId }, query }, signal: opts.signal }));
    },
    waitForJob: (jobId, opts) => waitForJob(getJobAnswer, jobId, opts),
    downloadSet: async (job, dir, opts = {}) => {
      const finished = typeof job === 'string' ? await client.getJob(job, { signal: opts.signal }) : job;
      // The key goes only where it came from: a signed URL on another host needs none.
      const fetchFile = (url: string, signal?: AbortSignal) =>
        send(new Request(url, { headers: new URL(url).origin === new URL(baseUrl).origin ? auth : {}, signal }));
      return downloadSet(fetchFile, baseUrl, finished, dir, opts);
    },
  };
  return client;
}
