/**
 * `shotgen demo` end to end, as a new user runs it: a child process of bin/shotgen.js on a test
 * database, with the stores and their image hosts pointed at recording fakes that must see nothing.
 * Once alone (it starts its server and keeps it for the dashboard until SIGTERM), once beside
 * `shotgen serve` (it uses that server).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { startFakeImageHost, type FakeImageHost } from '../support/fake-images.ts';
import { startFakeStore, type FakeStore } from '../support/fake-store.ts';
import { scaled } from '../support/timing.ts';
import { freePort, ROOT, shotgen, startServe } from './helpers.ts';

interface DemoOutput {
  server: string;
  dashboard: string;
  signIn: { url: string; email: string; password: string };
  apiKey: string;
  accountId: string;
  appId: string;
  jobId: string;
  zip: string;
  slides: string[];
  headlines: string[];
  serving: boolean;
}

let t: TestDatabase;
let store: FakeStore;
let images: FakeImageHost;
const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotgen-demo-'));
  dirs.push(dir);
  return dir;
};

beforeAll(async () => {
  t = await createTestDatabase();
  store = await startFakeStore();
  images = await startFakeImageHost();
});
afterAll(async () => {
  await images?.close();
  await store?.close();
  await t?.drop();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** The environment of a machine whose only reachable "stores" are recorders. */
const offline = () => ({
  DATA_DIR: tempDir(),
  DATABASE_URL: t.url,
  HOST: '127.0.0.1',
  APP_STORE_LOOKUP_URL: store.appStoreLookupUrl,
  GOOGLE_PLAY_URL: store.googlePlayUrl,
  STORE_IMAGE_ORIGINS: images.origin,
});

/** What a finished demo must have left: the ZIP of the set it says, its slides, the app as made from its listing. */
async function expectFinished(demo: DemoOutput) {
  const { rows } = await t.pool.query(
    `SELECT j.status, j.result, a.own_listing, a.icon, a.ios_listing, a.account_id,
       (SELECT count(*)::int FROM screens s WHERE s.app_id = a.id) AS screens,
       (SELECT count(*)::int FROM users u WHERE u.account_id = a.account_id) AS users
     FROM jobs j JOIN apps a ON a.id = j.app_id WHERE j.id = $1`,
    [demo.jobId],
  );
  const job = rows[0];
  expect(job).toMatchObject({ status: 'succeeded', account_id: demo.accountId, ios_listing: null, screens: 5, users: 1 });
  expect(job.own_listing).toMatchObject({ name: 'Fernly', category: 'Lifestyle', language: 'en-US', price: '0' });
  expect(job.icon).toMatchObject({ width: 1024, height: 1024 });
  // The colours are the uploaded icon's: nothing was fetched for it.
  expect(job.result.brand.source).toBe('icon');
  expect(job.result.slides.map((s: { headline: string }) => s.headline)).toEqual(demo.headlines);
  expect(demo.headlines).toHaveLength(5);
  const zip = fs.readFileSync(demo.zip);
  const { rows: files } = await t.pool.query(`SELECT sha256 FROM job_files WHERE job_id = $1 AND name = 'archive.zip'`, [demo.jobId]);
  expect(createHash('sha256').update(zip).digest('hex')).toBe(files[0].sha256);
  expect(demo.slides).toHaveLength(5);
  for (const slide of demo.slides) expect(await sharp(slide).metadata()).toMatchObject({ width: 1320, height: 2868, format: 'png' });
  expect(store.requests).toEqual([]);
  expect(images.requests).toEqual([]);
}

describe('shotgen demo', () => {
  it(
    'alone: starts a server, makes the set from the bundled listing, downloads the ZIP, serves the dashboard until SIGTERM',
    async () => {
      const out = tempDir();
      const bin = path.join(ROOT, 'bin', 'shotgen.js');
      const child = spawn(process.execPath, [bin, 'demo', '--json', '--out', out], {
        cwd: ROOT,
        env: { ...process.env, ...offline(), PORT: '0' },
      });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const exited = once(child, 'exit');
      const demo = await new Promise<DemoOutput>((resolve, reject) => {
        readline.createInterface({ input: child.stdout }).on('line', (line) => resolve(JSON.parse(line) as DemoOutput));
        void exited.then(([code]) => reject(new Error(`demo exited (${code}) before printing: ${stderr}`)));
      });
      try {
        expect(demo.serving).toBe(true);
        expect(path.dirname(demo.zip)).toBe(out);
        expect(demo.dashboard).toBe(`${demo.server}/sets/${demo.jobId}`);
        expect(stderr).toContain('from its listing text: no store asked');
        await expectFinished(demo);
        // The dashboard it prints is up: its sign-in page, and the set page once signed in.
        const signIn = await fetch(demo.signIn.url);
        expect(signIn.status).toBe(200);
        const set = await fetch(demo.dashboard, { redirect: 'manual' });
        expect([set.status, set.headers.get('location')]).toEqual([303, `/sign-in?next=${encodeURIComponent(`/sets/${demo.jobId}`)}`]);
      } finally {
        child.kill('SIGTERM');
      }
      const [code] = (await exited) as [number | null];
      expect(code, stderr).toBe(0);
    },
    scaled(180_000),
  );

  it(
    'beside `shotgen serve`: uses that server, and ends when the set is downloaded',
    async () => {
      const env = { ...offline(), PORT: String(await freePort()) };
      const serve = await startServe(env);
      try {
        const out = tempDir();
        const r = await shotgen(['demo', '--json', '--out', out], env);
        expect(r.code, r.stderr).toBe(0);
        const demo = JSON.parse(r.stdout) as DemoOutput;
        expect(demo).toMatchObject({ server: `http://127.0.0.1:${env.PORT}`, serving: false });
        expect(r.stderr).toContain(`using the server at http://127.0.0.1:${env.PORT}`);
        await expectFinished(demo);
      } finally {
        expect(await serve.terminate()).toBe(0);
      }
    },
    scaled(180_000),
  );
});
