import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { openapiDocument, openapiText } from '../../src/http/openapi-document.ts';
import { createTestApp } from '../support/app.ts';

describe('the committed openapi.json', () => {
  it('equals the document built without a database; run `npm run openapi` after changing a schema', async () => {
    const committed = await readFile(new URL('../../openapi.json', import.meta.url), 'utf8');
    expect(committed).toBe(openapiText(await openapiDocument()));
  });

  it('equals what a running server serves', async () => {
    const h = await createTestApp();
    try {
      const served = (await h.app.inject({ method: 'GET', url: '/api/v1/public/openapi.json' })).json();
      expect(served).toEqual(await openapiDocument());
    } finally {
      await h.close();
    }
  });
});
