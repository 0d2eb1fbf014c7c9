/**
 * The fake App Store Connect's screenshot resources: sets per localization and display type,
 * reservations with upload operations that point back at the fake, the upload parts themselves
 * (no bearer token, like Apple's upload hosts), the commit with its MD5 check, delete and reorder.
 */
import type { AppScreenshotDisplayType } from './asc-display-types.ts';
import { SCREENSHOT_DISPLAY_TYPES } from './asc-display-types.ts';
import { filterOf, type AscContext } from './asc-app-routes.ts';
import { collection, screenshotResource, setResource, single, UPLOAD_CONTENT_TYPE } from './asc-json.ts';
import { conflict, notFound, SURFACES, surfaceOf } from './asc-state.ts';
import { FakeError, json, parseJson, type FakeRequest, type Route } from './server.ts';

const ID = '([^/]+)';

interface Linkage {
  type?: unknown;
  id?: unknown;
}
interface Document {
  data?: { type?: unknown; id?: unknown; attributes?: Record<string, unknown>; relationships?: Record<string, { data?: Linkage }> };
}

export const badRequest = (message: string) => new FakeError(400, 'PARAMETER_ERROR.INVALID', message);
export const required = (pointer: string) =>
  new FakeError(409, 'ENTITY_ERROR.ATTRIBUTE.REQUIRED', `You must provide a value for ${pointer}.`);

/** The `data` of a create or update document of `type`, checked the way the store checks it. */
export function dataOf(req: FakeRequest, type: string): NonNullable<Document['data']> {
  const doc = parseJson(req, badRequest) as Document;
  if (!doc || typeof doc !== 'object' || !doc.data || typeof doc.data !== 'object') throw required('/data');
  if (doc.data.type !== type) throw new FakeError(409, 'ENTITY_ERROR.TYPE_MISMATCH', `The resource type must be '${type}'.`);
  return doc.data;
}

export function relationshipId(data: NonNullable<Document['data']>, name: string, type: string): string {
  const linkage = data.relationships?.[name]?.data;
  if (!linkage || linkage.type !== type || typeof linkage.id !== 'string') throw required(`/data/relationships/${name}`);
  return linkage.id;
}

export function screenshotRoutes(ctx: AscContext): Route[] {
  const { state } = ctx;
  const base = () => ctx.base();
  return [
    {
      method: 'GET',
      // A version's, a custom product page's or a test treatment's localization: the same sets.
      pattern: new RegExp(
        `^/v1/(${Object.values(SURFACES)
          .map((s) => s.type)
          .join('|')})/${ID}/appScreenshotSets$`,
      ),
      handle: ctx.authed((req) => {
        const types = filterOf(req, 'screenshotDisplayType');
        const withScreenshots = (req.query.get('include') ?? '').split(',').includes('appScreenshots');
        const localization = state.localization(req.params[1]);
        const surface = surfaceOf(localization);
        if (surface.type !== req.params[0]) throw notFound(req.params[0], req.params[1]);
        const sets = localization.setIds.map((id) => state.set(id)).filter((s) => !types || types.includes(s.displayType));
        const included = withScreenshots
          ? sets.flatMap((s) => s.screenshotIds.map((id) => screenshotResource(base(), state, state.screenshot(id))))
          : undefined;
        return json(
          collection(
            base(),
            req.pathname,
            sets.map((s) => setResource(base(), s, withScreenshots, surface)),
            included,
          ),
        );
      }),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/appScreenshotSets$/,
      handle: ctx.authed((req) => {
        const data = dataOf(req, 'appScreenshotSets');
        const displayType = data.attributes?.screenshotDisplayType;
        if (typeof displayType !== 'string') throw required('/data/attributes/screenshotDisplayType');
        if (!SCREENSHOT_DISPLAY_TYPES.includes(displayType as AppScreenshotDisplayType))
          throw new FakeError(409, 'ENTITY_ERROR.ATTRIBUTE.INVALID', `'${displayType}' is not a valid screenshotDisplayType.`);
        // The set belongs to whichever localization the document names; its kind must match the relationship.
        const surface = Object.values(SURFACES).find((s) => data.relationships?.[s.relationship]?.data);
        if (!surface) throw required('/data/relationships/appStoreVersionLocalization');
        const localizationId = relationshipId(data, surface.relationship, surface.type);
        if (surfaceOf(state.localization(localizationId)) !== surface) throw notFound(surface.type, localizationId);
        return json(single(setResource(base(), state.createSet(localizationId, displayType), true, surface)), 201);
      }),
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/v1/appScreenshotSets/${ID}$`),
      handle: ctx.authed((req) => {
        const set = state.set(req.params[0]);
        return json(single(setResource(base(), set, true, surfaceOf(state.localization(set.localizationId)))));
      }),
    },
    {
      method: 'DELETE',
      pattern: new RegExp(`^/v1/appScreenshotSets/${ID}$`),
      handle: ctx.authed((req) => {
        state.deleteSet(req.params[0]);
        return { status: 204 };
      }),
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/v1/appScreenshotSets/${ID}/appScreenshots$`),
      handle: ctx.authed((req) => {
        const set = state.set(req.params[0]);
        const screenshots = set.screenshotIds.map((id) => screenshotResource(base(), state, state.screenshot(id)));
        return json(collection(base(), req.pathname, screenshots));
      }),
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/v1/appScreenshotSets/${ID}/relationships/appScreenshots$`),
      handle: ctx.authed((req) => {
        const set = state.set(req.params[0]);
        return json({
          data: set.screenshotIds.map((id) => ({ type: 'appScreenshots', id })),
          links: { self: `${base()}${req.pathname}` },
          meta: { paging: { total: set.screenshotIds.length, limit: 200 } },
        });
      }),
    },
    {
      method: 'PATCH',
      pattern: new RegExp(`^/v1/appScreenshotSets/${ID}/relationships/appScreenshots$`),
      handle: ctx.authed((req) => {
        const doc = parseJson(req, badRequest) as { data?: Linkage[] };
        if (!doc || !Array.isArray(doc.data)) throw required('/data');
        const ids = doc.data.map((l) => {
          if (l?.type !== 'appScreenshots' || typeof l.id !== 'string')
            throw new FakeError(409, 'ENTITY_ERROR.TYPE_MISMATCH', "Each linkage must be of type 'appScreenshots'.");
          return l.id;
        });
        state.reorder(req.params[0], ids);
        return { status: 204 };
      }),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/appScreenshots$/,
      handle: ctx.authed((req) => {
        const data = dataOf(req, 'appScreenshots');
        const { fileName, fileSize } = data.attributes ?? {};
        if (typeof fileName !== 'string' || !fileName) throw required('/data/attributes/fileName');
        if (typeof fileSize !== 'number' || !Number.isInteger(fileSize) || fileSize <= 0) throw required('/data/attributes/fileSize');
        const setId = relationshipId(data, 'appScreenshotSet', 'appScreenshotSets');
        return json(single(screenshotResource(base(), state, state.reserve(setId, fileName, fileSize))), 201);
      }),
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/v1/appScreenshots/${ID}$`),
      handle: ctx.authed((req) => json(single(screenshotResource(base(), state, state.screenshot(req.params[0]))))),
    },
    {
      method: 'PATCH',
      pattern: new RegExp(`^/v1/appScreenshots/${ID}$`),
      handle: ctx.authed((req) => {
        const data = dataOf(req, 'appScreenshots');
        if (data.id !== req.params[0]) throw new FakeError(409, 'ENTITY_ERROR.ID_MISMATCH', 'The id in the body must match the URL.');
        const { uploaded, sourceFileChecksum } = data.attributes ?? {};
        let screenshot = state.screenshot(req.params[0]);
        if (uploaded === true) {
          if (typeof sourceFileChecksum !== 'string') throw required('/data/attributes/sourceFileChecksum');
          screenshot = state.commit(screenshot.id, sourceFileChecksum);
        } else if (uploaded === false && screenshot.committedAt !== null) {
          throw conflict('STATE_ERROR', 'A committed upload cannot be taken back.');
        }
        return json(single(screenshotResource(base(), state, screenshot)));
      }),
    },
    {
      method: 'DELETE',
      pattern: new RegExp(`^/v1/appScreenshots/${ID}$`),
      handle: ctx.authed((req) => {
        state.deleteScreenshot(req.params[0]);
        return { status: 204 };
      }),
    },
    {
      method: 'PUT',
      pattern: new RegExp(`^/upload/${ID}/(\\d+)$`),
      handle: (req) => {
        // A client that ignores the operation's requestHeaders would fail on Apple's upload hosts too.
        if (req.headers['content-type'] !== UPLOAD_CONTENT_TYPE)
          throw badRequest(`The upload operation's requestHeaders say Content-Type: ${UPLOAD_CONTENT_TYPE}.`);
        state.uploadPart(req.params[0], Number(req.params[1]), req.body);
        return { status: 200 };
      },
    },
  ];
}
