/**
 * slides[].focus over HTTP: a region of the slide's own uploaded screen, checked against that
 * screen's pixels when the set or revision is asked for (400 otherwise), kept in the plan and drawn
 * as a callout; a revision may set, remove or (by swapping the screen) drop it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../support/app.ts';
import { insertApp } from '../support/fixtures.ts';
import { createPicturesApp, type PicturesApp } from './support.ts';
import { json, upload, waitJob } from './revisions/support.ts';

let h: PicturesApp;
let appId: string;
let screens: string[];
beforeAll(async () => {
  h = await createPicturesApp();
  appId = await insertApp(h.t.pool, h.account.id);
  // 1290 × 2796 each.
  screens = [await upload(h, appId, 'red'), await upload(h, appId, 'blue')];
});
afterAll(async () => {
  await h?.close();
});

const create = (slides: object[]) =>
  h.app.inject({ method: 'POST', url: '/api/v1/public/v1/screenshots', headers: h.auth, payload: { appId, device: 'iphone-67', slides } });
const revise = (jobId: string, payload: object) =>
  h.app.inject({ method: 'POST', url: `/api/v1/public/v1/jobs/${jobId}/revisions`, headers: h.auth, payload });

const inside = { x: 100, y: 400, w: 1000, h: 300 };

describe('slides[].focus', () => {
  it('refuses a region outside the screen, and one on a slide without its own screen', async () => {
    const outside = await create([
      { headline: 'Plan Every Meal', screenId: screens[0] },
      { headline: 'Shop With One List', screenId: screens[1], focus: { x: 1000, y: 0, w: 400, h: 100 } },
    ]);
    expectProblem(outside, 400, 'validation_failed');
    expect(json(outside).errors).toEqual([{ field: 'slides/1/focus', message: expect.stringContaining('1290×2796') }]);
    const noScreen = await create([{ headline: 'Plan Every Meal', focus: inside }]);
    expectProblem(noScreen, 400, 'validation_failed');
    expect(json(noScreen).errors[0].field).toBe('slides/0/focus');
  });

  it('keeps a region within the screen in the plan and draws it; a revision checks, removes and drops it', async () => {
    const res = await create([
      { headline: 'Plan Every Meal', screenId: screens[0] },
      { headline: 'Shop With One List', screenId: screens[1], focus: inside },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const job = await waitJob(h, json(res).jobId);
    expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
    expect(job.result.slides[1].focus).toEqual(inside);
    expect(job.result.slides[0].focus).toBeUndefined();

    const tooTall = await revise(job.id, { slides: [{ index: 1, focus: { x: 0, y: 2700, w: 100, h: 200 } }] });
    expectProblem(tooTall, 400, 'validation_failed');
    expect(json(tooTall).errors[0].field).toBe('slides/0/focus');

    const revised = await revise(job.id, {
      slides: [
        { index: 1, focus: inside },
        { index: 2, focus: null },
      ],
    });
    expect(revised.statusCode, revised.body).toBe(201);
    const child = await waitJob(h, json(revised).jobId);
    expect(child.status).toBe('succeeded');
    expect(child.result.slides.map((s: { focus?: object }) => s.focus ?? null)).toEqual([inside, null]);

    // A new screen: the old region was in the old screen's pixels.
    const swapped = await revise(child.id, { slides: [{ index: 1, screenId: screens[1] }] });
    const last = await waitJob(h, json(swapped).jobId);
    expect(last.result.slides[0].focus).toBeUndefined();
  });
});
