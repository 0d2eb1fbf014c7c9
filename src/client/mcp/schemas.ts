/**
 * The tools' input schemas. The API's own request schemas where a tool is one request, so an agent
 * sees the limits and descriptions the server validates against, never a copy that drifts.
 */
import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import { CreateAppBody } from '../../api/create-app.ts';
import { CreateScreenshotSetBody } from '../../api/create-screenshot-set.ts';
import { CreateRevisionBody } from '../../api/create-revision.ts';
import { CreatePublicationBody, TargetSchema } from '../../publishing/schemas.ts';
import { SCREEN_FAMILIES } from '../../core/families.ts';
import { StringEnum } from '../../core/typebox.ts';
import { APP_STORE_UPLOADS } from '../connect.ts';

export const MAX_TOOL_WAIT_S = 50;

const NoInput = Type.Object({}, { additionalProperties: false });

export const INPUTS = {
  create_app: CreateAppBody,
  upload_screen: Type.Object(
    {
      appId: Type.String({ description: 'An appId from create_app.' }),
      path: Type.Optional(Type.String({ description: 'A PNG or JPEG file on this machine.' })),
      base64: Type.Optional(Type.String({ description: 'The PNG or JPEG bytes, base64-encoded (instead of path).' })),
      family: Type.Optional(StringEnum(SCREEN_FAMILIES, { description: 'The device family; inferred from the aspect ratio when absent.' })),
    },
    { additionalProperties: false, description: 'Exactly one of path and base64.' },
  ),
  estimate_screenshot_set: Type.Object(
    { ...CreateScreenshotSetBody.properties },
    {
      additionalProperties: false,
      description: 'The arguments of create_screenshot_set (without idempotencyKey). Free: nothing is created or charged.',
    },
  ),
  create_screenshot_set: Type.Object(
    {
      ...CreateScreenshotSetBody.properties,
      idempotencyKey: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 255,
          description: 'Reuse it when calling again for the same set: a repeat is answered without a second charge.',
        }),
      ),
    },
    {
      additionalProperties: false,
      description: `${CreateScreenshotSetBody.description ?? ''} Costs 5 credits (5 per locale); a failed job is refunded.`.trim(),
    },
  ),
  get_job: Type.Object(
    {
      jobId: Type.String({ description: 'The jobId from create_screenshot_set.' }),
      waitSeconds: Type.Optional(
        Type.Integer({
          minimum: 0,
          maximum: MAX_TOOL_WAIT_S,
          description: `Wait up to this many seconds for the job to succeed or fail (default 0: answer at once).`,
        }),
      ),
      images: Type.Optional(
        Type.Boolean({
          default: true,
          description: 'For a succeeded job, include each slide as a small PNG preview (the full-size files are the links).',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  revise_set: Type.Object(
    { jobId: Type.String({ description: 'A succeeded set (jobId) to edit.' }), ...CreateRevisionBody.properties },
    {
      additionalProperties: false,
      description:
        'Name only what changes, e.g. { jobId, slides: [{ index: 2, headline: "Find orders quickly" }], order: [1, 3, 2] }. Free; follow the new jobId with get_job.',
    },
  ),
  list_narratives: NoInput,
  get_account: NoInput,
  list_store_connections: NoInput,
  create_store_connection: Type.Object(
    {
      store: StringEnum(['app-store', 'google-play'] as const),
      issuerId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'App Store: the issuer ID shown above the keys.' })),
      keyId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'App Store: the key ID.' })),
      privateKeyPath: Type.Optional(Type.String({ minLength: 1, description: 'App Store: the AuthKey_….p8 file on this machine.' })),
      appStoreUpload: Type.Optional(
        StringEnum(APP_STORE_UPLOADS, {
          description:
            'App Store: how screenshots reach the version: its screenshot sets (default, as fastlane does) or the App Asset Library (API 4.5: each picture uploaded once, placed per localization).',
        }),
      ),
      serviceAccountPath: Type.Optional(
        Type.String({ minLength: 1, description: 'Google Play: the service account’s JSON key file on this machine.' }),
      ),
    },
    {
      additionalProperties: false,
      description:
        'App Store: issuerId, keyId, privateKeyPath (and appStoreUpload). Google Play: serviceAccountPath. Keys are read from their files, never passed inline.',
    },
  ),
  create_publication: CreatePublicationBody,
  get_publication: Type.Object(
    { publicationId: Type.String({ description: 'The id from create_publication (pub_…).' }) },
    { additionalProperties: false },
  ),
  list_variants: Type.Object(
    {
      appId: Type.String({ description: 'The app (app_…) whose App Store variants to list.' }),
      connectionId: Type.Optional(
        Type.String({ description: 'The App Store connection (sc_…) to read with; default: the app’s last one.' }),
      ),
    },
    { additionalProperties: false },
  ),
  publish_variant: Type.Object(
    {
      jobId: CreatePublicationBody.properties.jobId,
      connectionId: CreatePublicationBody.properties.connectionId,
      locales: CreatePublicationBody.properties.locales,
      // The target's variant kinds only: the product page is create_publication's.
      target: Type.Union(TargetSchema.anyOf.filter((t) => t.properties.kind.const !== 'product-page')),
    },
    {
      additionalProperties: false,
      description:
        'e.g. { jobId, connectionId, target: { kind: "custom-product-page", name: "Students" } } or { jobId, connectionId, target: { kind: "experiment-treatment", experiment: { name: "Spring" }, treatment: "B" } }.',
    },
  ),
  approve_publication: Type.Object(
    { publicationId: Type.String({ description: 'A publication awaiting approval (pub_…).' }) },
    { additionalProperties: false, description: 'Applies the plan to the live store page: show the user the plan and ask first.' },
  ),
} satisfies Record<string, TObject>;

export type ToolName = keyof typeof INPUTS;

/** Plain JSON: TypeBox's symbol-keyed metadata stays behind. */
export const jsonSchema = (schema: TSchema): { type: 'object'; [key: string]: unknown } => JSON.parse(JSON.stringify(schema));
