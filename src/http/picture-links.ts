/**
 * How a page or an API answer links a job's pictures: signed URLs under BASE_PATH, at the origin
 * the client reached (or PUBLIC_URL when set).
 */
import type { FastifyRequest } from 'fastify';
import type { Clock } from '../accounts/credits.ts';
import type { PictureLinks } from '../sets/present.ts';
import type { UrlSigner } from '../sets/signed-urls.ts';

export interface LinkServices {
  config: { basePath: string; publicUrl?: string | null };
  signer: UrlSigner;
  clock: Clock;
}

export function pictureLinks(services: LinkServices, request: FastifyRequest): PictureLinks {
  const origin = services.config.publicUrl ?? `${request.protocol}://${request.host}`;
  const basePath = services.config.basePath;
  return { signer: services.signer, origin, basePath, now: services.clock() };
}
