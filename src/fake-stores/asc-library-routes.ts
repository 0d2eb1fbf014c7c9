/**
 * The fake App Store Connect's App Asset Library over HTTP: its JSON:API documents and routes
 * (the library itself, its state and rules, are asc-library.ts).
 */
import { randomUUID } from 'node:crypto';
import { filterOf, type AscContext } from './asc-app-routes.ts';
import { pngSize } from './asc-display-types.ts';
import { collection, single, UPLOAD_CONTENT_TYPE, type Resource } from './asc-json.ts';
import { notFound, SURFACES, surfaceOf, type AscState } from './asc-state.ts';
import { FakeError, json, parseJson, type FakeRequest, type Route } from './server.ts';
import type { AscLibrary, LibraryImage, LibraryPlacement } from './asc-library.ts';

// ——— JSON:API documents ———

export function imageResource(base: string, lib: AscLibrary, image: LibraryImage): Resource {
  const state = lib.imageState(image);
  const size = pngSize(image.bytes);
  return {
    type: 'appAssetLibraryImages',
    id: image.id,
    attributes: {
      category: 'APP_SCREENSHOTS_AND_PREVIEWS',
      fileName: image.fileName,
      fileSize: image.fileSize,
      referenceName: image.referenceName,
      imageAsset: state === 'PREPARE_FOR_SUBMISSION' && size ? { templateUrl: `${base}/assets/${image.id}/{w}x{h}bb.{f}`, ...size } : null,
      specId: state === 'PREPARE_FOR_SUBMISSION' ? (lib.specsOf(image)[0]?.specId ?? null) : null,
      state,
      stateDetails: state === 'FAILED' && image.error ? { errors: [image.error] } : null,
      uploadOperations:
        state === 'AWAITING_UPLOAD'
          ? image.parts.map((part, index) => ({
              method: 'PUT',
              url: `${base}/upload-library/${image.id}/${index}`,
              length: part.length,
              offset: part.offset,
              requestHeaders: [{ name: 'Content-Type', value: UPLOAD_CONTENT_TYPE }],
            }))
          : null,
    },
    relationships: { placements: { links: { related: `${base}/v1/appAssetLibraryImages/${image.id}/placements` } } },
    links: { self: `${base}/v1/appAssetLibraryImages/${image.id}` },
  };
}

export function placementResource(base: string, lib: AscLibrary, p: LibraryPlacement): Resource {
  return {
    type: 'appAssetLibraryPlacements',
    id: p.id,
    attributes: {
      mediaType: 'IMAGE',
      placementType: p.placementType,
      placementGroup: p.placementGroup,
      state: `PARENT_${lib.imageState(lib.image(p.imageId))}`,
      stateDetails: null,
    },
    relationships: {
      image: { data: { type: 'appAssetLibraryImages', id: p.imageId } },
      [lib.surface(p.localizationId).relationship]: { data: { type: lib.surface(p.localizationId).type, id: p.localizationId } },
    },
    links: { self: `${base}/v1/appAssetLibraryPlacements/${p.id}` },
  };
}

// ——— Routes ———

const ID = '([^/]+)';
interface Doc {
  data?: {
    type?: unknown;
    id?: unknown;
    attributes?: Record<string, unknown>;
    relationships?: Record<string, { data?: unknown }>;
  };
}
const badRequest = (message: string) => new FakeError(400, 'PARAMETER_ERROR.INVALID', message);
const required = (pointer: string) => new FakeError(409, 'ENTITY_ERROR.ATTRIBUTE.REQUIRED', `You must provide a value for ${pointer}.`);

function dataOf(req: FakeRequest, type: string): NonNullable<Doc['data']> {
  const doc = parseJson(req, badRequest) as Doc;
  if (!doc?.data || typeof doc.data !== 'object') throw required('/data');
  if (doc.data.type !== type) throw new FakeError(409, 'ENTITY_ERROR.TYPE_MISMATCH', `The resource type must be '${type}'.`);
  return doc.data;
}

/** The localization a placement or an ordering request names, by whichever surface relationship it uses. */
function surfaceLinked(data: NonNullable<Doc['data']>, state: AscState): string {
  const surface = Object.values(SURFACES).find((s) => data.relationships?.[s.relationship]?.data);
  if (!surface) throw required('/data/relationships/appStoreVersionLocalization');
  const id = linked(data, surface.relationship, surface.type);
  if (surfaceOf(state.localization(id)) !== surface) throw notFound(surface.type, id);
  return id;
}

function linked(data: NonNullable<Doc['data']>, name: string, type: string): string {
  const l = data.relationships?.[name]?.data as { type?: unknown; id?: unknown } | undefined;
  if (!l || l.type !== type || typeof l.id !== 'string') throw required(`/data/relationships/${name}`);
  return l.id;
}

export function libraryRoutes(ctx: AscContext, lib: AscLibrary): Route[] {
  const { state } = ctx;
  const base = () => ctx.base();
  return [
    {
      method: 'GET',
      pattern: new RegExp(`^/v1/apps/${ID}/assetLibrary$`),
      handle: ctx.authed((req) => {
        const id = lib.libraryOf(req.params[0]);
        return json({
          data: {
            type: 'appAssetLibraries',
            id,
            attributes: {},
            relationships: { images: { links: { related: `${base()}/v1/appAssetLibraries/${id}/images` } } },
            links: { self: `${base()}/v1/appAssetLibraries/${id}` },
          },
          links: { self: `${base()}${req.pathname}` },
        });
      }),
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/v1/appAssetLibraries/${ID}/images$`),
      handle: ctx.authed((req) => {
        if (![...lib.libraries.values()].includes(req.params[0])) throw notFound('appAssetLibraries', req.params[0]);
        const names = filterOf(req, 'fileName');
        const images = [...lib.images.values()].filter((i) => i.libraryId === req.params[0] && (!names || names.includes(i.fileName)));
        return json(
          collection(
            base(),
            req.pathname,
            images.map((i) => imageResource(base(), lib, i)),
          ),
        );
      }),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/appAssetLibraryImages$/,
      handle: ctx.authed((req) => {
        const data = dataOf(req, 'appAssetLibraryImages');
        const { fileName, fileSize, referenceName } = data.attributes ?? {};
        if (typeof fileName !== 'string' || !fileName) throw required('/data/attributes/fileName');
        if (typeof fileSize !== 'number' || !Number.isInteger(fileSize) || fileSize <= 0) throw required('/data/attributes/fileSize');
        const libraryId = linked(data, 'assetLibrary', 'appAssetLibraries');
        const image = lib.reserve(libraryId, fileName, fileSize, typeof referenceName === 'string' ? referenceName : null);
        return json(single(imageResource(base(), lib, image)), 201);
      }),
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/v1/appAssetLibraryImages/${ID}$`),
      handle: ctx.authed((req) => json(single(imageResource(base(), lib, lib.image(req.params[0]))))),
    },
    {
      method: 'PATCH',
      pattern: new RegExp(`^/v1/appAssetLibraryImages/${ID}$`),
      handle: ctx.authed((req) => {
        const data = dataOf(req, 'appAssetLibraryImages');
        if (data.id !== req.params[0]) throw new FakeError(409, 'ENTITY_ERROR.ID_MISMATCH', 'The id in the body must match the URL.');
        const { uploaded, sourceFileChecksum, referenceName } = data.attributes ?? {};
        let image = lib.image(req.params[0]);
        if (typeof referenceName === 'string') image.referenceName = referenceName;
        if (uploaded === true) image = lib.commit(image.id, sourceFileChecksum);
        return json(single(imageResource(base(), lib, image)));
      }),
    },
    {
      method: 'DELETE',
      pattern: new RegExp(`^/v1/appAssetLibraryImages/${ID}$`),
      handle: ctx.authed((req) => {
        lib.deleteImage(req.params[0]);
        return { status: 204 };
      }),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/appAssetLibraryPlacements$/,
      handle: ctx.authed((req) => {
        const data = dataOf(req, 'appAssetLibraryPlacements');
        const { placementType, placementGroup } = data.attributes ?? {};
        if (typeof placementType !== 'string') throw required('/data/attributes/placementType');
        if (typeof placementGroup !== 'string') throw required('/data/attributes/placementGroup');
        const imageId = linked(data, 'image', 'appAssetLibraryImages');
        const locId = surfaceLinked(data, state);
        return json(single(placementResource(base(), lib, lib.place(imageId, locId, placementType, placementGroup))), 201);
      }),
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/v1/appAssetLibraryPlacements/${ID}$`),
      handle: ctx.authed((req) => json(single(placementResource(base(), lib, lib.placement(req.params[0]))))),
    },
    {
      method: 'DELETE',
      pattern: new RegExp(`^/v1/appAssetLibraryPlacements/${ID}$`),
      handle: ctx.authed((req) => {
        lib.unplace(req.params[0]);
        return { status: 204 };
      }),
    },
    {
      method: 'GET',
      pattern: new RegExp(
        `^/v1/(${Object.values(SURFACES)
          .map((s) => s.type)
          .join('|')})/${ID}/placements$`,
      ),
      handle: ctx.authed((req) => {
        const [type, locId] = req.params;
        if (lib.surface(locId).type !== type) throw notFound(type, locId);
        const placements = lib.placementsOf(locId, filterOf(req, 'placementType'), filterOf(req, 'placementGroup'));
        const withImages = (req.query.get('include') ?? '').split(',').includes('image');
        const included = withImages
          ? [...new Set(placements.map((p) => p.imageId))].map((id) => imageResource(base(), lib, lib.image(id)))
          : undefined;
        return json(
          collection(
            base(),
            req.pathname,
            placements.map((p) => placementResource(base(), lib, p)),
            included,
          ),
        );
      }),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/appAssetLibraryPlacementOrderingRequests$/,
      handle: ctx.authed((req) => {
        const data = dataOf(req, 'appAssetLibraryPlacementOrderingRequests');
        const group = data.attributes?.placementGroup;
        if (typeof group !== 'string') throw required('/data/attributes/placementGroup');
        const locId = surfaceLinked(data, state);
        const ordered = data.relationships?.orderedPlacements?.data;
        if (!Array.isArray(ordered)) throw required('/data/relationships/orderedPlacements');
        const ids = ordered.map((l: { type?: unknown; id?: unknown }) => {
          if (l?.type !== 'appAssetLibraryPlacements' || typeof l.id !== 'string')
            throw new FakeError(409, 'ENTITY_ERROR.TYPE_MISMATCH', "Each linkage must be of type 'appAssetLibraryPlacements'.");
          return l.id;
        });
        lib.reorder(locId, group, ids);
        const id = randomUUID();
        return json(
          single({
            type: 'appAssetLibraryPlacementOrderingRequests',
            id,
            attributes: { placementGroup: group },
            relationships: {},
            links: { self: `${base()}/v1/appAssetLibraryPlacementOrderingRequests/${id}` },
          }),
          201,
        );
      }),
    },
    {
      method: 'GET',
      pattern: /^\/v1\/appAssetLibraryRefData$/,
      handle: ctx.authed((req) =>
        json(
          collection(base(), req.pathname, [
            {
              type: 'appAssetLibraryRefData',
              id: '1',
              attributes: structuredClone(lib.refData) as unknown as Record<string, unknown>,
              links: { self: `${base()}/v1/appAssetLibraryRefData/1` },
            },
          ]),
        ),
      ),
    },
    {
      method: 'PUT',
      pattern: new RegExp(`^/upload-library/${ID}/(\\d+)$`),
      handle: (req) => {
        if (req.headers['content-type'] !== UPLOAD_CONTENT_TYPE)
          throw badRequest(`The upload operation's requestHeaders say Content-Type: ${UPLOAD_CONTENT_TYPE}.`);
        lib.uploadPart(req.params[0], Number(req.params[1]), req.body);
        return { status: 200 };
      },
    },
  ];
}
