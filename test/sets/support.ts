/** A test API with a worker that renders: the whole pictures flow on one test database. */
import { Worker } from '../../src/queue/worker.ts';
import { setJobs, type SetWorker } from '../../src/sets/job-queue.ts';
import { screenshotSetRunner } from '../../src/sets/run.ts';
import { planSet } from '../../src/planning/pipeline.ts';
import { RenderPool } from '../../src/rendering/index.ts';
import { createTestApp, type TestApp, type TestAppOptions } from '../support/app.ts';

let shared: RenderPool | null = null;
/** One rendering pool per test file: its threads take a moment to start. */
export const renderPool = (): RenderPool => (shared ??= new RenderPool({ threads: 2 }));
export const closeRenderPool = async () => {
  await shared?.close();
  shared = null;
};

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
    planner: { plan: (input) => planSet(input, opts.llm ? { ...opts.llm, timeoutMs: 2_000 } : null) },
    pictures: {
      objects: h.services.objects,
      renderer: renderPool(),
      storeImageOrigins: opts.storeImageOrigins ?? [],
      storeImageTimeoutMs: opts.storeImageTimeoutMs,
      now: () => new Date(),
    },
  });
  const worker = new Worker(h.t.pool, h.notifications, runner, { queue: setJobs, concurrency: 2, leaseMs: 60_000, retryDelayMs: () => 10 });
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
