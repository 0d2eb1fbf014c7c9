/**
 * A split deployment as operators run one: a `--role api` and 2 `--role worker` processes on one
 * PostgreSQL (the external server when TEST_DATABASE_URL is set) and, when it answers, Redis.
 * One API process: a second did the same as the first (its figures only added to the same sum)
 * and cost 2.7 CPU seconds of start-up; two workers stay, since their job counts must add up.
 * Scraped side by side with one `--role all` process given the same work: every figure the `all`
 * process counts is counted by some process of the split deployment, and the workers' job
 * counts add up to the jobs they ran.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { newId } from '../../src/core/ids.ts';
import { emptyScreenshots } from '../../src/core/listing.ts';
import { startServe, type Serve } from '../cli/helpers.ts';
import { createTestDatabase, primaryServer, type TestDatabase } from '../support/db.ts';
import { accountWithKey, insertApp, sampleListing } from '../support/fixtures.ts';
import { enqueueJobs, jobRows, until } from '../support/jobs.ts';
import { scaled } from '../support/timing.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisAnswers(): Promise<boolean> {
  const { hostname, port } = new URL(REDIS_URL);
  return new Promise((resolve) => {
    const s = net.connect({ host: hostname, port: Number(port || 6379) });
    s.setTimeout(1_000);
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
    s.once('timeout', () => (s.destroy(), resolve(false)));
  });
}

/** Prometheus text → series ("name{labels}") → value. */
function parse(text: string): Map<string, number> {
  const series = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (m) series.set(`${m[1]}${m[2] ?? ''}`, Number(m[3]));
  }
  return series;
}

/** Families with a counted (non-zero) series of our own: what the `all` process did. */
function counted(series: Map<string, number>): Set<string> {
  const names = new Set<string>();
  for (const [s, v] of series) {
    // Per-process figures of the runtime (CPU, memory, GC) are on every process anyway.
    if (v > 0 && s.startsWith('shotgen_') && !/^shotgen_(process|nodejs)_/.test(s)) names.add(s.replace(/\{.*$/, ''));
  }
  return names;
}

const sum = (scrapes: Map<string, number>[], s: string) => scrapes.reduce((n, m) => n + (m.get(s) ?? 0), 0);

describe('a split deployment, scraped', () => {
  const processes: Serve[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(processes.splice(0).map((p) => p.terminate()));
    for (const c of cleanups.splice(0)) await c();
  });

  async function deployment(roles: ('all' | 'api' | 'worker')[], env: Record<string, string>) {
    const t: TestDatabase = await createTestDatabase(primaryServer());
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotgen-split-'));
    cleanups.push(async () => {
      await t.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
    const { account, key } = await accountWithKey(t.pool, 'pro');
    const appId = await insertApp(t.pool, account.id, sampleListing({ screenshots: emptyScreenshots() }));
    const started = await Promise.all(
      roles.map((role) =>
        startServe({ DATABASE_URL: t.url, DATA_DIR: dataDir, PORT: '0', WORKER_CONCURRENCY: '2', ...env }, ['--role', role]),
      ),
    );
    processes.push(...started);
    const byRole = (role: string) => started.filter((_, i) => roles[i] === role || roles[i] === 'all');
    /** The same work for every deployment: 4 one-slide sets, and a client that reads one of them. */
    const work = async () => {
      const ids = await enqueueJobs(t.pool, account.id, appId, 4, 'iphone-69', 1, true);
      await until(async () => (await jobRows(t.pool)).every((r) => r.status === 'succeeded'), 60_000);
      for (const api of byRole('api')) {
        const res = await fetch(`${api.address}/api/v1/public/v1/jobs/${ids[0]}`, { headers: { authorization: `Bearer ${key}` } });
        expect(res.status).toBe(200);
      }
      return ids;
    };
    const scrape = async () =>
      Promise.all(
        started.map(async (p) => {
          const res = await fetch(`${p.address}/metrics`);
          expect(res.status).toBe(200);
          return parse(await res.text());
        }),
      );
    return { started, byRole, work, scrape };
  }

  it(
    'an API and 2 worker processes: every figure of an `all` process is on some process, and the job counts add up',
    { timeout: scaled(180_000) },
    async () => {
      const env: Record<string, string> = (await redisAnswers()) ? { REDIS_URL, REDIS_KEY_PREFIX: `shotgen-test:${newId('req')}:` } : {};
      // Both at once: process start-up is most of this test's time on a loaded machine.
      const [all, split] = await Promise.all([deployment(['all'], env), deployment(['api', 'worker', 'worker'], env)]);

      // A worker answers its health checks on PORT, and nothing else.
      for (const w of split.byRole('worker')) {
        expect((await fetch(`${w.address}/healthz`)).status).toBe(200);
        expect((await fetch(`${w.address}/readyz`)).status).toBe(200);
        const other = await fetch(`${w.address}/api/v1/public/v1/jobs`);
        expect(other.status).toBe(404);
        expect(other.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      }

      await all.work();
      await split.work();
      const [allScrape] = await all.scrape();
      const splitScrapes = await split.scrape();

      const everywhere = new Set(splitScrapes.flatMap((s) => [...counted(s)]));
      const missing = [...counted(allScrape)].filter((name) => !everywhere.has(name));
      expect(missing).toEqual([]);
      // The figures of the work itself are where the work happened: in the workers, not the API.
      const [api, w1, w2] = splitScrapes;
      for (const name of ['shotgen_plan_duration_seconds_count{outcome="ok"}', 'shotgen_job_attempts_total{outcome="succeeded"}']) {
        expect(sum([allScrape], name)).toBe(name.startsWith('shotgen_job') ? 4 : sum([w1, w2], name));
        expect(sum([w1, w2], name)).toBe(4);
        expect(sum([api], name)).toBe(0);
      }
      expect(sum([w1, w2], 'shotgen_render_duration_seconds_count{device="iphone-69"}')).toBe(4);
      // And the API's request in the API process.
      expect(sum([api], 'shotgen_http_request_duration_seconds_count{method="GET",route="/api/v1/public/v1/jobs/:id",status="200"}')).toBe(
        1,
      );
    },
  );
});
