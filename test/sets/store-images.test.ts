/**
 * Slides that frame the listing's own screenshots: fetched by the worker at full size, only from
 * the allowed image hosts; a host that fails, hangs or redirects away is a retryable job error,
 * and after the last attempt the job fails with store_unavailable and is refunded once.
 */
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { emptyScreenshots } from '../../src/core/listing.ts';
import { startFakeImageHost, type FakeImageHost } from '../support/fake-images.ts';
import { insertApp, sampleListing } from '../support/fixtures.ts';
import { ledger } from '../support/jobs.ts';
import { createPicturesApp, finishedJob, type PicturesApp } from './support.ts';

let images: FakeImageHost;
let h: PicturesApp;
let appId: string;

beforeAll(async () => {
  images = await startFakeImageHost();
});
afterAll(async () => {
  await images.close();
});
afterEach(async () => h.close());

async function createSet(count = 2): Promise<string> {
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/v1/public/v1/screenshots',
    headers: h.auth,
    payload: { appId, device: 'iphone-69', count },
  });
  expect(res.statusCode).toBe(201);
  return res.json().jobId;
}

const finished = (jobId: string) => finishedJob(h, jobId);

describe('listing screenshots', () => {
  // An app whose listing's screenshots are on the fake host, allowed.
  beforeEach(async (ctx) => {
    images.behaviour = 'ok';
    images.requests.length = 0;
    // A host that hangs is given up on at the time limit, once per attempt: short where no picture
    // is meant to arrive (three attempts at 1 s were most of the file's wall time), generous where
    // one must.
    const storeImageTimeoutMs = ctx.task.name.includes('"hang"') ? 100 : 1_000;
    h = await createPicturesApp({ storeImageOrigins: [images.origin], storeImageTimeoutMs });
    const screenshots = emptyScreenshots();
    screenshots.iphone = [images.url('green', 1), images.url('yellow', 2)].map((url) => ({ url, width: 392, height: 696 }));
    appId = await insertApp(h.t.pool, h.account.id, sampleListing({ screenshots }));
  });
  it('are fetched at full size from the allowed host and framed', async () => {
    const job = await finished(await createSet(2));
    expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
    // Asked for the largest rendition, not the listing's 392x696 thumbnail; each picture once.
    expect(images.requests.sort()).toEqual(['/image/thumb/green/shot1/4000x4000bb.png', '/image/thumb/yellow/shot2/4000x4000bb.png']);
    const first = job.result.slides[0];
    expect(first.screenshotUrl).toBe(images.url('green', 1));
    const file = new URL(first.image.url);
    const png = (await h.app.inject({ method: 'GET', url: file.pathname + file.search })).rawPayload;
    const { data } = await sharp(png).extract({ left: 660, top: 1800, width: 1, height: 1 }).raw().toBuffer({ resolveWithObject: true });
    expect([...data]).toEqual([0, 200, 0]);
  });

  it('follows a redirect on the same host', async () => {
    images.behaviour = 'redirect-same';
    expect((await finished(await createSet(1))).status).toBe('succeeded');
  });

  for (const behaviour of ['fail', 'hang', 'redirect-away', 'huge', 'html'] as const) {
    it(`a host that does "${behaviour}": retried, then failed with store_unavailable and refunded once`, async () => {
      images.behaviour = behaviour;
      const jobId = await createSet(1);
      const job = await finished(jobId);
      expect(job.status).toBe('failed');
      expect(job.error).toMatchObject({ code: 'store_unavailable', retryable: true });
      const { rows } = await h.t.pool.query('SELECT attempts FROM jobs WHERE id = $1', [jobId]);
      expect(rows[0].attempts).toBe(3);
      expect(await ledger(h.t.pool, h.account.id)).toEqual([
        { kind: 'charge', job_id: jobId, amount: 5 },
        { kind: 'refund', job_id: jobId, amount: 5 },
      ]);
      expect(Number((await h.t.pool.query('SELECT count(*) FROM job_files')).rows[0].count)).toBe(0);
    });
  }
});

// Apart, without the app above: it needs an app that does not allow the host, and building the
// allowed one first only to close it cost a server and a database.
describe('listing screenshots from a host not allowed', () => {
  it('a host outside the allowed origins is never asked', async () => {
    images.behaviour = 'ok';
    images.requests.length = 0;
    h = await createPicturesApp({ storeImageOrigins: ['https://*.mzstatic.com'] });
    const screenshots = emptyScreenshots();
    screenshots.iphone = [{ url: images.url('green', 1), width: 392, height: 696 }];
    appId = await insertApp(h.t.pool, h.account.id, sampleListing({ screenshots }));
    const job = await finished(await createSet(1));
    expect(job.error.code).toBe('store_unavailable');
    expect(images.requests).toEqual([]);
  });
});
