/**
 * Pictures across processes, as deployed: an API process and a worker process that share only
 * PostgreSQL and an S3 bucket (each has its own DATA_DIR, so nothing passes through local files),
 * and a worker killed with SIGKILL in the middle of rendering.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type Serve } from '../cli/helpers.ts';
import { createTestDatabase, primaryServer, type TestDatabase, type TestServer } from '../support/db.ts';
import { solidPng } from '../support/fake-images.ts';
import { accountWithKey, insertApp, sampleListing } from '../support/fixtures.ts';
import { ledger, until } from '../support/jobs.ts';
import { shotgen, type Child } from '../support/processes.ts';
import { emptyScreenshots } from '../../src/core/listing.ts';
import { startS3, type TestS3 } from '../objects/support.ts';
import { scaled } from '../support/timing.ts';

let s3: TestS3 | null = null;
let s3Error = '';
beforeAll(async () => {
  const started = await startS3();
  if ('error' in started) s3Error = started.error;
  else s3 = started;
});
afterAll(async () => s3?.close());

let t: TestDatabase;
let key: string;
let accountId: string;
let appId: string;
const dirs: string[] = [];
const children: (Child | Serve)[] = [];
const scratch = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'shotgen-proc-'));
  dirs.push(d);
  return d;
};

async function seed(server: TestServer) {
  t = await createTestDatabase(server);
  const a = await accountWithKey(t.pool, 'pro');
  [key, accountId] = [a.key, a.account.id];
  appId = await insertApp(t.pool, accountId, sampleListing({ screenshots: emptyScreenshots() }));
}
afterEach(async () => {
  for (const c of children.splice(0)) {
    if (!('terminate' in c)) {
      await c.stop('SIGKILL');
      continue;
    }
    // A graceful stop that hangs is a defect of its own: say so, and do not leave the process behind.
    const hung = new Promise<'hung'>((r) => setTimeout(() => r('hung'), 20_000).unref());
    if ((await Promise.race([c.terminate(), hung])) === 'hung') {
      c.proc.kill('SIGKILL');
      throw new Error('the API process did not stop within 20 s of SIGTERM');
    }
  }
  await t?.drop();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const auth = () => ({ authorization: `Bearer ${key}` });

async function api(env: Record<string, string>): Promise<string> {
  const serve = await startServe(
    { DATABASE_URL: t.url, DATA_DIR: scratch(), PORT: '0', LOG_LEVEL: 'warn', RATE_LIMIT_PER_SECOND: '100000', ...env },
    ['--role', 'api'],
  );
  children.push(serve);
  return `${serve.address}/api/v1/public/v1`;
}

function worker(env: Record<string, string>): Child {
  const c = shotgen(['--json', 'serve', '--role', 'worker'], {
    DATABASE_URL: t.url,
    DATA_DIR: scratch(),
    PORT: '0',
    HOST: '127.0.0.1',
    WORKER_CONCURRENCY: '1',
    ...env,
  });
  children.push(c);
  return c;
}

/** Own captions on text slides: the listing has no screenshots and the workers must stay off the network. */
const textSlides = (n: number) => Array.from({ length: n }, (_, i) => ({ headline: `Plan meals, step ${i + 1}` }));

async function createSet(base: string, body: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${base}/screenshots`, {
    method: 'POST',
    headers: { ...auth(), 'content-type': 'application/json' },
    body: JSON.stringify({ appId, device: 'iphone-69', ...body }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { jobId: string }).jobId;
}

async function waitForEnd(base: string, jobId: string) {
  return until(async () => {
    const job = (await (await fetch(`${base}/jobs/${jobId}`, { headers: { ...auth(), prefer: 'wait=20' } })).json()) as {
      status: string;
      result: { slides: { image: { url: string; sha256: string } }[]; archive: { url: string } };
    };
    return job.status === 'succeeded' || job.status === 'failed' ? job : null;
  }, scaled(90_000));
}

// The primary server only: S3 and two processes are what this adds; the SQL under it runs on both
// servers in the jobs and queue tests.
for (const server of [primaryServer()])
  describe(`an API process and a worker process sharing an S3 bucket, on the ${server.name} server`, () => {
    it(
      'the API stores an upload the worker frames, and serves the pictures the worker rendered',
      async (ctx) => {
        if (!s3) {
          // CI always has s3rver (an npm devDependency): there, not starting is a failure, not a skip.
          if (process.env.CI) throw new Error(`s3rver could not start: ${s3Error}`);
          console.warn(`skipping the S3 process test: s3rver could not start (${s3Error})`);
          return ctx.skip();
        }
        await seed(server);
        // The worker starts while the API does: neither waits for the other.
        worker(s3.env);
        const base = await api(s3.env);
        const upload = await fetch(`${base}/apps/${appId}/screens`, {
          method: 'POST',
          headers: { ...auth(), 'content-type': 'image/png' },
          body: new Uint8Array(await solidPng(1290, 2796, 'red')),
        });
        expect(upload.status).toBe(201);
        const jobId = await createSet(base, { slides: textSlides(2) });
        const job = await waitForEnd(base, jobId);
        expect(job.status).toBe('succeeded');
        for (const slide of job.result.slides) {
          const res = await fetch(slide.image.url);
          expect(res.status).toBe(200);
          expect(res.headers.get('etag')).toBe(`"${slide.image.sha256}"`);
          expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(10_000);
        }
        const zip = await fetch(job.result.archive.url);
        expect(zip.status).toBe(200);
        expect((await zip.arrayBuffer()).byteLength).toBeGreaterThan(10_000);
      },
      scaled(120_000),
    );
  });

describe('a worker killed while it renders', () => {
  it(
    'leaves no half-visible set: another worker renders again, the job is charged once, the dead attempt’s files are gone',
    async () => {
      await seed(primaryServer());
      const dataDir = scratch();
      // Short, so its job comes back soon after the kill; scaled, so that a loaded machine delaying
      // this worker's heartbeats does not let a sweep take the job before the kill (a third attempt).
      const env = { DATA_DIR: dataDir, JOB_LEASE_MS: String(scaled(1_500)) };
      // The worker starts while the API does: neither waits for the other.
      const doomed = worker(env);
      const base = await api({ DATA_DIR: dataDir });
      await doomed.printed('"role":"worker"');
      // Six slides leave the kill a window of four (it waits for two stored, polling every 10 ms, and
      // a full-size slide takes far longer to draw); ten drew four more full-size slides twice.
      const jobId = await createSet(base, { slides: textSlides(6) });
      // Killed once the first slides are stored and the rest are still being drawn.
      await until(
        async () => {
          const job = (await (await fetch(`${base}/jobs/${jobId}`, { headers: auth() })).json()) as {
            progress: { done: number; total: number } | null;
          };
          return job.progress && job.progress.done >= 2 && job.progress.done < job.progress.total;
        },
        60_000,
        10,
      );
      doomed.proc.kill('SIGKILL');
      await doomed.exited;
      const seen = await (await fetch(`${base}/jobs/${jobId}`, { headers: auth() })).json();
      expect(seen.status).toBe('running');
      expect(seen.result).toBeNull();
      // The dead worker's short lease brings its job back soon; the new worker's own lease is long, so
      // that a loaded machine delaying its heartbeats cannot make it lose the job (a third attempt).
      worker({ ...env, JOB_LEASE_MS: String(scaled(10_000)) });
      const job = await waitForEnd(base, jobId);
      expect(job.status, JSON.stringify(job)).toBe('succeeded');
      // A thin listing may give fewer than 6 slides (the planner says so in a warning).
      expect(job.result.slides.length).toBeGreaterThanOrEqual(3);
      const { rows } = await t.pool.query('SELECT attempts FROM jobs WHERE id = $1', [jobId]);
      expect(rows[0].attempts).toBe(2);
      expect(await ledger(t.pool, accountId)).toEqual([{ kind: 'charge', job_id: jobId, amount: 5 }]);
      const files = await t.pool.query<{ object_key: string }>('SELECT object_key FROM job_files WHERE job_id = $1', [jobId]);
      expect(files.rows.every((f) => f.object_key.startsWith(`jobs/${jobId}/a2/`))).toBe(true);
      expect(fs.existsSync(path.join(dataDir, 'objects', 'jobs', jobId, 'a1'))).toBe(false);
      for (const slide of job.result.slides) {
        const res = await fetch(slide.image.url);
        expect(res.status).toBe(200);
        await res.arrayBuffer();
      }
    },
    scaled(120_000),
  );
});
