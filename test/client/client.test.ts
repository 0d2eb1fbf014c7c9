/**
 * The typed client (built to clients/typescript/dist, as a user gets it) against a whole server on
 * 127.0.0.1: app, screens, set, long poll with progress, every picture downloaded and verified.
 */
import {
  createShotgenClient,
  ShotgenError,
  ShotgenIntegrityError,
  ShotgenTimeoutError,
  type Job,
  type ShotgenClient,
} from '@shotgen/client';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solidPng } from '../support/fake-images.ts';
import { IOS_URL, startShotgenServer, type ShotgenServer } from './server.ts';
import { scaled } from '../support/timing.ts';

let s: ShotgenServer;
let client: ShotgenClient;

beforeAll(async () => {
  s = await startShotgenServer();
  client = createShotgenClient({ baseUrl: s.url, apiKey: s.key });
});
afterAll(async () => {
  await s?.close();
});

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('the typed client against a running server', () => {
  it('runs the whole flow: app, screens, set, waitForJob with progress, downloadSet', { timeout: scaled(120_000) }, async () => {
    const app = await client.createApp({ iosUrl: IOS_URL });
    expect(app).toMatchObject({ appId: expect.stringMatching(/^app_/), name: 'Pocket Planner' });

    const red = await client.uploadScreen(app.appId, await solidPng(1290, 2796, 'red'), { contentType: 'image/png' });
    const jpeg = await sharp({ create: { width: 1290, height: 2796, channels: 3, background: { r: 0, g: 0, b: 255 } } })
      .jpeg()
      .toBuffer();
    const blue = await client.uploadScreen(app.appId, new Blob([new Uint8Array(jpeg)]), { contentType: 'image/jpeg', family: 'iphone' });
    expect(red).toMatchObject({ screenId: expect.stringMatching(/^scr_/), family: 'iphone', width: 1290, height: 2796 });
    expect(blue.sha256).toBe(sha256(jpeg));
    expect((await client.listScreens(app.appId)).screens.map((x) => x.screenId)).toEqual([red.screenId, blue.screenId]);

    const narratives = await client.listNarratives();
    expect(narratives.narratives.length).toBeGreaterThanOrEqual(6);
    const before = await client.getAccount();
    // Free: what the set would be, and nothing charged.
    const estimate = await client.estimateScreenshotSet({ appId: app.appId, device: 'iphone-69', count: 3, screenIds: [red.screenId] });
    expect(estimate).toEqual({ slides: 3, warnings: [], credits: { cost: 5, remaining: before.credits.remaining } });

    const key = `test-${Date.now()}`;
    const accepted = await client.createScreenshotSet(
      { appId: app.appId, device: 'iphone-69', count: 3, screenIds: [red.screenId, blue.screenId] },
      { idempotencyKey: key },
    );
    expect(accepted).toMatchObject({
      jobId: expect.stringMatching(/^job_/),
      credits: { cost: 5, remaining: before.credits.remaining - 5 },
      replayed: false,
    });
    // The same key and body: the first answer again, no second charge.
    const again = await client.createScreenshotSet(
      { appId: app.appId, device: 'iphone-69', count: 3, screenIds: [red.screenId, blue.screenId] },
      { idempotencyKey: key },
    );
    expect(again).toMatchObject({ jobId: accepted.jobId, replayed: true });
    expect((await client.getAccount()).credits.remaining).toBe(before.credits.remaining - 5);

    const seen: Job[] = [];
    const job = await client.waitForJob(accepted.jobId, { timeoutMs: scaled(90_000), onProgress: (j) => seen.push(j) });
    expect(job.status).toBe('succeeded');
    expect(seen.at(-1)).toEqual(job);
    // How many polls see the job queued or part-rendered depends on timing, but onProgress tells
    // each state once, in the job's order: a subsequence of these that ends with success.
    const label = (j: Job) => `${j.status}${j.progress ? ` ${j.progress.done}/${j.progress.total}` : ''}`;
    const states = ['queued', 'running', 'running 0/3', 'running 1/3', 'running 2/3', 'running 3/3', 'succeeded'];
    const labels = seen.map(label);
    expect(labels).toEqual(states.filter((state) => labels.includes(state)));
    expect(labels.at(-1)).toBe('succeeded');
    const slides = job.result!.slides;
    expect(slides).toHaveLength(3);
    expect(slides.map((x) => x.screenId)).toEqual([red.screenId, blue.screenId, red.screenId]);

    const dir = s.tempDir();
    const files = await client.downloadSet(accepted.jobId, dir);
    expect(files.slides.map((f) => path.basename(f.path))).toEqual(
      slides.map((x) => `${String(x.index).padStart(2, '0')}_iphone-69_${x.role}.png`),
    );
    for (const [i, f] of files.slides.entries()) {
      const bytes = fs.readFileSync(f.path);
      expect(sha256(bytes)).toBe(slides[i].image!.sha256);
      expect(await sharp(bytes).metadata()).toMatchObject({ width: 1320, height: 2868, format: 'png', hasAlpha: false });
    }
    expect(files.archive).toMatchObject({ kind: 'archive', path: path.join(dir, `${job.id}.zip`), sha256: job.result!.archive!.sha256 });
    expect(fs.readFileSync(files.archive!.path).subarray(0, 2).toString()).toBe('PK');
    // Only verified files stay: no partial downloads left behind.
    expect(fs.readdirSync(dir).filter((n) => n.endsWith('.part'))).toEqual([]);

    // The raw file operations stream the same bytes.
    const first = await client.getSlideImage(job.id, '1.png');
    expect(sha256(Buffer.from(await first.arrayBuffer()))).toBe(slides[0].image!.sha256);
    const archive = await client.getSetArchive(job.id);
    expect(archive.headers.get('content-type')).toMatch(/zip/);
    await archive.body?.cancel();

    await client.deleteScreen(app.appId, blue.screenId);
    expect((await client.listScreens(app.appId)).screens).toHaveLength(1);
  });

  it(
    'serves a set in several locales: getLocaleSlideImage, and downloadSet writes every locale',
    { timeout: scaled(120_000) },
    async () => {
      const app = await client.createApp({ iosUrl: IOS_URL });
      await client.uploadScreen(app.appId, await solidPng(1290, 2796, 'yellow'), { contentType: 'image/png' });
      const accepted = await client.createScreenshotSet(
        { appId: app.appId, device: 'iphone-69', count: 2, locales: ['en-US', 'en-GB'] },
        { idempotencyKey: `locales-${Date.now()}` },
      );
      expect(accepted.credits.cost).toBe(10);
      const job = await client.waitForJob(accepted.jobId, { timeoutMs: scaled(90_000) });
      expect(job.status).toBe('succeeded');
      const locales = job.result!.locales!;
      expect(locales.map((l) => l.locale)).toEqual(['en-US', 'en-GB']);

      const second = await client.getLocaleSlideImage(job.id, 'en-GB', '2.png');
      expect(second.headers.get('content-type')).toBe('image/png');
      expect(sha256(Buffer.from(await second.arrayBuffer()))).toBe(locales[1].slides[1].image!.sha256);
      // The first locale's slides are at /slides/, not under /locales/.
      const first = (await client.getLocaleSlideImage(job.id, 'en-US', '1.png').catch((e: unknown) => e)) as ShotgenError;
      expect(first).toBeInstanceOf(ShotgenError);
      expect(first.status).toBe(404);
      const missing = (await client.getLocaleSlideImage(job.id, 'en-GB', '3.png').catch((e: unknown) => e)) as ShotgenError;
      expect(missing).toMatchObject({ status: 404 });

      const dir = s.tempDir();
      const files = await client.downloadSet(job, dir);
      const roles = locales[0].slides.map((x) => x.role);
      expect(files.slides.map((f) => [f.locale, f.index, path.relative(dir, f.path)])).toEqual([
        ['en-US', 1, path.join('en-US', `01_iphone-69_${roles[0]}.png`)],
        ['en-US', 2, path.join('en-US', `02_iphone-69_${roles[1]}.png`)],
        ['en-GB', 1, path.join('en-GB', `01_iphone-69_${roles[0]}.png`)],
        ['en-GB', 2, path.join('en-GB', `02_iphone-69_${roles[1]}.png`)],
      ]);
      expect(files.slides.map((f) => f.sha256)).toEqual(locales.flatMap((l) => l.slides.map((x) => x.image!.sha256)));
    },
  );

  it('previews an edit for free, then createRevision renders it: only the edited slide is new', { timeout: scaled(120_000) }, async () => {
    const app = await client.createApp({ iosUrl: IOS_URL });
    const screen = await client.uploadScreen(app.appId, await solidPng(1290, 2796, 'green'), { contentType: 'image/png' });
    const accepted = await client.createScreenshotSet(
      { appId: app.appId, device: 'iphone-69', slides: [{ headline: 'Plan Every Meal Fast' }, { headline: 'Shop With One List' }] },
      { idempotencyKey: `revise-${Date.now()}` },
    );
    const parent = await client.waitForJob(accepted.jobId, { timeoutMs: scaled(90_000) });
    expect(parent.status).toBe('succeeded');
    const credits = (await client.getAccount()).credits;

    const preview = await client.preview({ jobId: parent.id, slide: { index: 2, headline: 'Shop From One List' } });
    expect(preview.fits).toBe(true);
    // A third of the 1320 × 2868 slide, a PNG.
    expect(await sharp(Buffer.from(preview.png)).metadata()).toMatchObject({ format: 'png', width: 440, height: 956 });
    const unfit = await client.preview({ jobId: parent.id, slide: { index: 2, headline: 'W'.repeat(60) } });
    expect(unfit.fits).toBe(false);
    const forApp = await client.preview({
      appId: app.appId,
      device: 'iphone-69',
      slide: { headline: 'Plan Meals', screenId: screen.screenId },
    });
    expect(await sharp(Buffer.from(forApp.png)).metadata()).toMatchObject({ width: 440, height: 956 });
    const refused = (await client.preview({ jobId: parent.id, slide: { index: 9 } }).catch((e: unknown) => e)) as ShotgenError;
    expect(refused).toMatchObject({ status: 400, code: 'validation_failed' });

    const revision = await client.createRevision(parent.id, { slides: [{ index: 2, headline: 'Shop From One List' }] });
    expect(revision).toMatchObject({ parentJobId: parent.id, slides: 2, credits: { cost: 0 } });
    const child = await client.waitForJob(revision.jobId, { timeoutMs: scaled(90_000) });
    expect(child).toMatchObject({ status: 'succeeded', parentJobId: parent.id });
    expect(child.result!.slides.map((x) => x.image!.sha256)).toEqual([
      parent.result!.slides[0].image!.sha256,
      expect.not.stringMatching(parent.result!.slides[1].image!.sha256),
    ]);
    // Previews and revisions cost nothing.
    expect((await client.getAccount()).credits).toEqual(credits);
    const gone = (await client
      .createRevision('job_01JD2ZK5T8Q3W4E5R6T7Y8U9EF', { theme: 'dark' })
      .catch((e: unknown) => e)) as ShotgenError;
    expect(gone).toMatchObject({ status: 404, code: 'job_not_found' });
  });

  it('refuses a download whose bytes differ from the result, keeping nothing', async () => {
    const fake = Buffer.from('not the picture');
    const job = {
      id: 'job_X',
      status: 'succeeded',
      result: {
        device: 'iphone-69',
        slides: [{ index: 1, role: 'hero', image: { url: `${s.url}/nowhere.png`, bytes: 99, sha256: 'a'.repeat(64) } }],
        archive: null,
      },
    } as unknown as Job;
    const lying = createShotgenClient({ baseUrl: s.url, apiKey: s.key, fetch: async () => new Response(fake) });
    const dir = s.tempDir();
    await expect(lying.downloadSet(job, dir)).rejects.toBeInstanceOf(ShotgenIntegrityError);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('creates an app from its listing, uploads its icon, then adds its store page', async () => {
    const app = await client.createApp({
      listing: { name: 'Fernly', description: 'Get watering reminders for every plant.', category: 'Lifestyle' },
    });
    expect(app).toMatchObject({ name: 'Fernly', category: 'Lifestyle', artworkUrl: null });
    const withIcon = await client.uploadAppIcon(app.appId, await solidPng(512, 512, 'green'), { contentType: 'image/png' });
    expect(withIcon.artworkUrl).toMatch(new RegExp(`/public/v1/apps/${app.appId}/icon\\?expires=`));
    // The signed URL needs no key.
    const icon = await fetch(withIcon.artworkUrl!);
    expect([icon.status, icon.headers.get('content-type')]).toEqual([200, 'image/png']);
    const live = await client.updateApp(app.appId, { iosUrl: IOS_URL });
    expect(live).toMatchObject({ appId: app.appId, name: 'Pocket Planner', artworkUrl: withIcon.artworkUrl });
    const e = (await client.updateApp(app.appId, { iosUrl: 'https://example.com/app/id1' }).catch((x: unknown) => x)) as ShotgenError;
    expect(e).toMatchObject({ status: 400, code: 'validation_failed' });
  });

  it('throws ShotgenError with the problem’s status, code, detail and requestId', async () => {
    const bad = createShotgenClient({ baseUrl: s.url, apiKey: 'sk_live_nope' });
    const e1 = await bad.getAccount().catch((e: unknown) => e);
    expect(e1).toBeInstanceOf(ShotgenError);
    expect(e1).toMatchObject({ status: 401, code: 'invalid_api_key', requestId: expect.stringMatching(/^req_/) });

    const e2 = (await client.createApp({ iosUrl: 'https://example.com/app/id1' }).catch((e: unknown) => e)) as ShotgenError;
    expect(e2).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(e2.problem?.errors).toEqual([expect.objectContaining({ field: 'iosUrl' })]);
    // The one line the client commands and the MCP tools show: the field error, code, status, requestId.
    expect(e2.message).toBe(
      `iosUrl: ${(e2.problem!.errors as { message: string }[])[0].message} (validation_failed, HTTP 400, ${e2.requestId})`,
    );

    const e3 = (await client.getJob('job_01JD2ZK5T8Q3W4E5R6T7Y8U9EF').catch((e: unknown) => e)) as ShotgenError;
    expect(e3).toMatchObject({ status: 404, code: 'job_not_found' });
    expect(e3.detail).toContain('job_01JD2ZK5T8Q3W4E5R6T7Y8U9EF');
  });
});

describe('retries and waiting, against a scripted fetch', () => {
  const problem = (status: number, code: string, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify({ type: 'about:blank', title: code, status, detail: code, code, requestId: 'req_1' }), {
      status,
      headers: { 'content-type': 'application/problem+json', ...headers },
    });
  const job = (status: string, progress: { done: number; total: number } | null = null) =>
    new Response(
      JSON.stringify({
        id: 'job_1',
        status,
        result: status === 'succeeded' ? { slides: [] } : null,
        error: null,
        progress,
        createdAt: '',
        updatedAt: '',
      }),
      {
        status: 200,
        headers: { 'content-type': 'application/json', ...(status === 'running' || status === 'queued' ? { 'retry-after': '1' } : {}) },
      },
    );

  function scripted(answers: Array<() => Response>) {
    const requests: Array<{ at: number; method: string; url: string; headers: Headers }> = [];
    const fetch = async (input: RequestInfo | URL) => {
      const request = input as Request;
      requests.push({ at: Date.now(), method: request.method, url: request.url, headers: request.headers });
      return (answers.shift() ?? (() => problem(500, 'internal_error')))();
    };
    return { fetch: fetch as typeof globalThis.fetch, requests };
  }

  it('retries 429, 503 and an idempotency key in use after Retry-After, reusing the key', async () => {
    const { fetch, requests } = scripted([
      () => problem(429, 'rate_limited', { 'retry-after': '1' }),
      () => problem(503, 'service_unavailable', { 'retry-after': '0' }),
      () => problem(409, 'idempotency_key_in_use', { 'retry-after': '0' }),
      () =>
        new Response(JSON.stringify({ jobId: 'job_1', credits: { cost: 5, remaining: 45 } }), {
          status: 201,
          headers: { 'content-type': 'application/json' },
        }),
    ]);
    const c = createShotgenClient({ baseUrl: 'http://127.0.0.1:1/api/v1', apiKey: 'k', fetch });
    const started = Date.now();
    await expect(c.createScreenshotSet({ appId: 'app_1', device: 'iphone-69' }, { idempotencyKey: 'run-1' })).resolves.toMatchObject({
      jobId: 'job_1',
    });
    expect(requests).toHaveLength(4);
    expect(requests[1].at - started).toBeGreaterThanOrEqual(950);
    expect(new Set(requests.map((r) => r.headers.get('idempotency-key')))).toEqual(new Set(['run-1']));
  });

  it('gives up when Retry-After is longer than it may wait, and after its retries', async () => {
    const long = scripted([() => problem(429, 'rate_limited', { 'retry-after': '3600' })]);
    const c1 = createShotgenClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k', fetch: long.fetch });
    await expect(c1.getAccount()).rejects.toMatchObject({ status: 429, code: 'rate_limited', retryAfter: 3600 });
    expect(long.requests).toHaveLength(1);

    const busy = scripted(Array.from({ length: 10 }, () => () => problem(502, 'store_unavailable', { 'retry-after': '0' })));
    const c2 = createShotgenClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k', fetch: busy.fetch, retry: { retries: 2 } });
    await expect(c2.createApp({ iosUrl: IOS_URL })).rejects.toMatchObject({ status: 502, code: 'store_unavailable' });
    expect(busy.requests).toHaveLength(3);
  });

  it('does not repeat a POST without an Idempotency-Key whose connection failed', async () => {
    let calls = 0;
    const fetch = (async () => {
      calls++;
      throw new TypeError('fetch failed');
    }) as typeof globalThis.fetch;
    const c = createShotgenClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k', fetch });
    await expect(c.createApp({ iosUrl: IOS_URL })).rejects.toThrow('fetch failed');
    expect(calls).toBe(1);
  });

  it('waitForJob asks with Prefer: wait, reports progress, outlasts a 429 and stops at its timeout', async () => {
    const { fetch, requests } = scripted([
      () => job('queued'),
      () => problem(429, 'rate_limited', { 'retry-after': '0' }),
      () => job('running', { done: 1, total: 3 }),
      () => job('succeeded'),
    ]);
    const c = createShotgenClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k', fetch, retry: false });
    const seen: string[] = [];
    const done = await c.waitForJob('job_1', {
      onProgress: (j) => seen.push(`${j.status}${j.progress ? ` ${j.progress.done}/${j.progress.total}` : ''}`),
      pollSeconds: 5,
    });
    expect(done.status).toBe('succeeded');
    expect(seen).toEqual(['queued', 'running 1/3', 'succeeded']);
    expect(requests.every((r) => r.headers.get('prefer') === 'wait=5')).toBe(true);

    const stuck = scripted(Array.from({ length: 20 }, () => () => job('running', { done: 0, total: 3 })));
    const c2 = createShotgenClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k', fetch: stuck.fetch });
    const error = await c2.waitForJob('job_1', { timeoutMs: 1_500 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ShotgenTimeoutError);
    expect((error as ShotgenTimeoutError).job?.status).toBe('running');
  });

  it('waitForJob ends when its signal is aborted', async () => {
    const { fetch } = scripted(Array.from({ length: 20 }, () => () => job('queued')));
    const c = createShotgenClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k', fetch });
    const abort = new AbortController();
    setTimeout(() => abort.abort(new Error('stopped')), 300);
    await expect(c.waitForJob('job_1', { signal: abort.signal })).rejects.toThrow('stopped');
  });
});
