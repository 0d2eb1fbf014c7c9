import { Type } from '@sinclair/typebox';
import { principalOf } from '../http/auth.ts';
import type { Api, Services } from '../http/services.ts';
import { MAX_SCREEN_BYTES, MAX_SCREEN_PIXELS, MIN_SCREEN_SIDE } from '../screens/decode.ts';
import { SCREEN_FAMILIES } from '../core/families.ts';
import { MAX_SCREENS_PER_APP, uploadScreen as upload } from '../screens/screens.ts';
import type { ScreenshotFamily } from '../core/listing.ts';
import { StringEnum } from '../core/typebox.ts';
import { AppParams, ScreenSchema } from './screen-schemas.ts';
import { commonProblems, problemExample, problemRef, success } from './schemas.ts';

const SCREEN_TYPES = ['image/png', 'image/jpeg'];

export function uploadScreen(api: Api, services: Services) {
  // Image bytes are this route's only body: its own context takes image/png and image/jpeg as a
  // Buffer, up to 10 MiB, and everything else (JSON included) is a 415.
  void api.register(async (scoped) => {
    scoped.removeAllContentTypeParsers();
    scoped.addContentTypeParser(SCREEN_TYPES, { parseAs: 'buffer', bodyLimit: MAX_SCREEN_BYTES }, (_request, body, done) =>
      done(null, body),
    );
    scoped.post(
      '/public/v1/apps/:appId/screens',
      {
        bodyLimit: MAX_SCREEN_BYTES,
        config: { auth: true, accepts: 'the image bytes with Content-Type: image/png or image/jpeg' },
        schema: {
          operationId: 'uploadScreen',
          summary: 'Upload one of your app’s screens',
          description: `The body is the image itself (PNG or JPEG, at most 10 MiB), decoded before anything is stored: more than ${MAX_SCREEN_PIXELS / 1e6} megapixels, a side under ${MIN_SCREEN_SIDE} px, a truncated file or a decompression bomb is 400 \`invalid_image\`. The family is \`?family=\`, or inferred from the aspect ratio (and the app's stores: iPhone/iPad when it has an App Store listing, \`mac\` for its landscape screens of 3:2 to 16:10). At most ${MAX_SCREENS_PER_APP} screens per app.`,
          tags: ['screens'],
          params: AppParams,
          querystring: Type.Object({
            family: Type.Optional(StringEnum(SCREEN_FAMILIES, { description: 'The device family; inferred when absent.' })),
          }),
          // Documentation only (see http/openapi.ts): the parser above hands the handler a Buffer.
          'x-binary-body': SCREEN_TYPES,
          response: {
            201: success(ScreenSchema, 'Stored.'),
            ...commonProblems,
            400: problemRef(
              'Not a readable PNG or JPEG, too many pixels, too small, truncated or a bomb (`invalid_image`), or a bad `family` (`validation_failed`).',
              problemExample('invalid_image', 'The image is 200×400; each side must be at least 320 px.'),
            ),
            404: problemRef('No such app on this account (`app_not_found`).'),
            409: problemRef(`The app already has ${MAX_SCREENS_PER_APP} screens (\`screen_limit\`).`),
            413: problemRef('Body over 10 MiB (`payload_too_large`).'),
            415: problemRef('Body is not image/png or image/jpeg (`unsupported_media_type`).'),
          },
        },
      },
      async (request, reply) => {
        const { appId } = request.params as { appId: string };
        const { family } = request.query as { family?: ScreenshotFamily };
        const screen = await upload(
          services.db,
          services.objects,
          principalOf(request).accountId,
          appId,
          request.body as Buffer,
          family,
          services.screenReader,
        );
        return reply.code(201).send(screen);
      },
    );
  });
}
