/**
 * POST /jobs/{id}/revisions over HTTP with a rendering worker: only what changed is rendered again,
 * the rest is the parent's bytes; the refusals; the hourly limits, also under concurrency.
 */
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import { newId } from '../../../src/core/ids.ts';
import { accountWithKey, insertApp } from '../../support/fixtures.ts';
import { expectProblem } from '../../support/app.ts';
import { createPicturesApp, renderPool, type PicturesApp } from '../support.ts';
import type { RenderPool } from '../../../src/rendering/index.ts';
import { json, renderedSet, sha, slideBytes, waitJob, type RenderedSet } from './support.ts';
import { scaled } from '../../support/timing.ts';
import { createRevision } from '../../../src/sets/revisions/revisions.ts';

let h: PicturesApp;
let set: RenderedSet;
// What the worker asks the renderer to draw: byte-identical files alone would not tell reuse from a
// deterministic render of the same slide again.
let drawn: MockInstance<RenderPool['renderSome']>;

beforeAll(async () => {
  h = await createPicturesApp({ config: { revisions: { perSetPerHour: 4, perAccountPerHour: 100, previewsPerMinute: 100 } } });
  set = await renderedSet(h);
  drawn = vi.spyOn(renderPool(), 'renderSome');
}, scaled(60_000));
afterAll(async () => {
  drawn?.mockRestore();
  await h?.close();
});

/** The slide positions (0-based) the renderer was asked to draw since the last call. */
const drawnSince = () => {
  const positions = drawn.mock.calls.flatMap(([, indices]) => indices);
  drawn.mockClear();
  return positions;
};

const revise = (jobId: string, payload: object, auth = h.auth) =>
  h.app.inject({ method: 'POST', url: `/api/v1/public/v1/jobs/${jobId}/revisions`, headers: auth, payload });

describe('revisions', () => {
  it('re-renders the edited slide and the moved one (its new place’s composition); the untouched slide is the parent’s bytes; costs nothing', async () => {
    const before = json(await h.app.inject({ method: 'GET', url: '/api/v1/public/v1/account', headers: h.auth }));
    drawnSince();
    const res = await revise(set.jobId, { slides: [{ index: 2, headline: 'Shop From One List' }], order: [1, 3, 2] });
    expect(res.statusCode).toBe(201);
    const body = json(res);
    expect(body).toMatchObject({ parentJobId: set.jobId, slides: 3, credits: { cost: 0 } });
    expect(res.headers.location).toBe(`/api/v1/public/v1/jobs/${body.jobId}`);
    const job = await waitJob(h, body.jobId);
    expect(job.status).toBe('succeeded');
    expect(job.parentJobId).toBe(set.jobId);
    expect(job.result.slides.map((s: { headline: string }) => s.headline)).toEqual([
      'Plan Every Meal Fast',
      'Cook Without Stress',
      'Shop From One List',
    ]);
    const [p1, p2, p3] = await Promise.all([1, 2, 3].map((i) => slideBytes(h, set.jobId, i)));
    const [n1, n2, n3] = await Promise.all([1, 2, 3].map((i) => slideBytes(h, body.jobId, i)));
    expect(n1.equals(p1)).toBe(true);
    // Slide 3, now second, takes the second place's composition (the headline at the bottom).
    expect(n2.equals(p3)).toBe(false);
    expect(job.result.slides[1].layout).toBe('headline-bottom');
    expect(n3.equals(p2)).toBe(false);
    // The edited slide, now third, and the moved one were drawn; the first was not drawn at all.
    expect(drawnSince().sort()).toEqual([1, 2]);
    expect(job.result.slides[0].image.sha256).toBe(sha(p1));
    expect(job.result.archive.sha256).toMatch(/^[0-9a-f]{64}$/);
    const after = json(await h.app.inject({ method: 'GET', url: '/api/v1/public/v1/account', headers: h.auth }));
    expect(after.credits).toEqual(before.credits);
  });

  it('swaps a screen: that slide changes, the others stay byte-identical', async () => {
    drawnSince();
    const res = await revise(set.jobId, { slides: [{ index: 3, screenId: set.screens[0] }] });
    expect(res.statusCode).toBe(201);
    const job = await waitJob(h, json(res).jobId);
    expect(job.status).toBe('succeeded');
    const parent = await Promise.all([1, 2, 3].map((i) => slideBytes(h, set.jobId, i)));
    const child = await Promise.all([1, 2, 3].map((i) => slideBytes(h, job.id, i)));
    expect(child.map((b, i) => b.equals(parent[i]))).toEqual([true, true, false]);
    expect(drawnSince()).toEqual([2]);
    expect(job.result.slides[2].screenId).toBe(set.screens[0]);
  });

  it('keeps the parent’s store preview when the first three slides are unchanged, and draws it again when one changes', async () => {
    // A set of its own: the hourly limit per set is counted by the other tests.
    const own = await renderedSet(h, set.appId);
    const parentPreview = (own.job.result as { storePreview?: { sha256: string } }).storePreview;
    expect(parentPreview?.sha256).toMatch(/^[0-9a-f]{64}$/);
    const added = await waitJob(
      h,
      json(await revise(own.jobId, { add: [{ headline: 'Share With Family', screenId: own.screens[0] }] })).jobId,
    );
    expect(added.status).toBe('succeeded');
    expect(added.result.storePreview.sha256).toBe(parentPreview!.sha256);
    const edited = await waitJob(h, json(await revise(own.jobId, { slides: [{ index: 1, headline: 'Plan Meals in Minutes' }] })).jobId);
    expect(edited.status).toBe('succeeded');
    expect(edited.result.storePreview.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(edited.result.storePreview.sha256).not.toBe(parentPreview!.sha256);
    const res = await h.app.inject({ method: 'GET', url: new URL(edited.result.storePreview.url).pathname, headers: h.auth });
    expect(res.statusCode).toBe(200);
  });

  it('a theme-only revision draws every slide in the new theme, and its result names that theme', async () => {
    const own = await renderedSet(h, set.appId);
    expect(own.job.result).toMatchObject({ theme: 'soft' });
    drawn.mockClear();
    const res = await revise(own.jobId, { theme: 'dark' });
    expect(res.statusCode).toBe(201);
    const job = await waitJob(h, json(res).jobId);
    expect(job.status).toBe('succeeded');
    expect(drawn.mock.calls.map(([input, indices]) => [input.theme, indices])).toEqual([['dark', [0, 1, 2]]]);
    expect(job.result.theme).toBe('dark');
    // A revision of that revision starts from the theme it was drawn in: an edited slide is dark too.
    drawn.mockClear();
    const next = await waitJob(h, json(await revise(job.id, { slides: [{ index: 2, headline: 'Shop From One List' }] })).jobId);
    expect(next.status).toBe('succeeded');
    expect(drawn.mock.calls.map(([input, indices]) => [input.theme, indices])).toEqual([['dark', [1]]]);
    expect(next.result.theme).toBe('dark');
  });

  it('a set drawn in its brand kit’s theme is revised in that theme, not the default', async () => {
    const appId = await insertApp(h.t.pool, h.account.id);
    const kit = await h.app.inject({
      method: 'PUT',
      url: `/api/v1/public/v1/apps/${appId}/brand`,
      headers: h.auth,
      payload: { defaultTheme: 'bold' },
    });
    expect(kit.statusCode).toBe(200);
    const own = await renderedSet(h, appId);
    expect(own.job.result).toMatchObject({ theme: 'bold' });
    drawn.mockClear();
    const job = await waitJob(h, json(await revise(own.jobId, { slides: [{ index: 2, headline: 'Shop From One List' }] })).jobId);
    expect(job.status).toBe('succeeded');
    expect(drawn.mock.calls.map(([input, indices]) => [input.theme, indices])).toEqual([['bold', [1]]]);
    expect(job.result.theme).toBe('bold');
  });

  it('warns about what the caption checks find, and refuses a caption that cannot fit, naming the field', async () => {
    const warned = await revise(set.jobId, { slides: [{ index: 1, headline: 'Best Meal Planner on Android' }] });
    expect(warned.statusCode).toBe(201);
    expect(json(warned).warnings.join(' ')).toMatch(/slide 1: headline: .* names another store/);

    const unfit = await revise(set.jobId, { slides: [{ index: 2, headline: 'W'.repeat(60) }] });
    const problem = expectProblem(unfit, 400, 'validation_failed');
    expect(problem.errors).toEqual([{ field: 'slides/0/headline', message: expect.stringMatching(/cannot fit/) }]);
  });

  it('refuses edits that do not add up, naming each field', async () => {
    const res = await revise(set.jobId, { slides: [{ index: 5, headline: 'Nope' }], remove: [1, 2, 3], order: [1, 1] });
    const problem = expectProblem(res, 400, 'validation_failed');
    expect(problem.errors.map((e: { field: string }) => e.field).sort()).toEqual(['order', 'remove', 'slides/0/index']);
    expectProblem(await revise(set.jobId, {}), 400, 'validation_failed');
    expectProblem(await revise(set.jobId, { theme: 'neon' }), 400, 'validation_failed');
    expectProblem(await revise(set.jobId, { slides: [{ index: 1, screenId: 'scr_01JD2ZK5T8Q3W4E5R6T7Y8U9CD' }] }), 404, 'screen_not_found');
  });

  it('answers 404 for another account’s job and an unknown one, 409 for a queued or failed job', async () => {
    const other = await accountWithKey(h.t.pool);
    expectProblem(await revise(set.jobId, { theme: 'dark' }, { authorization: `Bearer ${other.key}` }), 404, 'job_not_found');
    expectProblem(await revise(newId('job'), { theme: 'dark' }), 404, 'job_not_found');
    expectProblem(await revise('job_../../etc', { theme: 'dark' }), 404, 'job_not_found');
    const queued = newId('job');
    const failed = newId('job');
    await h.t.pool.query(
      `INSERT INTO jobs (id, account_id, app_id, request, cost, period_start, run_at, status, error)
       VALUES ($1, $3, $4, '{}', 0, current_date, now() + interval '1 day', 'queued', NULL),
              ($2, $3, $4, '{}', 0, current_date, now(), 'failed', '{"code":"internal_error","message":"x","retryable":false}')`,
      [queued, failed, h.account.id, set.appId],
    );
    expectProblem(await revise(queued, { theme: 'dark' }), 409, 'job_not_revisable');
    expectProblem(await revise(failed, { theme: 'dark' }), 409, 'job_not_revisable');
  });

  it(
    'limits revisions per set and hour, exactly, under concurrent requests, with Retry-After',
    async () => {
      const fresh = await renderedSet(h, set.appId);
      const answers = await Promise.all(
        Array.from({ length: 7 }, (_, i) => revise(fresh.jobId, { slides: [{ index: 1, headline: `Plan Meals ${i}` }] })),
      );
      const codes = answers.map((r) => r.statusCode).sort();
      expect(codes).toEqual([201, 201, 201, 201, 429, 429, 429]);
      const limited = answers.find((r) => r.statusCode === 429)!;
      expectProblem(limited, 429, 'rate_limited');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(3000);
      // A revision of a revision counts against the same set.
      const child = json(answers.find((r) => r.statusCode === 201)!).jobId;
      await waitJob(h, child);
      expectProblem(await revise(child, { theme: 'dark' }), 429, 'rate_limited');
    },
    scaled(60_000),
  );

  it('limits revisions per account and hour, across its sets, and writes nothing when it refuses', async () => {
    const made = async () =>
      (
        await h.t.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM jobs WHERE account_id = $1 AND parent_job_id IS NOT NULL AND created_at > now() - interval '1 hour'`,
          [h.account.id],
        )
      ).rows[0].n;
    const edit = { slides: [{ index: 1, headline: 'Plan Meals in Minutes' }] };
    // This account's revisions so far (at least one, whichever tests ran before).
    await createRevision(h.t.pool, h.account.id, set.jobId, edit, { limits: { perSetPerHour: 1000, perAccountPerHour: 1000 } });
    const before = await made();
    expect(before).toBeGreaterThan(0);
    // At the account's limit, any set of it is refused, the per-set limit notwithstanding.
    const refused = await createRevision(h.t.pool, h.account.id, set.jobId, edit, {
      limits: { perSetPerHour: 1000, perAccountPerHour: before },
      notify: false,
    }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'rate_limited', status: 429 });
    expect((refused as { detail: string }).detail).toContain(`This account made ${before} revisions in the last hour`);
    expect(Number((refused as { headers: Record<string, string> }).headers['Retry-After'])).toBeGreaterThan(0);
    expect(await made()).toBe(before);
    // One place left: taken.
    const created = await createRevision(h.t.pool, h.account.id, set.jobId, edit, {
      limits: { perSetPerHour: 1000, perAccountPerHour: before + 1 },
    });
    expect(created.parentJobId).toBe(set.jobId);
    expect(await made()).toBe(before + 1);
    expect((await waitJob(h, created.jobId)).status).toBe('succeeded');
  });
});
