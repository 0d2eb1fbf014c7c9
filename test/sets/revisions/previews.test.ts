/** POST /previews: a slide with unsaved changes, small, never stored; its refusals and its limit. */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../src/core/ids.ts';
import { expectProblem } from '../../support/app.ts';
import { accountWithKey } from '../../support/fixtures.ts';
import { createPicturesApp, type PicturesApp } from '../support.ts';
import { renderedSet, slideBytes, type RenderedSet } from './support.ts';
import { scaled } from '../../support/timing.ts';

let h: PicturesApp;
let set: RenderedSet;
const LIMIT = 20;

beforeAll(async () => {
  h = await createPicturesApp({
    previews: true,
    config: { revisions: { perSetPerHour: 10, perAccountPerHour: 10, previewsPerMinute: LIMIT } },
  });
  set = await renderedSet(h);
}, scaled(60_000));
afterAll(async () => {
  await h?.close();
});

const preview = (payload: object, auth = h.auth) =>
  h.app.inject({ method: 'POST', url: '/api/v1/public/v1/previews', headers: auth, payload });

/** Mean absolute difference per channel (0..255) of two same-sized pictures. */
async function difference(a: Buffer, b: Buffer): Promise<number> {
  const [x, y] = await Promise.all([a, b].map((p) => sharp(p).removeAlpha().raw().toBuffer()));
  let sum = 0;
  for (let i = 0; i < x.length; i++) sum += Math.abs(x[i] - y[i]);
  return sum / x.length;
}

describe('previews', () => {
  it('renders a slide as it is at a third of its size, the same picture as the stored one, and stores nothing', async () => {
    const files = (await h.t.pool.query('SELECT count(*)::int AS n FROM job_files')).rows[0].n;
    const res = await preview({ jobId: set.jobId, slide: { index: 1 } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['caption-fits']).toBe('true');
    const meta = await sharp(res.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([430, 932]);
    const stored = await sharp(await slideBytes(h, set.jobId, 1))
      .resize(430, 932)
      .png()
      .toBuffer();
    expect(await difference(res.rawPayload, stored)).toBeLessThan(2);
    expect((await h.t.pool.query('SELECT count(*)::int AS n FROM job_files')).rows[0].n).toBe(files);
  });

  it('shows an edited caption, and the store view of the first three slides', async () => {
    const same = (await preview({ jobId: set.jobId, slide: { index: 2 } })).rawPayload;
    const edited = await preview({ jobId: set.jobId, slide: { index: 2, headline: 'Totally Different Words' } });
    expect(edited.statusCode).toBe(200);
    expect(await difference(same, edited.rawPayload)).toBeGreaterThan(0.5);
    const store = await preview({ jobId: set.jobId, slide: { index: 1 }, view: 'store' });
    expect(store.statusCode).toBe(200);
    const meta = await sharp(store.rawPayload).metadata();
    expect(meta.height).toBe(932);
    expect(meta.width).toBeGreaterThan(3 * 430);
  });

  it('shows a swapped screen, and the slide’s own screen again after it (screens are kept per screen, not per slide)', async () => {
    const own = (await preview({ jobId: set.jobId, slide: { index: 1 } })).rawPayload;
    const swapped = await preview({ jobId: set.jobId, slide: { index: 1, screenId: set.screens[1] } });
    expect(swapped.statusCode).toBe(200);
    expect(await difference(own, swapped.rawPayload)).toBeGreaterThan(5);
    const again = (await preview({ jobId: set.jobId, slide: { index: 1 } })).rawPayload;
    expect(await difference(own, again)).toBe(0);
  });

  it('previews a slide of a set not made yet, and says when a caption cannot fit', async () => {
    const res = await preview({ appId: set.appId, device: 'iphone-67', slide: { headline: 'Plan Every Meal', screenId: set.screens[1] } });
    expect(res.statusCode).toBe(200);
    const unfit = await preview({ jobId: set.jobId, slide: { index: 1, headline: 'W'.repeat(60) } });
    expect(unfit.statusCode).toBe(200);
    expect(unfit.headers['caption-fits']).toBe('false');
  });

  it('refuses another account’s job or app, a set not succeeded, and a body it does not know', async () => {
    const other = await accountWithKey(h.t.pool);
    const auth = { authorization: `Bearer ${other.key}` };
    expectProblem(await preview({ jobId: set.jobId, slide: { index: 1 } }, auth), 404, 'job_not_found');
    expectProblem(await preview({ appId: set.appId, device: 'iphone-67', slide: { headline: 'Hi' } }, auth), 404, 'app_not_found');
    expectProblem(await preview({ jobId: newId('job'), slide: { index: 1 } }), 404, 'job_not_found');
    expectProblem(await preview({ jobId: set.jobId, slide: { index: 9 } }), 400, 'validation_failed');
    expectProblem(await preview({ jobId: set.jobId, slide: { index: 1 }, wait: true }), 400, 'validation_failed');
    const queued = newId('job');
    await h.t.pool.query(
      `INSERT INTO jobs (id, account_id, app_id, request, cost, period_start, run_at) VALUES ($1, $2, $3, '{}', 0, current_date, now() + interval '1 day')`,
      [queued, h.account.id, set.appId],
    );
    expectProblem(await preview({ jobId: queued, slide: { index: 1 } }), 409, 'job_not_revisable');
  });

  it(
    `answers at most ${LIMIT} a minute per account, then 429 with Retry-After`,
    async () => {
      let limited = null;
      for (let i = 0; i < LIMIT + 1 && !limited; i++) {
        const res = await preview({ appId: set.appId, device: 'iphone-67', slide: { headline: `Plan ${i}` } });
        if (res.statusCode === 429) limited = res;
      }
      expect(limited).not.toBeNull();
      expectProblem(limited!, 429, 'rate_limited');
      expect(Number(limited!.headers['retry-after'])).toBeGreaterThan(0);
    },
    scaled(30_000),
  );
});
