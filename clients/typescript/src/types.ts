/** Names for the generated shapes a caller handles most. */
import type { components, operations } from './schema.js';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;

export type App = Json<operations['createApp']['responses'][200]>;
export type CreateAppRequest = NonNullable<operations['createApp']['requestBody']>['content']['application/json'];
export type UpdateAppRequest = NonNullable<operations['updateApp']['requestBody']>['content']['application/json'];
export type CreateScreenshotSetRequest = NonNullable<operations['createScreenshotSet']['requestBody']>['content']['application/json'];
export type ScreenshotSetAccepted = Json<operations['createScreenshotSet']['responses'][201]>;
export type ScreenshotSetEstimate = Json<operations['estimateScreenshotSet']['responses'][200]>;
export type Job = Json<operations['getJob']['responses'][200]>;
export type JobStatus = Job['status'];
export type NarrativeCatalogue = Json<operations['listNarratives']['responses'][200]>;
export type Account = Json<operations['getAccount']['responses'][200]>;
export type Screen = Json<operations['uploadScreen']['responses'][201]>;
export type ScreenFamily = Screen['family'];
export type ScreenList = Json<operations['listScreens']['responses'][200]>;
export type CreateWebhookRequest = NonNullable<operations['createWebhook']['requestBody']>['content']['application/json'];
export type WebhookCreated = Json<operations['createWebhook']['responses'][201]>;
export type WebhookList = Json<operations['listWebhooks']['responses'][200]>;
export type CreateRevisionRequest = NonNullable<operations['createRevision']['requestBody']>['content']['application/json'];
export type RevisionAccepted = Json<operations['createRevision']['responses'][201]>;
export type CreatePreviewRequest = NonNullable<operations['createPreview']['requestBody']>['content']['application/json'];
export type CreateStoreConnectionRequest = NonNullable<operations['createStoreConnection']['requestBody']>['content']['application/json'];
export type StoreConnection = Json<operations['createStoreConnection']['responses'][201]>;
export type StoreConnectionList = Json<operations['listStoreConnections']['responses'][200]>;
export type CreatePublicationRequest = NonNullable<operations['createPublication']['requestBody']>['content']['application/json'];
export type Publication = Json<operations['getPublication']['responses'][200]>;
/** Where a set goes: the product page, a custom product page, or a test treatment (App Store). */
export type PublicationTarget = NonNullable<CreatePublicationRequest['target']>;
export type AppVariants = Json<operations['listVariants']['responses'][200]>;
export type Experiment = Json<operations['startExperiment']['responses'][200]>;
export type Problem = components['schemas']['Problem'];
export type ProblemCode = Problem['code'];

export const isFinished = (job: Pick<Job, 'status'>): boolean => job.status === 'succeeded' || job.status === 'failed';
