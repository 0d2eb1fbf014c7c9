/**
 * Editing speed: `npx tsx bench/editing.ts`, and the last part of `npm run bench`. A 10-slide iPhone set framing uploaded screens is
 * rendered once; then (1) POST /previews' work for one slide with a caption edited on every call
 * (p50/p95 over BENCH_PREVIEWS calls, after one warm-up), and (2) a revision changing 1 of the 10
 * slides, from request to completed job, beside the full set's render time.
 *
 * A preview's (and a set's, a revision's) CPU is process.cpuUsage() across the call: this process's every thread (the render
 * thread included, as piscina runs in-process), nothing else running in it meanwhile; the database
 * server's few milliseconds of query are not counted. On a shared machine wall-clock figures include
 * waiting for a core; the CPU figure does not.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { claimJobs, completeJob } from '../src/sets/job-queue.ts';
import { screenshotSetRunner } from '../src/sets/run.ts';
import { createScreenshotSet } from '../src/sets/create.ts';
import { FileObjectStore } from '../src/objects/filesystem.ts';
import { planSet } from '../src/planning/pipeline.ts';
import { RenderPool } from '../src/rendering/index.ts';
import { Previewer } from '../src/sets/revisions/preview.ts';
import { createRevision } from '../src/sets/revisions/revisions.ts';
import { uploadScreen } from '../src/screens/screens.ts';
import { createApiKey } from '../src/accounts/api-keys.ts';
import { loadConfig } from '../src/config.ts';
import { startService } from '../src/service.ts';
import { percentile } from './load.ts';
import { fakeScreen } from './rendering.ts';
import { benchAccount, openBenchDatabase } from './setup.ts';

const PREVIEWS = Number(process.env.BENCH_PREVIEWS ?? 40);
const progress = (msg: string) => process.stderr.write(`[bench] ${msg}\n`);

export interface EditingResult {
  text: string;
  previewP50Ms: number;
  previewP95Ms: number;
  previewCpuP95Ms: number;
}

export async function benchEditing(): Promise<EditingResult> {
  const bench = await openBenchDatabase();
  const db = bench.database.pool;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotgen-edit-bench-'));
  // Where a service started with DATA_DIR=dir finds its objects: the HTTP part below reads the same screens.
  const objects = new FileObjectStore(path.join(dir, 'objects'));
  const jobsPool = new RenderPool({ threads: 2 });
  const previewPool = new RenderPool({ threads: 1, nice: 0 });
  try {
    const { accountId, appId } = await benchAccount(db, 'editing', 100);
    const screen = await fakeScreen();
    const screenIds: string[] = [];
    for (let i = 0; i < 3; i++) screenIds.push((await uploadScreen(db, objects, accountId, appId, screen, 'iphone')).screenId);
    const headlines = [
      'Track Every Habit Daily',
      'Smart Reminders That Adapt',
      'Beautiful Charts and Streaks',
      'Widgets for Quick Check-ins',
    ];
    const slides = Array.from({ length: 10 }, (_, i) => ({ headline: `${headlines[i % 4]} ${i + 1}`, screenId: screenIds[i % 3] }));
    const runner = screenshotSetRunner({
      db,
      planner: { plan: (input) => planSet(input, null) },
      pictures: { objects, renderer: jobsPool, storeImageOrigins: [], now: () => new Date() },
    });
    const runOne = async () => {
      const [job] = await claimJobs(db, 'bench', 1, 60_000);
      const outcome = await runner(job, { signal: new AbortController().signal, progress: () => undefined });
      await completeJob(db, 'bench', job.id, outcome);
      return job.id;
    };

    const cpuMs = (since: NodeJS.CpuUsage) => {
      const used = process.cpuUsage(since);
      return (used.user + used.system) / 1000;
    };
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    await createScreenshotSet(db, accountId, { appId, device: 'iphone-69', slides }, { now: new Date() });
    const parentId = await runOne();
    const fullMs = performance.now() - t0;
    const fullCpuMs = cpuMs(c0);
    progress(`full 10-slide set: ${fullMs.toFixed(0)} ms (CPU ${fullCpuMs.toFixed(0)} ms)`);

    const revisionMs: number[] = [];
    const revisionCpuMs: number[] = [];
    for (let r = 0; r < 3; r++) {
      const t = performance.now();
      const c = process.cpuUsage();
      await createRevision(
        db,
        accountId,
        parentId,
        { slides: [{ index: 4, headline: `Charts and Streaks, take ${r}` }] },
        { notify: false },
      );
      await runOne();
      revisionMs.push(performance.now() - t);
      revisionCpuMs.push(cpuMs(c));
    }
    progress(
      `revisions (1 of 10 slides): ${revisionMs.map((m) => m.toFixed(0)).join(', ')} ms (CPU ${revisionCpuMs.map((m) => m.toFixed(0)).join(', ')} ms)`,
    );

    const previewer = new Previewer({ db, objects, renderer: previewPool, storeImageOrigins: [] });
    const cold = performance.now();
    await previewer.forJob(accountId, { jobId: parentId, slide: { index: 2 } });
    const coldMs = performance.now() - cold;
    const times: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < PREVIEWS; i++) {
      const t = performance.now();
      const c = process.cpuUsage();
      await previewer.forJob(accountId, { jobId: parentId, slide: { index: 2, headline: `Smart Reminders ${'x'.repeat(i % 12)}` } });
      const used = process.cpuUsage(c);
      cpu.push((used.user + used.system) / 1000);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    cpu.sort((a, b) => a - b);

    // The same previews through the route (POST /public/v1/previews, key, rate limit, JSON), from a
    // service on 127.0.0.1 with its own preview pool, as `shotgen serve --role api` runs it.
    const service = await startService(loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATA_DIR: dir }), {
      role: 'api',
      database: { pool: db, url: bench.database.url, embedded: null, close: async () => undefined },
    });
    const http: number[] = [];
    try {
      const { key } = await createApiKey(db, accountId, 'bench');
      const ask = async (headline: string) => {
        const res = await fetch(`${service.address}/api/v1/public/v1/previews`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ jobId: parentId, slide: { index: 2, headline } }),
        });
        const body = Buffer.from(await res.arrayBuffer());
        if (res.status !== 200 || body.subarray(1, 4).toString() !== 'PNG') throw new Error(`preview over HTTP: ${res.status}`);
      };
      await ask('Smart Reminders'); // its pool's first, cold
      for (let i = 0; i < Math.min(PREVIEWS, 100); i++) {
        const t = performance.now();
        await ask(`Smart Reminders ${'y'.repeat(i % 12)}`);
        http.push(performance.now() - t);
      }
    } finally {
      await service.close();
    }
    http.sort((a, b) => a - b);
    const rows = [
      ['preview, one iPhone 6.9" slide (first, cold thread)', `${coldMs.toFixed(0)} ms`],
      [
        `preview p50 / p95 (${PREVIEWS} calls, goal p95 <= 300 ms)`,
        `${percentile(times, 50).toFixed(0)} / ${percentile(times, 95).toFixed(0)} ms`,
      ],
      ['preview CPU p50 / p95 (all threads of the process)', `${percentile(cpu, 50).toFixed(0)} / ${percentile(cpu, 95).toFixed(0)} ms`],
      [
        `POST /public/v1/previews over HTTP, p50 / p95 (${http.length} calls)`,
        `${percentile(http, 50).toFixed(0)} / ${percentile(http, 95).toFixed(0)} ms`,
      ],
      ['full 10-slide set, plan + render + store (CPU)', `${fullMs.toFixed(0)} ms (${fullCpuMs.toFixed(0)} ms)`],
      [
        'revision of 1 of 10 slides, median of 3 (CPU)',
        `${[...revisionMs].sort((a, b) => a - b)[1].toFixed(0)} ms (${[...revisionCpuMs].sort((a, b) => a - b)[1].toFixed(0)} ms)`,
      ],
      ['load average (1 min) at the end', os.loadavg()[0].toFixed(2)],
    ];
    return {
      text: ['', 'editing (bench/editing.ts):', ...rows.map(([k, v]) => `${k.padEnd(60)} ${v}`), ''].join('\n'),
      previewP50Ms: percentile(times, 50),
      previewP95Ms: percentile(times, 95),
      previewCpuP95Ms: percentile(cpu, 95),
    };
  } finally {
    await jobsPool.close();
    await previewPool.close();
    await bench.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.stdout.write((await benchEditing()).text);
