/** The set's feature graphic (Android sets) and store preview, served like its slides: with the key or signed. */
import { Type } from '@sinclair/typebox';
import type { Api, Services } from '../http/services.ts';
import { FEATURE_GRAPHIC_NAME, featureGraphicFileName, STORE_PREVIEW_NAME } from '../sets/files.ts';
import { binary, fileProblems, serve, SignedQuery } from './get-job-file.ts';

const PICTURES = [
  {
    file: FEATURE_GRAPHIC_NAME,
    operationId: 'getFeatureGraphic',
    summary: 'Download the Google Play feature graphic (PNG, Android sets)',
    description:
      "1024×500, 8-bit RGB without alpha: the app's icon, name and the hero headline in its brand colours. Android sets only; with `locales`, the first locale's (each other locale's is at /locales/{locale}/feature-graphic.png, and the ZIP holds every locale's). With the API key, or through the signed URL in `result.featureGraphic.url`.",
  },
  {
    file: STORE_PREVIEW_NAME,
    operationId: 'getStorePreview',
    summary: 'Download the store preview (PNG)',
    description:
      "The set as it appears in the App Store's (or Google Play's) search results on a phone, at the phone's pixel size: icon, name and the first three slides at their real thumbnail size. With the API key, or through the signed URL in `result.storePreview.url`.",
  },
] as const;

export function getBrandPictures(api: Api, services: Services) {
  for (const p of PICTURES) {
    api.get(
      `/public/v1/jobs/:id/${p.file}`,
      {
        config: { auth: 'key-or-signature' as const },
        schema: {
          operationId: p.operationId,
          summary: p.summary,
          description: p.description,
          tags: ['jobs'],
          security: [{ bearerAuth: [] }, { apiKeyHeader: [] }, {}],
          params: Type.Object({ id: Type.String() }),
          querystring: SignedQuery,
          response: { 200: binary('image/png', 'The picture.'), ...fileProblems },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        return serve(services, request, reply, id, p.file, `${id}-${p.file}`);
      },
    );
  }
  api.get(
    `/public/v1/jobs/:id/locales/:locale/${FEATURE_GRAPHIC_NAME}`,
    {
      config: { auth: 'key-or-signature' as const },
      schema: {
        operationId: 'getLocaleFeatureGraphic',
        summary: "Download another locale's Google Play feature graphic (PNG, Android sets)",
        description:
          "For an Android set created with `locales`: the feature graphic of each locale after the first, with that locale's hero headline (the first locale's is at /feature-graphic.png). Publishing puts each on its own Play language.",
        tags: ['jobs'],
        security: [{ bearerAuth: [] }, { apiKeyHeader: [] }, {}],
        params: Type.Object({ id: Type.String(), locale: Type.String({ pattern: '^[a-z]{2,3}-[A-Z]{2}$', examples: ['de-DE'] }) }),
        querystring: SignedQuery,
        response: { 200: binary('image/png', 'The picture.'), ...fileProblems },
      },
    },
    async (request, reply) => {
      const { id, locale } = request.params;
      return serve(services, request, reply, id, featureGraphicFileName(locale), `${id}-${locale}-${FEATURE_GRAPHIC_NAME}`);
    },
  );
}
