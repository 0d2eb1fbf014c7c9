/**
 * The JSON:API documents of the fake App Store Connect: resources with type, id, attributes,
 * relationships and links, collections with paging meta, and the `errors` array.
 */
import { randomUUID } from 'node:crypto';
import { pngSize } from './asc-display-types.ts';
import {
  SURFACES,
  type AscApp,
  type AscLocalization,
  type AscScreenshot,
  type AscSet,
  type AscState,
  type AscVersion,
} from './asc-state.ts';
import type { FakeError } from './server.ts';

/** What each upload operation tells the client to send; the upload endpoint holds it to that. */
export const UPLOAD_CONTENT_TYPE = 'application/octet-stream';

export interface Resource {
  type: string;
  id: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, unknown>;
  links: { self: string };
}

export function errorDocument(error: FakeError): unknown {
  return {
    errors: [
      {
        id: randomUUID(),
        status: String(error.status),
        code: error.code,
        title: titleOf(error.status),
        detail: error.message,
      },
    ],
  };
}

function titleOf(status: number): string {
  if (status === 401) return 'Authentication credentials are missing or invalid.';
  if (status === 403) return 'The given operation is not allowed.';
  if (status === 404) return 'The specified resource does not exist.';
  if (status === 409) return 'The provided entity includes an attribute with a value that has already been used or is invalid.';
  if (status === 429) return 'The request rate limit has been reached.';
  if (status >= 500) return 'An unexpected error occurred on the server side.';
  return 'The request could not be processed.';
}

export const single = (data: Resource, included?: Resource[]) => ({
  data,
  ...(included ? { included } : {}),
  links: { self: data.links.self },
});

export const collection = (base: string, path: string, data: Resource[], included?: Resource[]) => ({
  data,
  ...(included ? { included } : {}),
  links: { self: `${base}${path}` },
  meta: { paging: { total: data.length, limit: 200 } },
});

const related = (base: string, type: string, id: string, name: string) => ({
  links: { self: `${base}/v1/${type}/${id}/relationships/${name}`, related: `${base}/v1/${type}/${id}/${name}` },
});

export function appResource(base: string, app: AscApp): Resource {
  return {
    type: 'apps',
    id: app.id,
    attributes: { name: `App ${app.id}`, bundleId: app.bundleId, sku: `SKU${app.id}`, primaryLocale: 'en-US' },
    relationships: { appStoreVersions: related(base, 'apps', app.id, 'appStoreVersions') },
    links: { self: `${base}/v1/apps/${app.id}` },
  };
}

export function versionResource(base: string, version: AscVersion): Resource {
  return {
    type: 'appStoreVersions',
    id: version.id,
    attributes: {
      platform: version.platform,
      versionString: version.versionString,
      appStoreState: version.state,
      // The newer attribute names the released state differently; the others are the same words.
      appVersionState: version.state === 'READY_FOR_SALE' ? 'READY_FOR_DISTRIBUTION' : version.state,
      releaseType: 'MANUAL',
      createdDate: '2026-01-01T00:00:00-08:00',
    },
    relationships: {
      app: { data: { type: 'apps', id: version.appId } },
      appStoreVersionLocalizations: related(base, 'appStoreVersions', version.id, 'appStoreVersionLocalizations'),
    },
    links: { self: `${base}/v1/appStoreVersions/${version.id}` },
  };
}

export function localizationResource(base: string, localization: AscLocalization): Resource {
  return {
    type: 'appStoreVersionLocalizations',
    id: localization.id,
    attributes: { locale: localization.locale, description: null, keywords: null, marketingUrl: null, promotionalText: null },
    relationships: {
      appStoreVersion: { data: { type: 'appStoreVersions', id: localization.versionId } },
      appScreenshotSets: related(base, 'appStoreVersionLocalizations', localization.id, 'appScreenshotSets'),
    },
    links: { self: `${base}/v1/appStoreVersionLocalizations/${localization.id}` },
  };
}

/** `surface`: the relationship to the set's localization (an App Store version's, a page's or a treatment's). */
export function setResource(
  base: string,
  set: AscSet,
  withScreenshotIds = false,
  surface: { relationship: string; type: string } = SURFACES.version,
): Resource {
  return {
    type: 'appScreenshotSets',
    id: set.id,
    attributes: { screenshotDisplayType: set.displayType },
    relationships: {
      [surface.relationship]: { data: { type: surface.type, id: set.localizationId } },
      appScreenshots: {
        ...related(base, 'appScreenshotSets', set.id, 'appScreenshots'),
        ...(withScreenshotIds ? { data: set.screenshotIds.map((id) => ({ type: 'appScreenshots', id })) } : {}),
      },
    },
    links: { self: `${base}/v1/appScreenshotSets/${set.id}` },
  };
}

export function screenshotResource(base: string, state: AscState, screenshot: AscScreenshot): Resource {
  const delivery = state.deliveryState(screenshot);
  const awaiting = delivery === 'AWAITING_UPLOAD';
  return {
    type: 'appScreenshots',
    id: screenshot.id,
    attributes: {
      fileSize: screenshot.fileSize,
      fileName: screenshot.fileName,
      sourceFileChecksum: screenshot.checksum,
      imageAsset:
        delivery === 'COMPLETE'
          ? { templateUrl: `${base}/assets/${screenshot.id}/{w}x{h}bb.{f}`, ...(pngSize(screenshot.bytes) ?? { width: 0, height: 0 }) }
          : null,
      assetToken: `fake-asset-${screenshot.id}`,
      assetType: 'SCREENSHOT',
      // The real store answers null, not an empty list, once the upload is committed.
      uploadOperations: awaiting
        ? screenshot.parts.map((part, index) => ({
            method: 'PUT',
            url: `${base}/upload/${screenshot.id}/${index}`,
            length: part.length,
            offset: part.offset,
            requestHeaders: [{ name: 'Content-Type', value: UPLOAD_CONTENT_TYPE }],
          }))
        : null,
      assetDeliveryState: {
        state: delivery,
        errors: delivery === 'FAILED' && screenshot.deliveryError ? [screenshot.deliveryError] : [],
        warnings: [],
      },
    },
    relationships: { appScreenshotSet: { data: { type: 'appScreenshotSets', id: screenshot.setId } } },
    links: { self: `${base}/v1/appScreenshots/${screenshot.id}` },
  };
}
