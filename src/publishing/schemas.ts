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

export const PublicationSchema = Type.Object(
  {
    id: Type.String({ examples: ['pub_01JD2ZK5T8Q3W4E5R6T7Y8U9WH'] }),
    jobId: Type.String(),
    connectionId: Nullable(Type.String(), { description: 'Null once the connection was deleted.' }),
    store: StoreSchema,
    storeAppId: Type.String({ description: 'App Store Connect app id, or the Play package.' }),
    locales: Type.Record(Type.String(), Type.String(), { description: 'Set locale → store locale.' }),
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
    error: Nullable(Type.Object({ code: Type.String(), message: Type.String() })),
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
  },
  { additionalProperties: false, title: 'CreatePublicationRequest' },
);
