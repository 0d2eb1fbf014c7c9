/**
 * `shotgen generate` and `shotgen jobs get` as a user runs them: child processes talking HTTP to a
 * whole server on 127.0.0.1, configured by SHOTGEN_URL and SHOTGEN_API_KEY only.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, shotgen } from '../cli/helpers.ts';
import { solidPng } from '../support/fake-images.ts';
import { lookupBody, lookupResult } from '../support/store-fixtures.ts';
import { IOS_URL, startShotgenServer, type ShotgenServer } from './server.ts';
import { claimJobs, failJob } from '../../src/sets/job-queue.ts';
import { scaled } from '../support/timing.ts';

const dirs: string[] = [];
const tempDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'shotgen-generate-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** A folder with one iPhone screen: a set needs something to frame. */
async function oneScreen(): Promise<string> {
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, '1-home.png'), await solidPng(1290, 2796, 'green'));
  return dir;
}

interface Generated {
  appId: string;
  jobId: string;
  credits: { cost: number; remaining: number };
  idempotencyKey: string;
  slides: { path: string; bytes: number; sha256: string; index: number }[];
  archive: { path: string; bytes: number; sha256: string } | null;
}

/** A proxy in front of the server that can lose the answer to a request it did forward. */
async function lossyProxy(target: string, loseAnswer: (req: http.IncomingMessage) => boolean) {
  const seen: { method: string; url: string; idempotencyKey: string | undefined }[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    seen.push({ method: req.method!, url: req.url!, idempotencyKey: req.headers['idempotency-key'] as string | undefined });
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)),
    ) as Record<string, string>;
    const upstream = await fetch(new URL(req.url!, target), {
      method: req.method,
      headers,
      body: chunks.length ? Buffer.concat(chunks) : undefined,
    });
    const body = Buffer.from(await upstream.arrayBuffer());
    if (loseAnswer(req)) {
      res.writeHead(502, { 'content-type': 'text/html', 'retry-after': '0' }).end('<html>Bad gateway</html>');
      return;
    }
    res
      .writeHead(
        upstream.status,
        Object.fromEntries(
          [...upstream.headers].filter(([k]) => !['content-encoding', 'transfer-encoding', 'connection', 'content-length'].includes(k)),
        ),
      )
      .end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, seen, close: () => new Promise((r) => server.close(r)) };
}

describe('shotgen generate and jobs get against a running server', () => {
  let s: ShotgenServer;
  let env: { DATA_DIR: string; SHOTGEN_URL: string; SHOTGEN_API_KEY: string };
  beforeAll(async () => {
    s = await startShotgenServer();
    env = { DATA_DIR: tempDir(), SHOTGEN_URL: s.url, SHOTGEN_API_KEY: s.key };
  });
  afterAll(async () => s?.close());

  it('generate --screens: uploads them, renders, downloads every PNG and the ZIP (--json)', { timeout: scaled(120_000) }, async () => {
    const screens = tempDir();
    fs.writeFileSync(
      path.join(screens, '10-blue.jpg'),
      await sharp({ create: { width: 1290, height: 2796, channels: 3, background: '#0000ff' } })
        .jpeg()
        .toBuffer(),
    );
    fs.writeFileSync(path.join(screens, '2-red.png'), await solidPng(1290, 2796, 'red'));
    fs.writeFileSync(path.join(screens, 'notes.txt'), 'not a screen');
    const out = path.join(tempDir(), 'set');
    const r = await shotgen(
      [
        'generate',
        '--ios',
        IOS_URL,
        '--device',
        'iphone-69',
        '--count',
        '3',
        '--style',
        'bold',
        '--theme',
        'dark',
        '--screens',
        screens,
        '--out',
        out,
        '--json',
      ],
      env,
    );
    expect(r.code, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout) as Generated;
    expect(result).toMatchObject({ appId: expect.stringMatching(/^app_/), jobId: expect.stringMatching(/^job_/), credits: { cost: 5 } });
    expect(result.slides).toHaveLength(3);
    for (const f of result.slides) expect(fs.statSync(f.path).size).toBe(f.bytes);
    // Named as in the ZIP: 01_, 02_ … so a listing sorts in slide order (10 after 09, not after 1).
    expect(result.slides.map((f) => path.basename(f.path))).toEqual([
      expect.stringMatching(/^01_iphone-69_[a-z-]+\.png$/),
      expect.stringMatching(/^02_iphone-69_[a-z-]+\.png$/),
      expect.stringMatching(/^03_iphone-69_[a-z-]+\.png$/),
    ]);
    expect(fs.existsSync(result.archive!.path)).toBe(true);
    // Not a terminal: plain progress lines on stderr, the result alone on stdout.
    expect(r.stderr).toContain(`job ${result.jobId}: succeeded`);
    expect(r.stderr).toMatch(/screen 1\/2 2-red\.png: scr_\w+ \(iphone/);
    expect(r.stderr).toMatch(/screen 2\/2 10-blue\.jpg: scr_/);
    expect(r.stderr).not.toContain('\r');

    const job = await shotgen(['jobs', 'get', result.jobId, '--json'], env);
    expect(job.code).toBe(0);
    const polled = JSON.parse(job.stdout);
    expect(polled).toMatchObject({ id: result.jobId, status: 'succeeded', result: { theme: 'dark' } });
    // Slides frame the uploaded screens in name order (2-red before 10-blue), cycling.
    const screenIds = polled.result.slides.map((x: { screenId: string }) => x.screenId);
    expect(screenIds[0]).toBe(screenIds[2]);
    expect(screenIds[0]).not.toBe(screenIds[1]);

    // revise: slide 2's caption only; slides 1 and 3 come back as the very same bytes.
    const revisedDir = path.join(tempDir(), 'revised');
    const revised = await shotgen(
      ['revise', result.jobId, '--slide', '2', '--headline', 'Plan Every Meal', '--out', revisedDir, '--json'],
      env,
    );
    expect(revised.code, revised.stderr).toBe(0);
    const rev = JSON.parse(revised.stdout) as { jobId: string; parentJobId: string; slides: { path: string; sha256: string }[] };
    expect(rev.parentJobId).toBe(result.jobId);
    expect(rev.slides.map((f) => f.sha256)).toEqual([
      result.slides[0].sha256,
      expect.not.stringMatching(result.slides[1].sha256),
      result.slides[2].sha256,
    ]);
    expect(fs.readFileSync(rev.slides[0].path).equals(fs.readFileSync(result.slides[0].path))).toBe(true);
    const nothing = await shotgen(['revise', result.jobId], env);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('nothing to change');
  });

  it(
    'generate with nothing to frame (no screens, a listing without screenshots) is refused before the charge',
    { timeout: scaled(120_000) },
    async () => {
      const before = await (await fetch(`${s.url}/public/v1/account`, { headers: { authorization: `Bearer ${s.key}` } })).json();
      const out = tempDir();
      const r = await shotgen(
        ['generate', '--ios', IOS_URL, '--device', 'iphone-67', '--narrative', 'problem-solution', '--out', out],
        env,
      );
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toMatch(/cannot_fill_set/);
      expect(r.stderr).toMatch(/Upload screens/);
      expect(fs.readdirSync(out)).toEqual([]);
      const after = await (await fetch(`${s.url}/public/v1/account`, { headers: { authorization: `Bearer ${s.key}` } })).json();
      expect(after.credits.used).toBe(before.credits.used);
    },
  );

  it('generate prints the warnings known before the charge on stderr before it charges', { timeout: scaled(120_000) }, async () => {
    // A Mac App Store listing planned for an iPhone: the create answer already says so.
    s.store.set('app-store', '2222222222', {
      body: lookupBody([lookupResult({ kind: 'mac-software', trackId: 2222222222, screenshotUrls: [], ipadScreenshotUrls: [] })]),
    });
    const out = path.join(tempDir(), 'mac');
    const r = await shotgen(
      [
        'generate',
        '--ios',
        'https://apps.apple.com/us/app/pocket-planner/id2222222222',
        '--device',
        'iphone-69',
        '--count',
        '1',
        '--screens',
        await oneScreen(),
        '--out',
        out,
      ],
      env,
    );
    expect(r.code, r.stderr).toBe(0);
    // Said before any credit is spent (a free dry run asks), then never again.
    const warning = r.stderr.indexOf("warning: This is a Mac app's listing");
    expect(warning).toBeGreaterThan(-1);
    expect(warning).toBeLessThan(r.stderr.indexOf('credits charged'));
    expect(r.stderr.lastIndexOf("Mac app's listing")).toBe(r.stderr.indexOf("Mac app's listing"));
    // Said once: the result's warnings do not repeat it on stdout.
    expect(r.stdout).not.toContain("Mac app's listing");
  });

  it(
    'a retried generate is charged once: the lost answer is replayed for the same Idempotency-Key',
    { timeout: scaled(120_000) },
    async () => {
      let lost = false;
      const proxy = await lossyProxy(s.url.replace(/\/api\/v1$/, ''), (req) => {
        // The create's answer is lost (the one with an Idempotency-Key), not the free dry run's before it.
        if (lost || req.method !== 'POST' || !req.url!.endsWith('/public/v1/screenshots') || !req.headers['idempotency-key']) return false;
        return (lost = true);
      });
      try {
        const before = await (await fetch(`${s.url}/public/v1/account`, { headers: { authorization: `Bearer ${s.key}` } })).json();
        const r = await shotgen(
          [
            'generate',
            '--ios',
            IOS_URL,
            '--device',
            'iphone-69',
            '--count',
            '2',
            '--screens',
            await oneScreen(),
            '--out',
            tempDir(),
            '--json',
          ],
          {
            ...env,
            SHOTGEN_URL: `${proxy.origin}/api/v1`,
          },
        );
        expect(r.code, r.stderr).toBe(0);
        expect(r.stderr).toContain('HTTP 502: retrying in 0 s');
        const posts = proxy.seen.filter((x) => x.method === 'POST' && x.url.endsWith('/screenshots') && x.idempotencyKey);
        expect(posts).toHaveLength(2);
        expect(posts[0].idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
        expect(posts[1].idempotencyKey).toBe(posts[0].idempotencyKey);
        const after = await (await fetch(`${s.url}/public/v1/account`, { headers: { authorization: `Bearer ${s.key}` } })).json();
        expect(after.credits.used - before.credits.used).toBe(5);
        expect(JSON.parse(r.stdout).idempotencyKey).toBe(posts[0].idempotencyKey);
      } finally {
        await proxy.close();
      }
    },
  );

  it('exit codes say what failed, each with one line on stderr', { timeout: scaled(60_000) }, async () => {
    // A server that is down is retried for ~7.5 s (0.5 + 1 + 2 + 4) before exit 5: that command
    // runs while the others do, rather than after them.
    const downing = freePort().then((port) =>
      shotgen(['jobs', 'get', 'job_01JD2ZK5T8Q3W4E5R6T7Y8U9EF'], { ...env, SHOTGEN_URL: `http://127.0.0.1:${port}/api/v1` }),
    );
    const out = tempDir();
    const noKey = await shotgen(['generate', '--ios', IOS_URL, '--device', 'iphone-69', '--out', out], {
      DATA_DIR: env.DATA_DIR,
      SHOTGEN_URL: s.url,
    });
    expect(noKey).toMatchObject({ code: 2, stdout: '' });
    expect(noKey.stderr).toMatch(/^shotgen: SHOTGEN_API_KEY is not set.*\n$/);

    const badDevice = await shotgen(['generate', '--ios', IOS_URL, '--device', 'nokia', '--out', out], env);
    expect(badDevice.code).toBe(2);
    const noUrl = await shotgen(['generate', '--device', 'iphone-69', '--out', out], env);
    expect(noUrl).toMatchObject({ code: 2, stderr: 'shotgen: give --ios URL, --android URL or both\n' });
    const noScreens = await shotgen(
      ['generate', '--ios', IOS_URL, '--device', 'iphone-69', '--screens', path.join(out, 'missing'), '--out', out],
      env,
    );
    expect(noScreens.code).toBe(2);

    const refused = await shotgen(['generate', '--ios', 'https://example.com/app/id1', '--device', 'iphone-69', '--out', out], env);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/^shotgen: iosUrl: .*\(validation_failed, HTTP 400, req_\w+\)\n$/);
    const badKey = await shotgen(['jobs', 'get', 'job_01JD2ZK5T8Q3W4E5R6T7Y8U9EF'], { ...env, SHOTGEN_API_KEY: 'sk_live_wrong' });
    expect(badKey.code).toBe(3);
    expect(badKey.stderr).toContain('invalid_api_key');
    const unknown = await shotgen(['jobs', 'get', 'job_01JD2ZK5T8Q3W4E5R6T7Y8U9EF'], env);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain('job_not_found');

    const down = await downing;
    expect(down.code).toBe(5);
    expect(down.stderr).toMatch(/cannot reach http:\/\/127\.0\.0\.1:\d+\/api\/v1: ECONNREFUSED\n$/);
  });
});

describe('client commands against a server that answers 503, and a job that fails', () => {
  it('jobs get retries 503 after Retry-After, then prints the job', { timeout: scaled(60_000) }, async () => {
    let calls = 0;
    const server = http.createServer((req, res) => {
      if (++calls <= 2) {
        res
          .writeHead(503, { 'content-type': 'application/problem+json', 'retry-after': '1' })
          .end(JSON.stringify({ status: 503, code: 'service_unavailable', detail: 'restarting', requestId: 'req_1' }));
        return;
      }
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ id: 'job_1', status: 'queued', result: null, error: null, progress: null }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
      const started = Date.now();
      const r = await shotgen(['jobs', 'get', 'job_1', '--json'], { DATA_DIR: tempDir(), SHOTGEN_URL: url, SHOTGEN_API_KEY: 'sk_live_x' });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ id: 'job_1', status: 'queued' });
      expect(r.stderr.match(/HTTP 503: retrying in 1 s/g)).toHaveLength(2);
      expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('generate and jobs get --wait exit 4 when the job fails', { timeout: scaled(90_000) }, async () => {
    // No worker: the test fails the job itself, as a worker does when it cannot plan it.
    const s = await startShotgenServer({ role: 'api' });
    try {
      const env = { DATA_DIR: tempDir(), SHOTGEN_URL: s.url, SHOTGEN_API_KEY: s.key };
      // Failed the way a worker fails it (claim, then failJob), so the refund the command reports is real.
      const failNext = setInterval(() => {
        void claimJobs(s.t.pool, 'test-worker', 10, 60_000)
          .then((jobs) =>
            Promise.all(
              jobs.map((j) =>
                failJob(s.t.pool, j.id, 'test-worker', {
                  code: 'planning_failed',
                  message: 'The listing says too little.',
                  retryable: false,
                }),
              ),
            ),
          )
          .catch(() => undefined);
      }, 200);
      try {
        const r = await shotgen(
          ['generate', '--ios', IOS_URL, '--device', 'iphone-69', '--count', '2', '--screens', await oneScreen(), '--out', tempDir()],
          env,
        );
        expect(r.code, r.stderr).toBe(4);
        expect(r.stderr).toMatch(
          /shotgen: job job_\w+ failed: The listing says too little\. \(planning_failed\); the 5 credits were refunded\n$/,
        );
        const jobId = /job (job_\w+) failed/.exec(r.stderr)![1];
        const { rows } = await s.t.pool.query(`SELECT kind FROM credit_ledger WHERE job_id = $1 ORDER BY id`, [jobId]);
        expect(rows.map((row) => row.kind)).toEqual(['charge', 'refund']);
        const waited = await shotgen(['jobs', 'get', jobId, '--wait', '--json'], env);
        expect(waited.code).toBe(4);
        expect(JSON.parse(waited.stdout)).toMatchObject({ id: jobId, status: 'failed', error: { code: 'planning_failed' } });
        const plain = await shotgen(['jobs', 'get', jobId], env);
        expect(plain.code).toBe(0);
      } finally {
        clearInterval(failNext);
      }
    } finally {
      await s.close();
    }
  });
});
