/** Store connections and publications as TypeBox: what the API validates, answers and documents. */
import { Type } from '@sinclair/typebox';
import { Nullable, StringEnum } from '../core/typebox.ts';

export const StoreSchema = StringEnum(['app-store', 'google-play'] as const, { description: 'app-store or google-play.' });

export const AppStoreUploadSchema = StringEnum(['screenshot-sets', 'asset-library'] as const, {
  description:
    'How publications on this connection put screenshots on the App Store. `screenshot-sets` (the default): appScreenshotSets and appScreenshots per localization and display type, as fastlane does. `asset-library`: App Store Connect API 4.5’s App Asset Library: each distinct picture uploaded once into the app’s library, then placed on each localization in the placement group whose reference data takes its size.',
});

export const CreateStoreConnectionBody = Type.Union(
  [
    Type.Object(
      {
        store: Type.Literal('app-store'),
        issuerId: Type.String({
          minLength: 1,
          maxLength: 100,
          description: 'The API key’s issuer id (App Store Connect → Users and Access → Integrations).',
        }),
        keyId: Type.String({ minLength: 1, maxLength: 100, description: 'The API key’s id.', examples: ['2X9R4HXF34'] }),
        privateKey: Type.String({
          minLength: 1,
          maxLength: 10_000,
          description: 'The .p8 file’s PEM text. Stored encrypted; never shown again.',
        }),
        appStoreUpload: Type.Optional(AppStoreUploadSchema),
      },
      { additionalProperties: false, title: 'AppStoreConnectionRequest' },
    ),
    Type.Object(
      {
        store: Type.Literal('google-play'),
        serviceAccount: Type.Object(
          {},
          { additionalProperties: true, description: 'The service account’s JSON key file, whole. Stored encrypted; never shown again.' },
        ),
      },
      { additionalProperties: false, title: 'GooglePlayConnectionRequest' },
    ),
  ],
  { title: 'CreateStoreConnectionRequest' },
);

export const StoreConnectionSchema = Type.Object(
  {
    id: Type.String({ description: 'sc_ plus a sortable, unguessable id.', examples: ['sc_01JD2ZK5T8Q3W4E5R6T7Y8U9WH'] }),
    store: StoreSchema,
    issuerId: Nullable(Type.String(), { description: 'App Store: the key’s issuer.' }),
    keyId: Nullable(Type.String(), { description: 'App Store: the key’s id.' }),
    clientEmail: Nullable(Type.String(), { description: 'Google Play: the service account.' }),
    // null is in the enum too, or a Play connection's null would not validate against the schema.
    appStoreUpload: Type.Unsafe<'screenshot-sets' | 'asset-library' | null>({
      type: ['string', 'null'],
      enum: ['screenshot-sets', 'asset-library', null],
      description: `App Store: how screenshots are put on the store (${AppStoreUploadSchema.description}). null on Google Play.`,
    }),
    createdAt: Type.String({ format: 'date-time' }),
    lastUsedAt: Nullable(Type.String({ format: 'date-time' })),
  },
  { title: 'StoreConnection', description: 'A store connection; its secret is never shown.' },
);

const PlanItemSchema = Type.Object(
  {
    locale: Type.String({ description: 'The store’s locale (App Store) or language (Play).' }),
    slot: Type.String({
      description: 'App Store screenshotDisplayType or Play image type.',
      examples: ['APP_IPHONE_67', 'phoneScreenshots'],
    }),
    action: StringEnum(['keep', 'upload', 'reorder', 'delete'] as const),
    position: Nullable(Type.Integer(), { description: '1-based place in the slot afterwards; null for a delete.' }),
    file: Nullable(Type.String(), { description: 'The job’s file, e.g. slides/1.png.' }),
    remoteId: Nullable(Type.String(), { description: 'The store’s id of the image, once there is one.' }),
    state: StringEnum(['pending', 'reserved', 'uploaded', 'committed', 'done', 'failed'] as const),
    error: Nullable(Type.String()),
  },
  { title: 'PublicationItem' },
);

const StoreLocaleKey = Type.String({ minLength: 2, maxLength: 20 });

/** Where on the store a set goes (CONTRACT, fourth milestone, "Publication targets"). */
export const TargetSchema = Type.Union(
  [
    Type.Object(
      {
        kind: Type.Literal('product-page', { description: 'The app’s product page: its editable App Store version, or the Play listing.' }),
      },
      { additionalProperties: false, title: 'ProductPageTarget' },
    ),
    Type.Object(
      {
        kind: Type.Literal('custom-product-page'),
        name: Type.String({
          minLength: 1,
          maxLength: 100,
          description: 'The page’s name in App Store Connect: found by this name, else made with it.',
          examples: ['Students'],
        }),
        id: Type.Optional(
          Type.String({ minLength: 1, maxLength: 100, description: 'An existing page’s id: found by it instead of by name.' }),
        ),
        promotionalText: Type.Optional(
          Type.Record(StoreLocaleKey, Type.String({ maxLength: 170 }), {
            description: 'Per locale (store locale, or a set locale), the page’s promotional text (170 characters at most).',
          }),
        ),
        keywords: Type.Optional(
          Type.Record(StoreLocaleKey, Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 100 }), {
            description: 'Per locale, the page’s search keywords, set exactly (others removed). A locale not named keeps its keywords.',
          }),
        ),
        visible: Type.Optional(
          Type.Boolean({ description: 'Show the page on the App Store (its URL works either way). Not named: left as it is.' }),
        ),
      },
      { additionalProperties: false, title: 'CustomProductPageTarget' },
    ),
    Type.Object(
      {
        kind: Type.Literal('experiment-treatment'),
        experiment: Type.Object(
          {
            id: Type.Optional(
              Type.String({ minLength: 1, maxLength: 100, description: 'An existing test’s id: found by it instead of by name.' }),
            ),
            name: Type.String({
              minLength: 1,
              maxLength: 100,
              description: 'The product page optimization test: found by this name, else made.',
            }),
            trafficProportion: Type.Optional(
              Type.Integer({
                minimum: 1,
                maximum: 100,
                description: 'Percent of visitors shown a treatment (split between them). Default for a new test: 30.',
              }),
            ),
          },
          { additionalProperties: false },
        ),
        treatment: Type.String({
          minLength: 1,
          maxLength: 100,
          description: 'The treatment’s name in the test: found, else made (a test holds three at most).',
          examples: ['B'],
        }),
      },
      { additionalProperties: false, title: 'ExperimentTreatmentTarget' },
    ),
  ],
  {
    title: 'PublicationTarget',
    description: 'App Store only, besides `product-page`. Nothing is submitted for review or started by publishing.',
  },
);

const VariantRefSchema = Type.Object(
  {
    pageId: Nullable(Type.String(), { description: 'The custom product page’s id (its `ppid`).' }),
    pageVersionId: Nullable(Type.String()),
    url: Nullable(Type.String({ description: 'The page’s App Store URL, with `ppid`.' })),
    experimentId: Nullable(Type.String({ description: 'The test’s id (POST /experiments/{id}/start).' })),
    treatmentId: Nullable(Type.String()),
  },
  { title: 'PublicationVariant', description: 'What the store gave the target once it was found or made; null before.' },
);

const SubmissionSchema = Type.Object(
  {
    reviewSubmissionId: Type.String(),
    submittedAt: Type.String({ format: 'date-time' }),
  },
  {
    title: 'PublicationSubmission',
    description: 'The review submission the page version or test went to App Review in; null until submitted.',
  },
);

export const PublicationSchema = Type.Object(
  {
    id: Type.String({ examples: ['pub_01JD2ZK5T8Q3W4E5R6T7Y8U9WH'] }),
    jobId: Type.String(),
    connectionId: Nullable(Type.String(), { description: 'Null once the connection was deleted.' }),
    store: StoreSchema,
    storeAppId: Type.String({ description: 'App Store Connect app id, or the Play package.' }),
    locales: Type.Record(Type.String(), Type.String(), { description: 'Set locale → store locale.' }),
    target: TargetSchema,
    variant: Nullable(VariantRefSchema),
    submission: Nullable(SubmissionSchema),
    status: StringEnum(['planning', 'awaiting_approval', 'applying', 'verifying', 'published', 'failed'] as const),
    plan: Type.Object(
      {
        upload: Type.Integer(),
        keep: Type.Integer(),
        reorder: Type.Integer(),
        delete: Type.Integer(),
        items: Type.Array(PlanItemSchema),
      },
      { description: 'Empty while planning.' },
    ),
    plannedAt: Nullable(Type.String({ format: 'date-time' })),
    approvedAt: Nullable(Type.String({ format: 'date-time' })),
    error: Nullable(
      Type.Object({
        code: Type.String(),
        message: Type.String(),
        storeError: Type.Optional(
          Type.Object(
            { code: Type.String(), detail: Type.String() },
            { description: 'The store’s own error (App Store Connect’s code and text), when the store refused.' },
          ),
        ),
      }),
    ),
    createdAt: Type.String({ format: 'date-time' }),
    finishedAt: Nullable(Type.String({ format: 'date-time' })),
  },
  { title: 'Publication' },
);

export const CreatePublicationBody = Type.Object(
  {
    jobId: Type.String({ description: 'A succeeded screenshot set (job_…).' }),
    connectionId: Type.String({ description: 'The store connection (sc_…) of the job’s store.' }),
    locales: Type.Optional(
      Type.Record(Type.String({ maxLength: 20 }), Type.String({ minLength: 2, maxLength: 20 }), {
        description:
          'Set locale → store locale, e.g. {"en": "en-US"}. Default: each set locale to the store locale of the same name, else the first one of its language.',
      }),
    ),
    target: Type.Optional(TargetSchema),
  },
  { additionalProperties: false, title: 'CreatePublicationRequest' },
);

/** A product page optimization test as App Store Connect holds it. */
export const ExperimentSchema = Type.Object(
  {
    id: Type.String({ description: 'App Store Connect’s id of the test (POST /experiments/{id}/start).' }),
    name: Type.String(),
    state: Type.String({
      description:
        'The store’s state: PREPARE_FOR_SUBMISSION, READY_FOR_REVIEW, WAITING_FOR_REVIEW, IN_REVIEW, APPROVED, REJECTED, COMPLETED, STOPPED…',
    }),
    running: Type.Boolean({ description: 'Started and not ended: shown to the share of visitors `trafficProportion` says.' }),
    trafficProportion: Nullable(Type.Integer()),
    startDate: Nullable(Type.String()),
    endDate: Nullable(Type.String()),
  },
  { title: 'Experiment' },
);

const Origin = {
  jobId: Nullable(Type.String(), {
    description: 'The shotgen set (job_…) its newest publication came from; null when shotgen never published it.',
  }),
  publicationId: Nullable(Type.String()),
};

export const VariantsSchema = Type.Object(
  {
    appId: Type.String(),
    storeAppId: Type.String({ description: 'The App Store Connect app id.' }),
    connectionId: Type.String({ description: 'The App Store connection the store was read with.' }),
    customProductPages: Type.Array(
      Type.Object(
        {
          id: Type.String({ description: 'The page’s id, its `ppid`.' }),
          name: Type.String(),
          url: Nullable(Type.String({ description: 'The page’s App Store URL, with `ppid`.' })),
          visible: Type.Boolean(),
          state: Nullable(Type.String({ description: 'Its newest version’s state.' })),
          version: Nullable(Type.String()),
          versions: Type.Array(Type.Object({ id: Type.String(), version: Type.String(), state: Type.String() })),
          ...Origin,
        },
        { title: 'CustomProductPage' },
      ),
    ),
    experiments: Type.Array(
      Type.Object(
        {
          ...ExperimentSchema.properties,
          treatments: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), ...Origin }, { title: 'ExperimentTreatment' })),
        },
        { title: 'ExperimentWithTreatments' },
      ),
    ),
  },
  { title: 'AppVariants' },
);
