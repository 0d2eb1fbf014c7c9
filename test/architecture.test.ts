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

const DOMAIN = ['accounts/', 'apps/', 'stores/', 'planning/', 'jobs/', 'db/', 'rendering/', 'metrics/', 'webhooks/'];

describe('architecture', () => {
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
