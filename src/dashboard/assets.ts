/**
 * The dashboard's one stylesheet and one script, read once at start. They sit beside this module,
 * in src/dashboard/assets/ (a build to dist/ must copy that folder, as it copies the migrations).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'assets');

const ASSETS = {
  'dashboard.css': 'text/css; charset=utf-8',
  'dashboard.js': 'text/javascript; charset=utf-8',
  'editor.js': 'text/javascript; charset=utf-8',
  'publication.js': 'text/javascript; charset=utf-8',
  'favicon.svg': 'image/svg+xml',
} as const;

export function serveAssets(app: FastifyInstance): void {
  for (const [name, type] of Object.entries(ASSETS)) {
    const body = fs.readFileSync(path.join(DIR, name));
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
    app.get(`/assets/${name}`, async (request, reply) => {
      reply.header('cache-control', 'public, max-age=300').header('etag', etag).type(type);
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      return reply.send(body);
    });
  }
}
