/**
 * The app's own icon: PUT takes the image bytes (PNG or JPEG, square, at least 512 px, decoded with
 * the screens' limits), GET serves it with the API key or through the signed URL an app's
 * artworkUrl holds.
 */
import { findApp } from '../apps/apps.ts';
import { MIN_ICON_SIDE, uploadIcon } from '../screens/app-icon.ts';
import { principalOf } from '../http/auth.ts';
import { pictureLinks } from '../http/picture-links.ts';
import type { Api, Services } from '../http/services.ts';
import { isId } from '../core/ids.ts';
import { Problem } from '../core/problem.ts';
import { MAX_SCREEN_BYTES, MAX_SCREEN_PIXELS } from '../screens/decode.ts';
import { AppResponse, appView } from './create-app.ts';
import { binary, fileProblems, SignedQuery } from './get-job-file.ts';
import { commonProblems, problemExample, problemRef, success } from './schemas.ts';
import { AppParams } from './screen-schemas.ts';

const ICON_TYPES = ['image/png', 'image/jpeg'];

export function appIcon(api: Api, services: Services) {
  // As for screens: the image bytes are this route's only body, and anything else is a 415.
  void api.register(async (scoped) => {
    scoped.removeAllContentTypeParsers();
    scoped.addContentTypeParser(ICON_TYPES, { parseAs: 'buffer', bodyLimit: MAX_SCREEN_BYTES }, (_request, body, done) => done(null, body));
    scoped.put(
      '/public/v1/apps/:appId/icon',
      {
        bodyLimit: MAX_SCREEN_BYTES,
        config: { auth: true, accepts: 'the image bytes with Content-Type: image/png or image/jpeg' },
        schema: {
          operationId: 'uploadAppIcon',
          summary: 'Upload the app’s icon',
          description: `The body is the icon itself: PNG or JPEG, square, at least ${MIN_ICON_SIDE}×${MIN_ICON_SIDE} px, at most 10 MiB and ${MAX_SCREEN_PIXELS / 1e6} megapixels, decoded before anything is stored (metadata is stripped). It replaces any icon uploaded before and outranks the store's: the brand colours are taken from it by the next set (unless the brand kit sets them), and the feature graphic, store preview and icon badge draw it. Nothing is fetched from a store for it. Answers the app, whose artworkUrl is now a signed URL of this icon.`,
          tags: ['apps'],
          params: AppParams,
          'x-binary-body': ICON_TYPES,
          response: {
            200: success(AppResponse, 'Stored; the app with its new artworkUrl.'),
            ...commonProblems,
            400: problemRef(
              'Not a readable PNG or JPEG, not square, under 512 px, too many pixels, truncated or a bomb (`invalid_image`).',
              problemExample('invalid_image', 'The icon is 1024×768; an app icon is square.'),
            ),
            404: problemRef('No such app on this account (`app_not_found`).'),
            413: problemRef('Body over 10 MiB (`payload_too_large`).'),
            415: problemRef('Body is not image/png or image/jpeg (`unsupported_media_type`).'),
          },
        },
      },
      async (request) => {
        const { appId } = request.params as { appId: string };
        const app = await uploadIcon(services.db, services.objects, principalOf(request).accountId, appId, request.body as Buffer);
        return appView(app, pictureLinks(services, request));
      },
    );
  });

  api.get(
    '/public/v1/apps/:appId/icon',
    {
      config: { auth: 'key-or-signature' },
      schema: {
        operationId: 'getAppIcon',
        summary: 'Download the app’s uploaded icon',
        description:
          'With the API key, or without it through the signed URL in the app’s `artworkUrl`. Only an uploaded icon is served here.',
        tags: ['apps'],
        security: [{ bearerAuth: [] }, { apiKeyHeader: [] }, {}],
        params: AppParams,
        querystring: SignedQuery,
        response: {
          200: {
            ...binary('image/png', 'The icon as stored: PNG or JPEG as it was uploaded, metadata stripped.'),
            headers: {
              ETag: { type: 'string', description: 'The sha256 of the uploaded file, quoted.' },
              'Cache-Control': { type: 'string', description: '`private, no-cache`: the URL stays when the icon is replaced.' },
              'x-request-id': { type: 'string' },
            },
            content: Object.fromEntries(ICON_TYPES.map((t) => [t, { schema: { type: 'string', format: 'binary' } }])),
          },
          ...fileProblems,
          404: problemRef('No such app on this account, or it has no uploaded icon (`app_not_found`).'),
        },
      },
    },
    async (request, reply) => {
      const { appId } = request.params as { appId: string };
      const { expires, sig } = request.query as { expires?: string; sig?: string };
      let accountId: string | null;
      if (expires !== undefined || sig !== undefined) {
        const verdict = services.signer.verify(request.method, request.url.split('?')[0], expires ?? '', sig ?? '', services.clock());
        if (verdict === 'expired')
          throw new Problem('invalid_signature', 'This signed URL has expired; ask for the app again for a fresh one.');
        if (verdict !== 'ok') throw new Problem('invalid_signature', 'The signature does not match this URL.');
        accountId = null; // the signature names the app; anyone holding the URL may read its icon
      } else {
        accountId = principalOf(request).accountId;
      }
      const icon = isId('app', appId) ? await findIcon(services, accountId, appId) : null;
      const object = icon ? await services.objects.get(icon.objectKey) : null;
      if (!icon || !object) throw new Problem('app_not_found', `No uploaded icon of an app ${appId} on this account.`);
      const etag = `"${icon.sha256}"`;
      // The URL stays the same when the icon is replaced: a cache asks again, and keeps it while the ETag matches.
      reply.header('etag', etag).header('cache-control', 'private, no-cache');
      if (request.headers['if-none-match'] === etag) {
        object.body.destroy();
        return reply.code(304).send();
      }
      return reply.type(icon.contentType).header('content-length', object.bytes).send(object.body);
    },
  );
}

/** The app's uploaded icon; with a signature (no account), whichever app the signed path names. */
async function findIcon(services: Services, accountId: string | null, appId: string) {
  if (accountId) return (await findApp(services.db, accountId, appId))?.icon ?? null;
  const { rows } = await services.db.query<{ icon: { objectKey: string; sha256: string; contentType: string } | null }>(
    'SELECT icon FROM apps WHERE id = $1',
    [appId],
  );
  return rows[0]?.icon ?? null;
}
