/** How the API links a job's pictures: signed URLs at the origin the client reached (or PUBLIC_URL). */
import type { FastifyRequest } from 'fastify';
import type { Services } from '../http/services.ts';
import type { PictureLinks } from '../pictures/present.ts';

export function pictureLinks(services: Services, request: FastifyRequest): PictureLinks {
  const origin = services.config.publicUrl ?? `${request.protocol}://${request.host}`;
  const basePath = services.config.basePath;
  return { signer: services.signer, baseUrl: `${origin}${basePath}`, basePath, now: services.clock() };
}
