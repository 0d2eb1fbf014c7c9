/**
 * An Android set's ZIP for one Google Play variant (issue 31, item 3): Play has no API for custom
 * store listings or store listing experiments, so GET archive.zip?variant=<name> lays the set's
 * slides out under android/variants/<name>/ for an upload by hand in the Play Console.
 */
import { createHash } from 'node:crypto';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/core/ids.ts';
import { solidPng } from '../support/fake-images.ts';
import { expectProblem } from '../support/app.ts';
import { accountWithKey, insertApp, sampleListing } from '../support/fixtures.ts';
import { until } from '../support/jobs.ts';
import { scaled } from '../support/timing.ts';
import { createPicturesApp, type PicturesApp } from './support.ts';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Every entry of the ZIP with the sha256 of its bytes, as a ZIP reader (CRCs checked) sees them. */
const unzip = (zip: Buffer) =>
  new Promise<Record<string, string>>((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true, validateEntrySizes: true }, (err, file) => {
      if (err || !file) return reject(err);
      const out: Record<string, string> = {};
      file.on('entry', (e: yauzl.Entry) =>
        file.openReadStream(e, (err2, stream) => {
          if (err2 || !stream) return reject(err2);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('error', reject);
          stream.on('end', () => {
            out[e.fileName] = sha256(Buffer.concat(chunks));
            file.readEntry();
          });
        }),
      );
      file.on('end', () => resolve(out));
      file.on('error', reject);
      file.readEntry();
    });
  });

describe('GET /jobs/{id}/archive.zip?variant=', () => {
  let h: PicturesApp;
  let job: {
    id: string;
    result: {
      slides: { index: number; role: string; image: { sha256: string } }[];
      featureGraphic?: { sha256: string };
      archive: { url: string };
    };
  };
  const get = (url: string, headers: Record<string, string> = h.auth) => h.app.inject({ method: 'GET', url, headers });

  beforeAll(async () => {
    h = await createPicturesApp();
    const appId = await insertApp(
      h.t.pool,
      h.account.id,
      sampleListing({
        store: 'google-play',
        storeId: 'com.example.pantry',
        url: 'https://play.google.com/store/apps/details?id=com.example.pantry',
      }),
    );
    const up = await h.app.inject({
      method: 'POST',
      url: `/api/v1/public/v1/apps/${appId}/screens`,
      headers: { ...h.auth, 'content-type': 'image/png' },
      payload: await solidPng(1080, 1920, 'green'),
    });
    expect(up.statusCode, up.body).toBe(201);
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/v1/public/v1/screenshots',
      headers: h.auth,
      payload: { appId, device: 'android-phone', slides: [{ headline: 'Plan Every Meal' }, { headline: 'Share Lists With Your Family' }] },
    });
    expect(res.statusCode, res.body).toBe(201);
    job = await until(async () => {
      const j = (await get(`/api/v1/public/v1/jobs/${res.json().jobId}`, { ...h.auth, prefer: 'wait=10' })).json();
      return j.status === 'succeeded' || j.status === 'failed' ? j : null;
    }, scaled(60_000));
    expect((job as unknown as { status: string }).status).toBe('succeeded');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('holds the set’s slides and feature graphic under android/variants/<name>/, byte for byte, streamed with its length', async () => {
    const res = await get(`/api/v1/public/v1/jobs/${job.id}/archive.zip?variant=Students`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${job.id}-Students.zip"`);
    const want: Record<string, string> = {};
    for (const s of job.result.slides)
      want[`android/variants/Students/en-US/images/phoneScreenshots/${String(s.index).padStart(2, '0')}_${s.role}.png`] = s.image.sha256;
    if (job.result.featureGraphic) want['android/variants/Students/en-US/images/featureGraphic.png'] = job.result.featureGraphic.sha256;
    expect(Object.keys(want)).toHaveLength(job.result.slides.length + 1);
    expect(await unzip(res.rawPayload)).toEqual(want);

    // The same bytes again (a stable ETag), and a cache's copy is current.
    const again = await get(`/api/v1/public/v1/jobs/${job.id}/archive.zip?variant=Students`);
    expect(sha256(again.rawPayload)).toBe(sha256(res.rawPayload));
    const cached = await get(`/api/v1/public/v1/jobs/${job.id}/archive.zip?variant=Students`, {
      ...h.auth,
      'if-none-match': String(res.headers.etag),
    });
    expect(cached.statusCode).toBe(304);

    // Through the set's signed archive URL, without the key.
    const signed = new URL(job.result.archive.url);
    const bySignature = await get(`${signed.pathname}${signed.search}&variant=Students`, {});
    expect(bySignature.statusCode, bySignature.body).toBe(200);
    expect(sha256(bySignature.rawPayload)).toBe(sha256(res.rawPayload));
  });

  it('refuses a name that is not one safe path segment of 1-100 characters', async () => {
    for (const bad of ['', '..', '.hidden', 'a/b', 'a%2Fb', 'Back to school', 'x'.repeat(101), '%C3%A9']) {
      const res = await get(`/api/v1/public/v1/jobs/${job.id}/archive.zip?variant=${bad}`);
      const body = expectProblem(res, 400, 'validation_failed');
      expect(body.errors[0].field, bad).toMatch(/variant/);
    }
    expect((await get(`/api/v1/public/v1/jobs/${job.id}/archive.zip?variant=${'x'.repeat(100)}`)).statusCode).toBe(200);
  });

  it('is 400 for an App Store set, whose variants go through the API, and 404 for another account’s job', async () => {
    const appId = await insertApp(h.t.pool, h.account.id, sampleListing());
    const ios = newId('job');
    await h.t.pool.query(
      `INSERT INTO jobs (id, account_id, app_id, status, request, result, cost, period_start)
       VALUES ($1, $2, $3, 'succeeded', '{"device":"iphone-69"}', '{}'::jsonb, 1, date_trunc('month', now())::date)`,
      [ios, h.account.id, appId],
    );
    const body = expectProblem(await get(`/api/v1/public/v1/jobs/${ios}/archive.zip?variant=Students`), 400, 'validation_failed');
    expect(body.errors[0]).toMatchObject({
      field: 'variant',
      message: expect.stringMatching(/App Store set.*POST \/public\/v1\/publications/),
    });

    const other = await accountWithKey(h.t.pool);
    expectProblem(
      await get(`/api/v1/public/v1/jobs/${job.id}/archive.zip?variant=Students`, { authorization: `Bearer ${other.key}` }),
      404,
      'job_not_found',
    );
    expectProblem(await get(`/api/v1/public/v1/jobs/job_01ARZ3NDEKTSV4RRFFQ69G5FAV/archive.zip?variant=Students`), 404, 'job_not_found');
  });
});
