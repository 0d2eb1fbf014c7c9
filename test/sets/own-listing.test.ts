/**
 * An app before launch end to end, with no store reachable (the test server's store endpoints are a
 * closed port and no image origin is allowed): created from its listing text, its icon and screens
 * uploaded, a set planned, rendered, revised and zipped like any other.
 */
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solidPng } from '../support/fake-images.ts';
import { createPicturesApp, type PicturesApp } from './support.ts';

const API = '/api/v1/public/v1';
let h: PicturesApp;

beforeAll(async () => {
  h = await createPicturesApp();
});
afterAll(async () => {
  await h?.close();
});

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object | Buffer, type?: string) =>
  h.app.inject({ method, url: `${API}${url}`, headers: { ...h.auth, ...(type ? { 'content-type': type } : {}) }, payload });

async function finished(jobId: string) {
  let job = (await h.app.inject({ method: 'GET', url: `${API}/jobs/${jobId}`, headers: { ...h.auth, prefer: 'wait=30' } })).json();
  for (let i = 0; i < 5 && job.status !== 'succeeded' && job.status !== 'failed'; i++)
    job = (await h.app.inject({ method: 'GET', url: `${API}/jobs/${jobId}`, headers: { ...h.auth, prefer: 'wait=30' } })).json();
  return job;
}

describe('an app made from its own listing', () => {
  it('plans, renders, revises and zips a set from uploaded screens, in its uploaded icon’s colours', async () => {
    const app = (
      await call('POST', '/apps', {
        listing: {
          name: 'Fernly',
          subtitle: 'Plant care made simple',
          description:
            'Fernly keeps your houseplants alive and thriving.\n• Get watering reminders for every plant\n• Identify any plant from a photo\n• Measure the light in any room\n• Track growth in a photo journal',
          category: 'Lifestyle',
        },
      })
    ).json();
    expect(app.artworkUrl).toBeNull();

    // Without screens there is nothing to frame, and the answer says what to upload.
    const refused = await call('POST', '/screenshots', { appId: app.appId, device: 'iphone-69', count: 3 });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ code: 'cannot_fill_set', fixes: ['screens'] });
    expect(refused.json().detail).toMatch(/not in a store yet.*Upload screens/);

    expect((await call('PUT', `/apps/${app.appId}/icon`, await solidPng(1024, 1024, 'green'), 'image/png')).statusCode).toBe(200);
    for (const color of ['red', 'blue']) {
      const res = await call('POST', `/apps/${app.appId}/screens`, await solidPng(1290, 2796, color), 'image/png');
      expect(res.statusCode).toBe(201);
    }
    const created = await call('POST', '/screenshots', { appId: app.appId, device: 'iphone-69', count: 3 });
    expect(created.statusCode, created.body).toBe(201);
    // Nothing about store screenshots: the app has no store listing to take them from.
    expect(created.json().warnings).toEqual([]);
    const job = await finished(created.json().jobId);
    expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
    const { result } = job;
    expect(result.slides).toHaveLength(3);
    expect(result.slides.every((s: { screenId: string | null }) => s.screenId?.startsWith('scr_'))).toBe(true);
    // The colours are the uploaded icon's (green), read from object storage: no store was asked for one.
    expect(result.brand.source).toBe('icon');
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(result.brand.primary.slice(i, i + 2), 16));
    expect(g).toBeGreaterThan(r + 40);
    expect(g).toBeGreaterThan(b + 40);
    expect(result.warnings.join(' ')).not.toMatch(/icon|screenshot/i);
    // Captions come from the listing's own words.
    const words = result.slides.map((s: { headline: string }) => s.headline).join(' ');
    expect(words).toMatch(/Plant|Watering|Light|Growth/i);

    const revised = await call('POST', `/jobs/${job.id}/revisions`, { slides: [{ index: 2, headline: 'Never Forget to Water' }] });
    expect(revised.statusCode, revised.body).toBe(201);
    const revision = await finished(revised.json().jobId);
    expect(revision.status, JSON.stringify(revision.error)).toBe('succeeded');
    expect(revision.result.slides[1].headline).toBe('Never Forget to Water');

    const zipUrl = new URL(revision.result.archive.url);
    const zip = await h.app.inject({ method: 'GET', url: zipUrl.pathname + zipUrl.search });
    expect(zip.statusCode).toBe(200);
    expect(createHash('sha256').update(zip.rawPayload).digest('hex')).toBe(revision.result.archive.sha256);
    const slideUrl = new URL(revision.result.slides[0].image.url);
    const slide = await h.app.inject({ method: 'GET', url: slideUrl.pathname + slideUrl.search });
    expect(await sharp(slide.rawPayload).metadata()).toMatchObject({ width: 1320, height: 2868 });
  });
});
