/** Pictures past JOB_RETENTION_DAYS are removed; the job, its plan and the ledger stay. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claimJobs, completeJob } from '../../src/sets/job-queue.ts';
import { saveJobFiles } from '../../src/sets/files.ts';
import { purgeExpiredPictures } from '../../src/sets/retention.ts';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import { createTestApp, expectProblem, type TestApp } from '../support/app.ts';
import { solidPng } from '../support/fake-images.ts';
import { insertApp, sampleListing } from '../support/fixtures.ts';
import { enqueueJobs, ledger } from '../support/jobs.ts';

describe('retention of pictures', () => {
  let h: TestApp;
  beforeEach(async () => {
    h = await createTestApp();
  });
  afterEach(async () => h.close());

  async function succeededJob(): Promise<string> {
    const [id] = await enqueueJobs(h.t.pool, h.account.id, await insertApp(h.t.pool, h.account.id), 1);
    await claimJobs(h.t.pool, 'w', 1, 60_000);
    const png = await solidPng(400, 800, 'red');
    const files = ['slides/1.png', 'archive.zip'].map((name) => ({
      name,
      objectKey: `jobs/${id}/a1/${name}`,
      contentType: 'image/png',
      bytes: png.length,
      sha256: 'c'.repeat(64),
      width: 400,
      height: 800,
    }));
    for (const f of files) await h.services.objects.put(f.objectKey, png, f.contentType);
    const result = planScreenshotSet({ listings: [sampleListing()], extraContext: null, request: { device: 'iphone-69', count: 1 } });
    await completeJob(h.t.pool, 'w', id, { result, save: (tx) => saveJobFiles(tx, id, files) });
    return id;
  }

  it('removes the files of jobs finished longer ago than the retention, keeps the job and its charge', async () => {
    const old = await succeededJob();
    const recent = await succeededJob();
    await h.t.pool.query(`ALTER TABLE jobs DISABLE TRIGGER USER`);
    await h.t.pool.query(`UPDATE jobs SET updated_at = now() - interval '31 days' WHERE id = $1`, [old]);
    await h.t.pool.query(`ALTER TABLE jobs ENABLE TRIGGER USER`);
    const screen = (
      await h.app.inject({
        method: 'POST',
        url: `/api/v1/public/v1/apps/${await insertApp(h.t.pool, h.account.id)}/screens`,
        headers: { ...h.auth, 'content-type': 'image/png' },
        payload: await solidPng(400, 800, 'blue'),
      })
    ).json();
    await h.t.pool.query(`UPDATE screens SET deleted_at = now() - interval '40 days' WHERE id = $1`, [screen.screenId]);

    expect(await purgeExpiredPictures(h.t.pool, h.services.objects, 30, new Date())).toEqual({ jobs: 1, screens: 1 });
    expect(await h.services.objects.get(`jobs/${old}/a1/slides/1.png`)).toBeNull();
    expect(await h.services.objects.get(`jobs/${recent}/a1/slides/1.png`)).not.toBeNull();
    const job = (await h.app.inject({ method: 'GET', url: `/api/v1/public/v1/jobs/${old}`, headers: h.auth })).json();
    expect(job.status).toBe('succeeded');
    expect(job.result.slides[0].image).toBeUndefined();
    expect(job.result.archive).toBeUndefined();
    expectProblem(
      await h.app.inject({ method: 'GET', url: `/api/v1/public/v1/jobs/${old}/slides/1.png`, headers: h.auth }),
      404,
      'job_not_found',
    );
    expect((await ledger(h.t.pool, h.account.id)).filter((l) => l.kind === 'charge')).toHaveLength(2);
    expect(Number((await h.t.pool.query('SELECT count(*) FROM screens')).rows[0].count)).toBe(0);
    // Nothing more to do, and 0 days keeps everything.
    expect(await purgeExpiredPictures(h.t.pool, h.services.objects, 30, new Date())).toEqual({ jobs: 0, screens: 0 });
    expect(await purgeExpiredPictures(h.t.pool, h.services.objects, 0, new Date(Date.now() + 1e12))).toEqual({ jobs: 0, screens: 0 });
  });
});
