/** A test API with a worker that renders: the whole pictures flow on one test database. */
import { Worker } from '../../src/queue/worker.ts';
import { setJobs, type SetWorker } from '../../src/sets/job-queue.ts';
import { screenshotSetRunner } from '../../src/sets/run.ts';
import { planSet } from '../../src/planning/pipeline.ts';
import { renderPool } from '../support/render-pool.ts';
import yauzl from 'yauzl';
import { createTestApp, type TestApp, type TestAppOptions } from '../support/app.ts';
import { until } from '../support/jobs.ts';
import { scaled } from '../support/timing.ts';

/** The test process's rendering pool (../support/render-pool.ts). */
export { renderPool };

export interface PicturesApp extends TestApp {
  worker: SetWorker;
}

export async function createPicturesApp(
  opts: TestAppOptions & { storeImageOrigins?: string[]; storeImageTimeoutMs?: number; worker?: boolean; previews?: boolean } = {},
): Promise<PicturesApp> {
  // The previews share the test's pool; closing the app must not close it.
  const previewRenderer = opts.previews ? { preview: renderPool().preview.bind(renderPool()), close: async () => undefined } : undefined;
  const h = await createTestApp({ ...opts, previewRenderer });
  const runner = screenshotSetRunner({
    db: h.t.pool,
    planner: { plan: (input) => planSet(input, opts.llm ? { ...opts.llm, timeoutMs: scaled(2_000) } : null) },
    pictures: {
      objects: h.services.objects,
      renderer: renderPool(),
      storeImageOrigins: opts.storeImageOrigins ?? [],
      storeImageTimeoutMs: opts.storeImageTimeoutMs,
      now: () => new Date(),
    },
    screenReader: h.services.screenReader ?? null,
  });
  // A retry due at once: the worker claims it as the failed attempt ends. One due later, even by
  // 10 ms, waits for the worker's next poll (a second), once per retry.
  const worker = new Worker(h.t.pool, h.notifications, runner, { queue: setJobs, concurrency: 2, leaseMs: 60_000, retryDelayMs: () => 0 });
  if (opts.worker !== false) worker.start();
  const close = h.close;
  return {
    ...h,
    worker,
    async close() {
      await worker.stop(5_000);
      await close();
    },
  };
}

/** The job once it has ended (long polls of 10 s until then). */
export async function finishedJob(h: TestApp, jobId: string) {
  return until(async () => {
    const job = (
      await h.app.inject({ method: 'GET', url: `/api/v1/public/v1/jobs/${jobId}`, headers: { ...h.auth, prefer: 'wait=10' } })
    ).json();
    return job.status === 'succeeded' || job.status === 'failed' ? job : null;
  }, scaled(60_000));
}

/** A signed file URL's bytes, fetched through the API as a client would. */
export async function fetchSigned(h: TestApp, url: string): Promise<Buffer> {
  const u = new URL(url);
  return (await h.app.inject({ method: 'GET', url: u.pathname + u.search })).rawPayload;
}

/** The file names in a ZIP, sorted. */
export const zipNames = (zip: Buffer) =>
  new Promise<string[]>((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, file) => {
      if (err || !file) return reject(err);
      const names: string[] = [];
      file.on('entry', (e: yauzl.Entry) => {
        names.push(e.fileName);
        file.readEntry();
      });
      file.on('end', () => resolve(names.sort()));
      file.readEntry();
    });
  });
