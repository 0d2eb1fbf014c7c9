/** @shotgen/client: a typed client for the shotgen API. */
export { createShotgenClient, type CallOptions, type ShotgenClient, type ShotgenClientOptions } from './client.ts';
export type { DownloadedFile, DownloadedSet, DownloadOptions } from './download.ts';
export { retryAfterSeconds, ShotgenError, ShotgenIntegrityError, ShotgenTimeoutError } from './errors.ts';
export type { RetryOptions } from './retry.ts';
export { slidesByLocale, type JobResult, type LocaleSlides, type Slide } from './slides.ts';
export type { components, operations, paths } from './schema.js';
export {
  isFinished,
  type Account,
  type App,
  type CreateAppRequest,
  type UpdateAppRequest,
  type CreateScreenshotSetRequest,
  type CreateRevisionRequest,
  type CreatePreviewRequest,
  type RevisionAccepted,
  type Job,
  type JobStatus,
  type NarrativeCatalogue,
  type Problem,
  type ProblemCode,
  type Screen,
  type ScreenFamily,
  type ScreenList,
  type ScreenshotSetAccepted,
  type ScreenshotSetEstimate,
  type CreateWebhookRequest,
  type WebhookCreated,
  type WebhookList,
  type CreateStoreConnectionRequest,
  type StoreConnection,
  type StoreConnectionList,
  type CreatePublicationRequest,
  type Publication,
  type PublicationTarget,
  type AppVariants,
  type Experiment,
} from './types.ts';
export type { WaitOptions } from './wait.ts';
