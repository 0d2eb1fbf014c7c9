/** The import rules the developers' guide sets, checked on the source rather than remembered. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../src');
const files = (readdirSync(SRC, { recursive: true }) as string[])
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
  .map((f) => f.split(path.sep).join('/'));

/** Relative imports of a file, resolved to paths under src/; `import type` ones only when asked. */
function importsOf(file: string, withTypes: boolean): string[] {
  const text = readFileSync(path.join(SRC, file), 'utf8');
  const found: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(import|export)\s+(type\s+)?[^'"]*?from\s+'(\.{1,2}\/[^']+)'|import\('(\.{1,2}\/[^']+)'\)/g)) {
    const spec = m[3] ?? m[4];
    if (m[2] && !withTypes) continue;
    found.push(path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)));
  }
  return found;
}

/**
 * The layers that face HTTP (and the command line that starts them); every other folder under
 * src/ is a domain folder, today's and any added later (brand, captions, revisions, publishing…),
 * without a list to keep up to date.
 */
const HTTP_LAYERS = new Set(['http', 'api', 'dashboard', 'cli', 'client']);
const DOMAIN = [...new Set(files.filter((f) => f.includes('/')).map((f) => f.split('/')[0]))]
  .filter((d) => !HTTP_LAYERS.has(d))
  .map((d) => `${d}/`);

describe('architecture', () => {
  it('knows the domain folders from src/ itself', () => {
    for (const d of ['accounts/', 'sets/', 'planning/', 'rendering/', 'webhooks/', 'users/', 'screens/', 'brand/', 'publishing/'])
      expect(DOMAIN).toContain(d);
    expect(DOMAIN.some((d) => HTTP_LAYERS.has(d.slice(0, -1)))).toBe(false);
  });

  it('domain folders never import http/, api/ or dashboard/ (types included)', () => {
    const offences = files
      .filter((f) => DOMAIN.some((d) => f.startsWith(d)))
      .flatMap((f) =>
        importsOf(f, true)
          .filter((i) => /^(http|api|dashboard)\//.test(i))
          .map((i) => `${f} -> ${i}`),
      );
    expect(offences).toEqual([]);
  });

  it('the parts never import the server that mounts them (types included): no http <-> api cycle', () => {
    const offences = files
      .filter((f) => !f.startsWith('http/'))
      .flatMap((f) =>
        importsOf(f, true)
          .filter((i) => i === 'http/server.ts' && f !== 'service.ts')
          .map((i) => `${f} -> ${i}`),
      );
    expect(offences).toEqual([]);
  });

  it('has no import cycle between modules (type-only imports aside)', () => {
    const graph = new Map(files.map((f) => [f, importsOf(f, false).filter((i) => files.includes(i))]));
    const cycles: string[] = [];
    const state = new Map<string, 'visiting' | 'done'>();
    const visit = (f: string, trail: string[]) => {
      if (state.get(f) === 'done') return;
      if (state.get(f) === 'visiting') {
        cycles.push([...trail.slice(trail.indexOf(f)), f].join(' -> '));
        return;
      }
      state.set(f, 'visiting');
      for (const next of graph.get(f) ?? []) visit(next, [...trail, f]);
      state.set(f, 'done');
    };
    for (const f of files) visit(f, []);
    expect(cycles).toEqual([]);
  });
});
