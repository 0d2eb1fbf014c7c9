/** Signed picture URLs: any change to the path, the expiry or the signature is refused, and so is age. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claimJobs, completeJob } from '../../src/sets/job-queue.ts';
import { saveJobFiles } from '../../src/sets/files.ts';
import { SIGNED_URL_TTL_S, UrlSigner } from '../../src/sets/signed-urls.ts';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import { createTestApp, expectProblem, type TestApp } from '../support/app.ts';
import { solidPng } from '../support/fake-images.ts';
import { accountWithKey, insertApp, sampleListing } from '../support/fixtures.ts';
import { enqueueJobs } from '../support/jobs.ts';

describe('UrlSigner', () => {
  const signer = new UrlSigner('k'.repeat(40));
  const now = new Date('2026-11-23T12:00:01Z');
  it('signs for at least 7 days, rounded to the hour so that polls within an hour get the same URL', () => {
    const a = signer.sign('/api/v1/public/v1/jobs/job_X/slides/1.png', now);
    const b = signer.sign('/api/v1/public/v1/jobs/job_X/slides/1.png', new Date(now.getTime() + 58 * 60_000));
    expect(a).toBe(b);
    const expires = Number(new URL(a, 'http://x').searchParams.get('expires'));
    expect(expires * 1000 - now.getTime()).toBeGreaterThanOrEqual(SIGNED_URL_TTL_S * 1000);
  });
  it('checks method, path, expiry and signature', () => {
    const u = new URL(signer.sign('/p/1.png', now), 'http://x');
    const [e, s] = [u.searchParams.get('expires')!, u.searchParams.get('sig')!];
    expect(signer.verify('GET', '/p/1.png', e, s, now)).toBe('ok');
    expect(signer.verify('HEAD', '/p/1.png', e, s, now)).toBe('ok');
    expect(signer.verify('GET', '/p/2.png', e, s, now)).toBe('invalid');
    expect(signer.verify('GET', '/p/1.png', String(Number(e) + 3600), s, now)).toBe('invalid');
    expect(signer.verify('GET', '/p/1.png', e, s.slice(0, -1) + (s.endsWith('A') ? 'B' : 'A'), now)).toBe('invalid');
    expect(signer.verify('GET', '/p/1.png', e, 'short', now)).toBe('invalid');
    expect(signer.verify('GET', '/p/1.png', e, s, new Date(Number(e) * 1000 + 1))).toBe('expired');
    expect(new UrlSigner('another secret of forty characters long!').verify('GET', '/p/1.png', e, s, now)).toBe('invalid');
  });
});

describe('pictures behind signed URLs', () => {
  let h: TestApp;
  let now = new Date();
  let jobId: string;
  beforeEach(async () => {
    now = new Date();
    h = await createTestApp({ clock: () => now });
    const appId = await insertApp(h.t.pool, h.account.id);
    [jobId] = await enqueueJobs(h.t.pool, h.account.id, appId, 1);
    await claimJobs(h.t.pool, 'w', 1, 60_000);
    const png = await solidPng(1320, 2868, 'red');
    const files = ['slides/1.png', 'slides/2.png', 'archive.zip'].map((name) => ({
      name,
      objectKey: `jobs/${jobId}/a1/${name}`,
      contentType: name.endsWith('zip') ? 'application/zip' : 'image/png',
      bytes: png.length,
      sha256: 'b'.repeat(64),
      width: 1320,
      height: 2868,
    }));
    for (const f of files) await h.services.objects.put(f.objectKey, png, f.contentType);
    const result = planScreenshotSet({ listings: [sampleListing()], extraContext: null, request: { device: 'iphone-69', count: 2 } });
    await completeJob(h.t.pool, 'w', jobId, { result, save: (tx) => saveJobFiles(tx, jobId, files) });
  });
  afterEach(async () => h.close());

  const job = async () => (await h.app.inject({ method: 'GET', url: `/api/v1/public/v1/jobs/${jobId}`, headers: h.auth })).json();
  const get = (u: string, headers: Record<string, string> = {}) => {
    const url = new URL(u, 'http://localhost');
    return h.app.inject({ method: 'GET', url: url.pathname + url.search, headers });
  };

  it('serves a signed URL without a key; every poll returns URLs valid 7 days from then', async () => {
    const first = (await job()).result.slides[0].image.url;
    expect(first).toMatch(/^http:\/\/localhost(:\d+)?\/api\/v1\/public\/v1\/jobs\/job_\w+\/slides\/1\.png\?expires=\d+&sig=[\w-]{43}$/);
    expect((await get(first)).statusCode).toBe(200);
    now = new Date(now.getTime() + 3 * 24 * 3600_000);
    const later = (await job()).result.slides[0].image.url;
    expect(later).not.toBe(first);
    expect(Number(new URL(later).searchParams.get('expires')) * 1000 - now.getTime()).toBeGreaterThanOrEqual(SIGNED_URL_TTL_S * 1000);
  });

  it('refuses a tampered URL with 403 invalid_signature', async () => {
    const u = new URL((await job()).result.slides[0].image.url);
    const otherSlide = u.href.replace('/slides/1.png', '/slides/2.png');
    expectProblem(await get(otherSlide), 403, 'invalid_signature');
    const otherJob = u.href.replace(jobId, 'job_01ARZ3NDEKTSV4RRFFQ69G5FAV');
    expectProblem(await get(otherJob), 403, 'invalid_signature');
    const later = new URL(u);
    later.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 86_400));
    expectProblem(await get(later.href), 403, 'invalid_signature');
    const noSig = new URL(u);
    noSig.searchParams.delete('sig');
    expectProblem(await get(noSig.href), 403, 'invalid_signature');
    // A signature does not open the archive, nor another account's key the unsigned path.
    expectProblem(await get(u.href.replace('/slides/1.png', '/archive.zip')), 403, 'invalid_signature');
    const other = await accountWithKey(h.t.pool);
    expectProblem(
      await get(`/api/v1/public/v1/jobs/${jobId}/slides/1.png`, { authorization: `Bearer ${other.key}` }),
      404,
      'job_not_found',
    );
    expectProblem(await get(`/api/v1/public/v1/jobs/${jobId}/slides/1.png`), 401, 'missing_api_key');
  });

  it('refuses an expired URL with 403 invalid_signature', async () => {
    const u = (await job()).result.slides[0].image.url;
    now = new Date(now.getTime() + (SIGNED_URL_TTL_S + 3600) * 1000);
    const body = expectProblem(await get(u), 403, 'invalid_signature');
    expect(body.detail).toMatch(/expired/);
  });
});
