/**
 * androidpublisher v3 as the fake Play serves it: edits (insert, get, delete, validate, commit),
 * store listings (list, get) and their images (list, upload as raw media, delete, deleteall), every call with a
 * Bearer token from the fake's token endpoint; plus the image URLs the listings name.
 */
import type { PlayAuth } from './play-auth.ts';
import { imageFormat, playError, type PlayEdit, type PlayState, type StoredImage } from './play-state.ts';
import { FakeError, json, type FakeRequest, type Reply, type Route } from './server.ts';

const STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  413: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};
const PRECONDITIONS = new Set(['editExpired', 'changesInReview', 'editAlreadyCommitted']);

/** Google's API error document. */
export function googleError(error: FakeError): unknown {
  return {
    error: {
      code: error.status,
      message: error.message,
      errors: [{ message: error.message, domain: 'androidpublisher', reason: error.code }],
      status: PRECONDITIONS.has(error.code) ? 'FAILED_PRECONDITION' : (STATUS[error.status] ?? 'UNKNOWN'),
    },
  };
}

const EDITS = '^/androidpublisher/v3/applications/([^/]+)/edits';
const SEG = '([^/]+)';

export interface PlayContext {
  state: PlayState;
  auth: PlayAuth;
  base(): string;
}

const appEdit = (edit: PlayEdit) => ({ id: edit.id, expiryTimeSeconds: String(Math.floor(edit.expiresAt / 1000)) });

export function playRoutes(ctx: PlayContext): Route[] {
  const { state, auth } = ctx;
  const imageJson = (image: StoredImage) => ({
    id: image.id,
    url: `${ctx.base()}/images/${image.id}`,
    sha1: image.sha1,
    sha256: image.sha256,
  });
  const authed =
    (handle: (req: FakeRequest) => Reply): Route['handle'] =>
    (req) => {
      auth.check(req.headers.authorization);
      return handle(req);
    };
  /** The open edit named by the first two path groups. */
  const editOf = (req: FakeRequest) => state.edit(req.params[0], req.params[1]);
  return [
    { method: 'POST', pattern: /^\/token$/, handle: (req) => auth.token(req) },
    {
      method: 'POST',
      pattern: new RegExp(`${EDITS}$`),
      handle: authed((req) => json(appEdit(state.insertEdit(req.params[0])))),
    },
    {
      method: 'GET',
      pattern: new RegExp(`${EDITS}/([^/:]+)$`),
      handle: authed((req) => json(appEdit(editOf(req)))),
    },
    {
      method: 'DELETE',
      pattern: new RegExp(`${EDITS}/([^/:]+)$`),
      handle: authed((req) => {
        state.deleteEdit(req.params[0], req.params[1]);
        return { status: 204 };
      }),
    },
    {
      method: 'POST',
      pattern: new RegExp(`${EDITS}/([^/:]+):validate$`),
      handle: authed((req) => json(appEdit(editOf(req)))),
    },
    {
      method: 'POST',
      pattern: new RegExp(`${EDITS}/([^/:]+):commit$`),
      handle: authed((req) => json(appEdit(state.commit(req.params[0], req.params[1], req.query.get('changesInReviewBehavior'))))),
    },
    {
      method: 'GET',
      pattern: new RegExp(`${EDITS}/${SEG}/listings$`),
      handle: authed((req) => {
        const listings = state.listings(editOf(req));
        return json({ kind: 'androidpublisher#listingsListResponse', ...(listings.length ? { listings } : {}) });
      }),
    },
    {
      method: 'GET',
      pattern: new RegExp(`${EDITS}/${SEG}/listings/${SEG}$`),
      handle: authed((req) => {
        const listing = state.listings(editOf(req)).find((l) => l.language === req.params[2]);
        if (!listing) throw playError(404, 'notFound', `No listing for language ${req.params[2]}.`);
        return json(listing);
      }),
    },
    {
      method: 'GET',
      pattern: new RegExp(`${EDITS}/${SEG}/listings/${SEG}/${SEG}$`),
      handle: authed((req) => {
        const images = state.list(editOf(req), req.params[2], req.params[3]);
        // Google leaves an empty repeated field out of the answer rather than sending [].
        return json(images.length ? { images: images.map(imageJson) } : {});
      }),
    },
    {
      method: 'DELETE',
      pattern: new RegExp(`${EDITS}/${SEG}/listings/${SEG}/${SEG}$`),
      handle: authed((req) => {
        const deleted = state.deleteAll(editOf(req), req.params[2], req.params[3]);
        return json(deleted.length ? { deleted: deleted.map(imageJson) } : {});
      }),
    },
    {
      method: 'DELETE',
      pattern: new RegExp(`${EDITS}/${SEG}/listings/${SEG}/${SEG}/${SEG}$`),
      handle: authed((req) => {
        state.deleteImage(editOf(req), req.params[2], req.params[3], req.params[4]);
        return { status: 204 };
      }),
    },
    {
      method: 'POST',
      pattern: new RegExp(`^/upload/androidpublisher/v3/applications/${SEG}/edits/${SEG}/listings/${SEG}/${SEG}$`),
      handle: authed((req) => {
        if (req.query.get('uploadType') !== 'media')
          throw playError(400, 'invalid', 'The fake accepts uploadType=media: the image bytes as the request body.');
        const image = state.upload(editOf(req), req.params[2], req.params[3], req.body);
        return json({ image: imageJson(image) });
      }),
    },
    {
      method: 'GET',
      pattern: /^\/images\/([0-9a-f]+)$/,
      handle: (req) => {
        const image = state.images.get(req.params[0]);
        if (!image) throw new FakeError(404, 'notFound', 'No such image.');
        return { bytes: image.bytes, contentType: `image/${imageFormat(image.bytes) ?? 'png'}` };
      },
    },
  ];
}
