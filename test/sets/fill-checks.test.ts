/**
 * What a create's check before the charge reads is planned when the app is created
 * (src/jobs/fill-checks.ts): even an app's first create plans nothing inside the request, a changed
 * listing or guidance is planned anew, screens change no fact, and the refusals are the planner's own.
 */
import { describe, expect } from 'vitest';
import { findApp, setGuidance } from '../../src/apps/apps.ts';
import { factsFor, factsPlannedInRequest, forgetKnownFacts, planFillChecks, sourceOf } from '../../src/sets/fill-checks.ts';
import { fillabilityTasks } from '../../src/planning/fillable.ts';
import { draftScreenshotSet, rulesAt } from '../../src/planning/plan.ts';
import { refusalOf } from '../../src/planning/refuse.ts';
import { findNarrative } from '../../src/core/narratives.ts';
import type { PlanRequest } from '../../src/core/set.ts';
import { isProblem } from '../../src/core/problem.ts';
import type { Listing } from '../../src/core/listing.ts';
import { expectProblem, type TestApp } from '../support/app.ts';
import { it, LISTED } from '../support/context.ts';
import { solidPng } from '../support/fake-images.ts';
import { insertApp, sampleListing } from '../support/fixtures.ts';
import { lookupBody, lookupResult } from '../support/store-fixtures.ts';

const SETS = '/api/v1/public/v1/screenshots';
const create = (h: TestApp, body: object) => h.app.inject({ method: 'POST', url: SETS, headers: h.auth, payload: body });
const estimate = (h: TestApp, body: object) => h.app.inject({ method: 'POST', url: `${SETS}/estimate`, headers: h.auth, payload: body });
/** Plans run in the planning thread, and creates that planned in the request, so far. */
const planning = () => ({ tasks: fillabilityTasks(), inRequest: factsPlannedInRequest() });
const stored = async (h: TestApp, appId: string) =>
  (await h.t.pool.query<{ source: string; request: string }>('SELECT source, request FROM app_fill_checks WHERE app_id = $1', [appId]))
    .rows;

/** An app of this account, its facts planned as when it is created, and nothing of them in this process's memory. */
async function plannedApp(h: TestApp, listing: Listing, extraContext: string | null = null): Promise<string> {
  const appId = await insertApp(h.t.pool, h.account.id, listing);
  if (extraContext) await setGuidance(h.t.pool, h.account.id, appId, extraContext);
  await planFillChecks(h.t.pool, (await findApp(h.t.pool, h.account.id, appId))!).all;
  forgetKnownFacts();
  return appId;
}

/** The refusal the planner itself gives, or its warnings: what a create planned inline before (without a model). */
function planned(listing: Listing, request: PlanRequest, uploadedScreens?: number) {
  const input = { listings: [listing], extraContext: null, request, uploadedScreens };
  try {
    const draft = draftScreenshotSet(input);
    if (draft.rules.some((c) => c === null))
      throw refusalOf(draft, request.narrativeId ? findNarrative(request.narrativeId) : null, (count) => rulesAt(input, count));
    return { warnings: [...draft.warnings] };
  } catch (error) {
    if (!isProblem(error)) throw error;
    return { code: error.code, detail: error.detail, ...error.extensions };
  }
}

describe('the check before the charge reads facts planned with the app', () => {
  it('an app created over the API: its first creates (and a dry run), at once or later, plan nothing in the request', async ({
    api: h,
    store,
  }) => {
    // A listing no other test plans, so nothing of it is known to this process beforehand.
    const description = `Track every habit you build.\n• Remind yourself at the right time\n• See your streaks on charts\n• Share goals with friends (${Date.now()})`;
    store.set('app-store', LISTED.appStore, { body: lookupBody([lookupResult({ description })]) });
    let planningDone: Promise<void> | null = null;
    h.services.planFillChecks = (app) => {
      const planned = planFillChecks(h.t.pool, app);
      planningDone = planned.all;
      return planned.usual;
    };
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/v1/public/v1/apps',
      headers: h.auth,
      payload: { iosUrl: 'https://apps.apple.com/us/app/x/id1234567890' },
    });
    expect(res.statusCode).toBe(200);
    const appId = res.json().appId as string;
    // The usual set is planned before the app is answered: a create sent at once reads it, while the rest is planned.
    expect((await stored(h, appId)).map((r) => r.request)).toContain('iphone-69 aso-expert short 5');
    forgetKnownFacts();
    const atOnce = factsPlannedInRequest();
    expect((await create(h, { appId, device: 'iphone-69' })).statusCode).toBe(201);
    expect(factsPlannedInRequest()).toBe(atOnce);
    await planningDone;
    // Every count and narrative of the default voice and length, for each App Store device.
    const rows = await stored(h, appId);
    expect(rows.map((r) => r.request)).toContain('iphone-69 aso-expert short 7');
    expect(rows.map((r) => r.request)).toContain('ipad-13 aso-expert short single-hero');
    expect(rows).toHaveLength(6 * 17);

    forgetKnownFacts(); // as another process, or this one after a restart: the database has them
    const before = planning();
    // 6: since the whole-phrase rules this listing fills 6 slides, not 7 (the point here is what the request plans).
    const first = await create(h, { appId, device: 'iphone-69', count: 6 });
    expect(first.statusCode, first.body).toBe(201);
    expect((await estimate(h, { appId, device: 'ipad-13', narrativeId: 'single-hero' })).statusCode).toBe(200);
    expect(planning()).toEqual(before);

    // A voice not planned ahead is planned by its first create, once.
    expect((await create(h, { appId, device: 'iphone-69', count: 4, captionStyle: 'playful' })).statusCode).toBe(201);
    expect(planning()).toEqual({ tasks: before.tasks + 1, inRequest: before.inRequest + 1 });
    forgetKnownFacts();
    expect((await create(h, { appId, device: 'iphone-69', count: 4, captionStyle: 'playful' })).statusCode).toBe(201);
    expect(planning()).toEqual({ tasks: before.tasks + 1, inRequest: before.inRequest + 1 });
  });

  it('refuses what the planner refuses, with the same words, from the stored facts', async ({ api: h }) => {
    // Two lines: the rule writer cannot fill six slides from it.
    const sparse = sampleListing({ description: `Plan meals for the week in minutes (${Date.now()}).`, subtitle: null });
    const appId = await plannedApp(h, sparse);
    const before = planning();
    for (const request of [
      { device: 'iphone-69', count: 6 },
      { device: 'iphone-69', narrativeId: 'full-tour' },
      { device: 'ipad-pro', count: 8 },
    ] as PlanRequest[]) {
      const p = expectProblem(await create(h, { appId, ...request }), 422, 'cannot_fill_set');
      expect(p).toMatchObject(planned(sparse, request));
    }
    expect((await create(h, { appId, device: 'iphone-69', count: 1 })).json().warnings).toEqual(
      planned(sparse, { device: 'iphone-69', count: 1 }).warnings,
    );
    expect(planning()).toEqual(before);
  });

  it('screens change no fact: nothing to frame follows uploads and deletes, without planning again', async ({ api: h }) => {
    // A Mac listing: nothing an iPhone set can frame but uploaded screens (and a warning about it).
    const mac = sampleListing({ platform: 'mac', description: `${sampleListing().description}\n• Sync across devices (${Date.now()})` });
    const appId = await plannedApp(h, mac);
    const before = planning();
    const refused = expectProblem(await create(h, { appId, device: 'iphone-69', count: 3 }), 422, 'cannot_fill_set');
    expect(refused).toMatchObject(planned(mac, { device: 'iphone-69', count: 3 }, 0));
    expect(refused.detail).toMatch(/upload iPhone screens/i);
    const upload = await h.app.inject({
      method: 'POST',
      url: `/api/v1/public/v1/apps/${appId}/screens`,
      headers: { ...h.auth, 'content-type': 'image/png' },
      payload: await solidPng(1290, 2796, 'red'),
    });
    expect(upload.statusCode).toBe(201);
    const accepted = await create(h, { appId, device: 'iphone-69', count: 3 });
    expect(accepted.statusCode).toBe(201);
    expect(accepted.json().warnings).toEqual(planned(mac, { device: 'iphone-69', count: 3 }, 1).warnings);
    const del = await h.app.inject({
      method: 'DELETE',
      url: `/api/v1/public/v1/apps/${appId}/screens/${upload.json().screenId}`,
      headers: h.auth,
    });
    expect(del.statusCode).toBe(204);
    expectProblem(await create(h, { appId, device: 'iphone-69', count: 3 }), 422, 'cannot_fill_set');
    expect(planning()).toEqual(before);
  });

  it('new guidance or a changed listing is a new source: planned anew, never answered from the old facts', async ({ api: h }) => {
    const sparse = sampleListing({ description: `Plan meals for the week in minutes [${Date.now()}].`, subtitle: null });
    const appId = await plannedApp(h, sparse);
    const [old] = await stored(h, appId);
    const six = async (source: string) =>
      (
        await h.t.pool.query('SELECT facts FROM app_fill_checks WHERE app_id = $1 AND source = $2 AND request = $3', [
          appId,
          source,
          'iphone-69 aso-expert short 6',
        ])
      ).rows[0]?.facts;
    expect((await six(old.source)).unfilled).toMatchObject({ code: 'cannot_fill_set', extensions: { asked: 6 } });

    // Guidance that says enough: planned again when it is saved (as the dashboard does); the facts
    // before stay for a process whose snapshot of the app is older, those before them go.
    const guidance =
      'Build shopping lists automatically. Share lists with your family. Scan barcodes to add groceries. Save favourite recipes offline. Track what is in your pantry.';
    const guide = async (text: string) => {
      await setGuidance(h.t.pool, h.account.id, appId, text);
      await planFillChecks(h.t.pool, (await findApp(h.t.pool, h.account.id, appId))!).all;
    };
    await guide(`${guidance} Plan a week of dinners.`);
    await guide(guidance);
    const sources = new Set((await stored(h, appId)).map((r) => r.source));
    expect(sources).toEqual(new Set([sourceOf([sparse], guidance), sourceOf([sparse], `${guidance} Plan a week of dinners.`)]));
    expect(sources.has(old.source)).toBe(false);
    expect((await six(sourceOf([sparse], guidance))).unfilled).toBeNull();
    forgetKnownFacts();
    const before = planning();
    expect((await create(h, { appId, device: 'iphone-69', count: 6 })).statusCode).toBe(201);
    expect(planning()).toEqual(before);

    // A listing that changed under the app (a store URL added later) is not answered from the stored facts.
    const changed = { ...sparse, description: `${sparse.description}\n• Scan barcodes to add groceries` };
    expect(sourceOf([changed], guidance)).not.toBe(sourceOf([sparse], guidance));
    const request = {
      device: 'iphone-69' as const,
      captionStyle: 'aso-expert' as const,
      captionLength: 'short' as const,
      count: 6,
      narrativeId: null,
    };
    await factsFor(h.t.pool, h.account.id, appId, [changed], guidance, request);
    expect(planning()).toEqual({ tasks: before.tasks + 1, inRequest: before.inRequest + 1 });
  });
});
