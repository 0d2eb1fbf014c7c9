/**
 * A succeeded job's pictures: each slide's PNG and the set's ZIP. With the API key, or without it
 * through the signed URL the job's result holds. Streamed from the object store, never held whole
 * in memory; the sha256 is the ETag, and the bytes never change, so caches may keep them.
 */
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { principalOf } from '../http/auth.ts';
import type { Api, Services } from '../http/services.ts';
import { isId } from '../core/ids.ts';
import { ARCHIVE_NAME, findJobFile, slideFileName } from '../sets/files.ts';
import { Problem } from '../core/problem.ts';
import { VARIANT_NAME, variantArchive } from '../sets/variant-archive.ts';
import { commonProblems, problemExample, problemRef, RETRY_AFTER } from './schemas.ts';

const CACHE_CONTROL = 'private, max-age=604800, immutable';

export const SignedQuery = Type.Object({
  expires: Type.Optional(Type.String({ description: 'Unix seconds; part of a signed URL.' })),
  sig: Type.Optional(Type.String({ description: 'HMAC-SHA256 of the method, path and expiry, base64url; part of a signed URL.' })),
});

export const binary = (type: string, description: string) => ({
  description,
  headers: {
    ETag: { type: 'string', description: 'The sha256 of the bytes, quoted.' },
    'Cache-Control': { type: 'string', description: `\`${CACHE_CONTROL}\`` },
    'x-request-id': { type: 'string' },
  },
  content: { [type]: { schema: { type: 'string', format: 'binary' } } },
});

export const fileProblems = {
  ...commonProblems,
  304: {
    description: 'Not modified: the If-None-Match ETag is current.',
    headers: { ETag: { type: 'string' }, 'x-request-id': { type: 'string' } },
  },
  403: problemRef(
    'A signed URL whose signature does not match, or that has expired (`invalid_signature`).',
    problemExample('invalid_signature', 'This signed URL has expired; poll the job for a fresh one.'),
  ),
  404: problemRef('No such job on this account, or it has no such picture (yet) (`job_not_found`).'),
  503: problemRef('The database or the picture storage is unreachable (`service_unavailable`).', undefined, RETRY_AFTER),
};

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

/** The account the request reads as, or null for a valid signed URL (which names the job, any account's). */
function readerOf(services: Services, request: FastifyRequest): string | null {
  const { expires, sig } = request.query as { expires?: string; sig?: string };
  if (expires === undefined && sig === undefined) return principalOf(request).accountId;
  const path = request.url.split('?')[0];
  const verdict = services.signer.verify(request.method, path, expires ?? '', sig ?? '', services.clock());
  if (verdict === 'expired') throw new Problem('invalid_signature', 'This signed URL has expired; poll the job for a fresh one.');
  if (verdict !== 'ok') throw new Problem('invalid_signature', 'The signature does not match this URL.');
  return null; // the signature names the job; anyone holding the URL may read this file
}

export async function serve(
  services: Services,
  request: FastifyRequest,
  reply: FastifyReply,
  jobId: string,
  name: string,
  download: string,
) {
  const accountId = readerOf(services, request);
  const file = isId('job', jobId) ? await findJobFile(services.db, accountId, jobId, name) : null;
  if (!file) throw new Problem('job_not_found', `No ${name} of a succeeded job ${jobId} on this account.`);
  const etag = `"${file.sha256}"`;
  reply.header('etag', etag).header('cache-control', CACHE_CONTROL);
  if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
  const object = await services.objects.get(file.objectKey);
  if (!object) {
    request.log.error({ jobId, name, key: file.objectKey }, 'a recorded picture is missing from the object store');
    throw new Problem('job_not_found', `${name} of job ${jobId} is no longer stored.`);
  }
  return reply
    .type(file.contentType)
    .header('content-length', object.bytes)
    .header('content-disposition', `${name.endsWith('.zip') ? 'attachment' : 'inline'}; filename="${download}"`)
    .send(object.body);
}

const SLIDE_FILE = '^([1-9]|10)\\.(png|jpg)$';
const slideName = (file: string, locale: string | null) =>
  slideFileName(Number(file.split('.')[0]), locale, file.endsWith('.jpg') ? 'jpg' : 'png');

export function getJobFiles(api: Api, services: Services) {
  const config = { auth: 'key-or-signature' as const };
  api.get(
    '/public/v1/jobs/:id/slides/:file',
    {
      config,
      schema: {
        operationId: 'getSlideImage',
        summary: 'Download one rendered slide (PNG)',
        description:
          "With the API key, or without it through the signed URL in `result.slides[i].image.url`. With `locales`, these are the first locale's slides.",
        tags: ['jobs'],
        security: [{ bearerAuth: [] }, { apiKeyHeader: [] }, {}],
        params: Type.Object({
          id: Type.String(),
          file: Type.String({
            pattern: SLIDE_FILE,
            description: '`{index}.png` (or `.jpg`, as `image.url` names it), index 1..10.',
            examples: ['1.png'],
          }),
        }),
        querystring: SignedQuery,
        response: { 200: binary('image/png', 'The slide: the device’s exact size, 8-bit sRGB, no alpha.'), ...fileProblems },
      },
    },
    async (request, reply) => {
      const { id, file } = request.params as { id: string; file: string };
      return serve(services, request, reply, id, slideName(file, null), `${id}-${file}`);
    },
  );
  api.get(
    '/public/v1/jobs/:id/locales/:locale/slides/:file',
    {
      config,
      schema: {
        operationId: 'getLocaleSlideImage',
        summary: 'Download one rendered slide of another locale (PNG)',
        description:
          "For a set created with `locales`: the slides of each locale after the first (the first locale's are at /slides/{index}.png).",
        tags: ['jobs'],
        security: [{ bearerAuth: [] }, { apiKeyHeader: [] }, {}],
        params: Type.Object({
          id: Type.String(),
          locale: Type.String({ pattern: '^[a-z]{2,3}-[A-Z]{2}$', examples: ['de-DE'] }),
          file: Type.String({ pattern: SLIDE_FILE, examples: ['1.png'] }),
        }),
        querystring: SignedQuery,
        response: { 200: binary('image/png', 'The slide.'), ...fileProblems },
      },
    },
    async (request, reply) => {
      const { id, locale, file } = request.params as { id: string; locale: string; file: string };
      return serve(services, request, reply, id, slideName(file, locale), `${id}-${locale}-${file}`);
    },
  );
  api.get(
    '/public/v1/jobs/:id/archive.zip',
    {
      config,
      schema: {
        operationId: 'getSetArchive',
        summary: 'Download the whole set as a ZIP (fastlane layout)',
        description:
          '`{locale}/{index}_{device}_{role}.png` for App Store devices, `android/{locale}/images/{phoneScreenshots|tenInchScreenshots}/{index}_{role}.png` for Google Play (index in two digits, so that alphabetical order is slide order), plus `plan.json`.',
        tags: ['jobs'],
        security: [{ bearerAuth: [] }, { apiKeyHeader: [] }, {}],
        params: Type.Object({ id: Type.String() }),
        querystring: Type.Object({
          ...SignedQuery.properties,
          variant: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 100,
              pattern: VARIANT_NAME,
              description:
                'Android sets only: the ZIP for one Google Play custom store listing or store listing experiment variant, which Play has no API for (`store_api_unsupported`): `android/variants/{variant}/{locale}/images/{phoneScreenshots|tenInchScreenshots}/{index}_{role}.png` and each locale’s `featureGraphic.png`, made from the set’s slides when downloaded. An App Store set answers 400. The set’s signed archive URL serves it too.',
              examples: ['Students'],
            }),
          ),
        }),
        response: {
          200: binary('application/zip', 'The ZIP. With `variant`, its ETag is a digest of its entries.'),
          ...fileProblems,
          400: problemRef(
            'A `variant` that is not one safe path segment of 1-100 characters, or `variant` on an App Store set (`validation_failed`).',
          ),
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params as { id: string };
      const { variant } = request.query as { variant?: string };
      if (variant === undefined) return serve(services, request, reply, id, ARCHIVE_NAME, `${id}.zip`);
      const zip = await variantArchive(services.db, services.objects, readerOf(services, request), id, variant);
      const etag = `"${zip.etag}"`;
      reply.header('etag', etag).header('cache-control', CACHE_CONTROL);
      if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
      const { bytes, body } = await zip.open();
      return reply
        .type('application/zip')
        .header('content-length', bytes)
        .header('content-disposition', `attachment; filename="${id}-${variant}.zip"`)
        .send(body);
    },
  );
}
