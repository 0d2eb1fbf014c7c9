/**
 * Production runs the JavaScript that `npm install` builds into dist/ (the `prepare` script), not
 * the TypeScript sources: the built service must start and answer on its embedded database.
 * `npm test` builds first, so dist/ is current here.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from './helpers.ts';
import { distIsFresh } from '../support/dist.ts';
import { scaled } from '../support/timing.ts';

const DIST_MAIN = path.join(ROOT, 'dist', 'main.js');
/** What bin/shotgen.js runs: dist/main.js and its packages bundled (scripts/bundle.mjs). */
const BUNDLE = path.join(ROOT, 'dist', 'bundle', 'main.js');

describe('the built service (dist/)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotgen-dist-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('exists and is not older than the sources (run `npm run build`)', () => {
    expect(fs.existsSync(DIST_MAIN), 'dist/main.js is missing: run `npm run build`').toBe(true);
    expect(fs.existsSync(BUNDLE), 'dist/bundle/main.js is missing: run `npm run build`').toBe(true);
    // The build is incremental: tsc rewrites only the outputs whose source changed, so main.js may
    // rightly be older than another source. Its build info is rewritten by every build that saw a change.
    expect(distIsFresh(), 'dist/ is older than src/: run `npm run build`').toBe(true);
    expect(fs.existsSync(path.join(ROOT, 'dist', 'db', 'migrations', '001_init.sql'))).toBe(true);
  });

  it(
    '`shotgen serve` from dist/bundle/ runs without tsx and answers /readyz, its migrations and dashboard found',
    async () => {
      const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
      delete env.SHOTGEN_FROM_SOURCE;
      delete env.DATABASE_URL;
      // No loader flags: importing a .ts file would fail here.
      const proc = spawn(process.execPath, [path.join(ROOT, 'bin', 'shotgen.js'), 'serve', '--json'], { cwd: ROOT, env });
      try {
        let out = '';
        let err = '';
        proc.stderr.on('data', (c: Buffer) => (err += c.toString()));
        const address = await new Promise<string>((resolve, reject) => {
          proc.stdout.on('data', (c: Buffer) => {
            out += c.toString();
            const line = out.split('\n').find((l) => l.startsWith('{'));
            if (line) resolve(JSON.parse(line).address);
          });
          proc.on('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
        });
        const res = await fetch(`${address}/readyz`);
        expect(res.status).toBe(200);
        // Files the bundle reads beside the modules it was made from: the dashboard's assets, and
        // the OpenAPI document's info from @fastify/swagger's package.json (scripts/bundle.mjs).
        const css = await fetch(`${address}/assets/dashboard.css`);
        expect([css.status, (await css.text()).length > 0]).toEqual([200, true]);
        const doc = await fetch(`${address}/api/v1/public/openapi.json`);
        expect([doc.status, ((await doc.json()) as { openapi?: string }).openapi]).toMatchObject([200, expect.stringMatching(/^3\./)]);
      } finally {
        proc.kill('SIGTERM');
        await new Promise((r) => proc.once('exit', r));
      }
    },
    scaled(60_000),
  );
});
