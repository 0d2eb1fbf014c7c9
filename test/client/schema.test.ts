/**
 * The typed client's types are generated from the document a server serves: regenerating them from
 * a live server must change nothing, so the client and the service cannot drift apart.
 * After changing a route: `UPDATE_CLIENT_SCHEMA=1 npx vitest run test/client/schema.test.ts`.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { generateSchema, SCHEMA_FILE } from '../../clients/typescript/scripts/generate.mjs';
import { createTestApp } from '../support/app.ts';

describe('clients/typescript/src/schema.d.ts', () => {
  it('equals what openapi-typescript generates from the served OpenAPI document', async () => {
    const h = await createTestApp();
    let document: unknown;
    try {
      const res = await h.app.inject({ method: 'GET', url: '/api/v1/public/openapi.json' });
      expect(res.statusCode).toBe(200);
      document = res.json();
    } finally {
      await h.close();
    }
    const generated = await generateSchema(document);
    if (process.env.UPDATE_CLIENT_SCHEMA === '1') await writeFile(SCHEMA_FILE, generated);
    const committed = await readFile(SCHEMA_FILE, 'utf8');
    expect(committed === generated, 'the client is out of date: UPDATE_CLIENT_SCHEMA=1 npx vitest run test/client/schema.test.ts').toBe(
      true,
    );
  });
});
