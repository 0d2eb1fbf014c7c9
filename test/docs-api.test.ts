/** docs/api.md is what `npm run docs:api` writes from openapi.json (itself checked against the served document). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderApiDocs } from '../scripts/api-docs.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

describe('docs/api.md', () => {
  it('is current: run `npm run docs:api` after changing the API', () => {
    const doc = JSON.parse(readFileSync(path.join(ROOT, 'openapi.json'), 'utf8'));
    expect(readFileSync(path.join(ROOT, 'docs/api.md'), 'utf8')).toBe(renderApiDocs(doc));
  });

  it('names every operation of the document, with its statuses', () => {
    const doc = JSON.parse(readFileSync(path.join(ROOT, 'openapi.json'), 'utf8')) as { paths: Record<string, Record<string, unknown>> };
    const text = renderApiDocs(doc as never);
    for (const [p, item] of Object.entries(doc.paths))
      for (const method of Object.keys(item).filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m)))
        expect(text).toContain(`### \`${method.toUpperCase()} ${p}\``);
    expect(text).toContain('| 402 | Fewer credits remain');
  });
});
