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
 * The layers of src/, bottom up (src/README.md, ARCHITECTURE.md): a value import may only go down or
 * stay in its layer. `main.ts` is the top; the other files at the root of src/ (the service, its
 * configuration and process setup) sit with the entry points. A folder not listed here fails the
 * test, so a new one is placed on purpose.
 */
const LAYERS: string[][] = [
  ['core'],
  ['db', 'objects', 'stores', 'secrets', 'metrics'],
  ['accounts', 'apps', 'users', 'brand', 'screens'],
  ['rendering'],
  ['captions'],
  ['planning'],
  ['queue', 'tasks'],
  ['sets', 'publishing', 'webhooks', 'fake-stores'],
  ['http', 'api', 'dashboard'],
  ['cli', 'client', '(root)'],
  ['main.ts'],
];
/** The folder (or `main.ts`, or `(root)` for the other root files) a path under src/ belongs to. */
const unitOf = (f: string): string => (f.includes('/') ? f.split('/')[0] : f === 'main.ts' ? 'main.ts' : '(root)');
const layerOf = (unit: string): number => LAYERS.findIndex((l) => l.includes(unit));
const FOLDERS = [...new Set(files.filter((f) => f.includes('/')).map((f) => f.split('/')[0]))];
const HTTP_LAYERS = new Set(['http', 'api', 'dashboard', 'cli', 'client']);
const DOMAIN = FOLDERS.filter((d) => !HTTP_LAYERS.has(d)).map((d) => `${d}/`);

/** Value imports between units, each edge with the files that make it. */
function unitEdges(): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const f of files)
    for (const i of importsOf(f, false)) {
      const [a, b] = [unitOf(f), unitOf(i)];
      if (a === b) continue;
      const key = `${a} -> ${b}`;
      edges.set(key, [...(edges.get(key) ?? []), `${f} -> ${i}`]);
    }
  return edges;
}

describe('architecture', () => {
  it('places every folder of src/ in a layer', () => {
    expect(FOLDERS.filter((d) => layerOf(d) < 0)).toEqual([]);
    for (const d of ['core/', 'sets/', 'queue/', 'captions/', 'planning/', 'rendering/', 'publishing/']) expect(DOMAIN).toContain(d);
  });

  it('names every folder of src/ in src/README.md', () => {
    const map = readFileSync(path.join(SRC, 'README.md'), 'utf8');
    expect(FOLDERS.filter((d) => !map.includes(`\`${d}/\``))).toEqual([]);
  });

  it('value imports only go down the layers (type-only imports aside)', () => {
    const climbs = [...unitEdges()]
      .filter(([key]) => {
        const [a, b] = key.split(' -> ');
        return layerOf(b) > layerOf(a);
      })
      .flatMap(([, via]) => via);
    expect(climbs).toEqual([]);
  });

  it('has no value cycle between folders but the http <-> api mount', () => {
    const edges = unitEdges();
    const next = new Map<string, string[]>();
    for (const key of edges.keys()) {
      const [a, b] = key.split(' -> ');
      if (a === 'http' && b === 'api') continue; // the deliberate mount: http/server.ts registers the API plugin
      next.set(a, [...(next.get(a) ?? []), b]);
    }
    const cycles: string[] = [];
    const state = new Map<string, 'visiting' | 'done'>();
    const visit = (u: string, trail: string[]) => {
      if (state.get(u) === 'done') return;
      if (state.get(u) === 'visiting') return void cycles.push([...trail.slice(trail.indexOf(u)), u].join(' -> '));
      state.set(u, 'visiting');
      for (const n of next.get(u) ?? []) visit(n, [...trail, u]);
      state.set(u, 'done');
    };
    for (const u of next.keys()) visit(u, []);
    expect(cycles).toEqual([]);
  });

  it('route handlers take their types from the schema: no `as Static<…>` casts', () => {
    const casts = files.filter((f) => /\bas Static</.test(readFileSync(path.join(SRC, f), 'utf8')));
    expect(casts).toEqual([]);
  });

  it('core/ imports nothing outside core/ (types included)', () => {
    const offences = files
      .filter((f) => f.startsWith('core/'))
      .flatMap((f) =>
        importsOf(f, true)
          .filter((i) => !i.startsWith('core/'))
          .map((i) => `${f} -> ${i}`),
      );
    expect(offences).toEqual([]);
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
