/**
 * The OpenAPI document without a database: the same buildServer, with every service absent (the
 * document is built from the route schemas alone, so none is touched). `npm run openapi` writes
 * it to openapi.json; a test keeps that file equal to what a server serves.
 */
import type { Services } from './services.ts';
import { buildServer } from './server.ts';

/** Throws on any use: proves that building the document reaches no service. */
const absent = (name: string) =>
  new Proxy(
    {},
    {
      get: (_target, property) => {
        throw new Error(`the OpenAPI document must not use ${name}.${String(property)}`);
      },
    },
  );

export async function openapiDocument(basePath = '/api/v1'): Promise<Record<string, unknown>> {
  const services = {
    config: { basePath },
    db: absent('db'),
    authenticator: absent('authenticator'),
    accountViews: absent('accountViews'),
    stores: absent('stores'),
    jobs: absent('jobs'),
    notifier: absent('notifier'),
    objects: absent('objects'),
    signer: absent('signer'),
    waiters: absent('waiters'),
    clock: () => new Date(),
  } as unknown as Services;
  const app = await buildServer(services);
  try {
    await app.ready();
    return app.swagger() as unknown as Record<string, unknown>;
  } finally {
    await app.close();
  }
}

/** The committed file's text: stable key order as generated, two-space indent, final newline. */
export const openapiText = (doc: unknown): string => `${JSON.stringify(doc, null, 2)}\n`;
