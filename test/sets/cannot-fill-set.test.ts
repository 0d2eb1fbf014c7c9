import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, expectProblem, uploadIphoneScreen, type TestApp } from '../support/app.ts';
import { accountWithKey, insertApp, sampleListing } from '../support/fixtures.ts';
import { setGuidance } from '../../src/apps/apps.ts';
import { draftScreenshotSet } from '../../src/planning/plan.ts';

const SETS = '/api/v1/public/v1/screenshots';
// Two lines: the rule writer cannot fill six slides from it.
const sparse = sampleListing({ description: 'Plan meals for the week in minutes.', subtitle: null });

describe('POST /screenshots refuses before the charge a set it cannot fill', () => {
  let h: TestApp;
  beforeEach(async () => {
    h = await createTestApp();
  });
  afterEach(async () => h.close());

  const create = (body: object, auth = h.auth) => h.app.inject({ method: 'POST', url: SETS, headers: auth, payload: body });
  const moved = async () => {
    const { rows } = await h.t.pool.query(
      `SELECT (SELECT count(*) FROM jobs)::int AS jobs, (SELECT count(*) FROM credit_ledger)::int AS ledger,
              (SELECT coalesce(sum(used), 0) FROM credit_periods)::int AS used`,
    );
    return rows[0] as { jobs: number; ledger: number; used: number };
  };

  it('accepts a set the listing can fill (201) and charges it', async () => {
    const appId = await insertApp(h.t.pool, h.account.id);
    expect((await create({ appId, device: 'iphone-69', count: 5 })).statusCode).toBe(201);
    expect(await moved()).toMatchObject({ jobs: 1, ledger: 1, used: 5 });
  });

  it('422 cannot_fill_set says how many slides the listing supports and what to add; no credit moves', async () => {
    const appId = await insertApp(h.t.pool, h.account.id, sparse);
    const p = expectProblem(await create({ appId, device: 'iphone-69', count: 6 }), 422, 'cannot_fill_set');
    expect(p.detail).toMatch(/supports \d slides?/);
    expect(p.detail).toMatch(/extraContext/);
    expect(p.detail).toMatch(/"slides"/);
    expect(p).toMatchObject({ asked: 6, fixes: ['extraContext', 'slides', 'count'] });
    expect(p.supported).toBeLessThan(6);
    expect(await moved()).toEqual({ jobs: 0, ledger: 0, used: 0 });
    // With extraContext the listing says enough.
    await h.t.pool.query(`UPDATE apps SET extra_context = $2 WHERE id = $1`, [
      appId,
      'Build shopping lists automatically. Share lists with your family. Scan barcodes to add groceries. Save favourite recipes offline. Track what is in your pantry.',
    ]);
    expect((await create({ appId, device: 'iphone-69', count: 6 })).statusCode).toBe(201);
  });

  it('422 cannot_fill_set when the device family has no screenshots and no screens were uploaded', async () => {
    const screenshots = { ...sampleListing().screenshots, iphone: [] };
    const appId = await insertApp(h.t.pool, h.account.id, sampleListing({ screenshots }));
    const p = expectProblem(await create({ appId, device: 'iphone-69', count: 3 }), 422, 'cannot_fill_set');
    expect(p.detail).toMatch(/has no iphone screenshots .*Upload screens/);
    expect(await moved()).toEqual({ jobs: 0, ledger: 0, used: 0 });
  });

  it("422 cannot_fill_set for a Mac app's listing asked for an iPhone set names the reason: a Mac app", async () => {
    const appId = await insertApp(h.t.pool, h.account.id, sampleListing({ platform: 'mac' }));
    const p = expectProblem(await create({ appId, device: 'iphone-69', count: 3 }), 422, 'cannot_fill_set');
    expect(p.detail).toMatch(/listing is a Mac app's/);
    expect(p.detail).toMatch(/Use the `mac` device, or upload iPhone screens/);
    expect(p.detail).not.toMatch(/has no iphone screenshots/);
    expect(await moved()).toEqual({ jobs: 0, ledger: 0, used: 0 });
  });

  it('answers what it knows before the charge as warnings: a Mac listing for an iPhone set framing uploaded screens', async () => {
    const appId = await insertApp(h.t.pool, h.account.id, sampleListing({ platform: 'mac' }));
    await uploadIphoneScreen(h, appId);
    const res = await create({ appId, device: 'iphone-69', count: 3 });
    expect(res.statusCode).toBe(201);
    expect(res.json().warnings).toEqual([expect.stringContaining("This is a Mac app's listing")]);
    // Uploaded iPhone screens are the user's word that an iOS version exists: the warning says where
    // the set goes; a set known to be unsubmittable would have been refused, not charged.
    expect(res.json().warnings[0]).not.toMatch(/cannot be submitted/);
    expect(res.json().warnings[0]).toMatch(/Submit it to the app's iOS version; for the Mac App Store, use the `mac` device/);
    // An iPhone listing has nothing to say before the charge.
    const ios = await insertApp(h.t.pool, h.account.id);
    expect((await create({ appId: ios, device: 'iphone-69', count: 3 })).json().warnings).toEqual([]);
  });

  it("a narrative's refusal counts `supported` on that narrative, names its slides, and offers the default story", async () => {
    const appId = await insertApp(h.t.pool, h.account.id, sparse);
    const p = expectProblem(await create({ appId, device: 'iphone-69', narrativeId: 'problem-solution' }), 422, 'cannot_fill_set');
    // The planner's own draft of the narrative: its roles in order, the slides it could write.
    const draft = draftScreenshotSet({
      listings: [sparse],
      extraContext: null,
      uploadedScreens: 0,
      request: { device: 'iphone-69', narrativeId: 'problem-solution' },
    });
    const filled = draft.rules.filter((c) => c !== null).length;
    expect(filled).toBeGreaterThan(0);
    expect(p).toMatchObject({
      asked: 6,
      supported: filled,
      narrativeId: 'problem-solution',
      fixes: ['extraContext', 'slides', 'narrativeId'],
    });
    expect(p.detail).toContain(`supports ${filled} of the 6 slides of the "Problem → solution" story`);
    const missing = draft.rules.flatMap((c, i) => (c ? [] : [`${i + 1} (${draft.roles[i].replace(/-/g, ' ')})`]));
    expect(p.detail).toContain(missing.join(', '));
    expect(await moved()).toEqual({ jobs: 0, ledger: 0, used: 0 });
    // The offer is one a client can follow: the default story at that count is made and charged once.
    const offered = (p as { defaultStorySupported: number }).defaultStorySupported;
    expect(offered).toBeGreaterThan(0);
    expect((await create({ appId, device: 'iphone-69', count: offered })).statusCode).toBe(201);
    expect(await moved()).toMatchObject({ jobs: 1, ledger: 1, used: 5 });
  });

  it('offers no smaller count whose captions would only say what any app says', async () => {
    const hype = sampleListing({ description: 'The best free app. Download now!', subtitle: null });
    const appId = await insertApp(h.t.pool, h.account.id, hype);
    const p = expectProblem(await create({ appId, device: 'iphone-69', count: 3 }), 422, 'cannot_fill_set');
    expect(p).toMatchObject({ asked: 3, supported: 0, fixes: ['extraContext', 'slides'] });
    expect(p.detail).toMatch(/fewer would not help: the only captions it gives \("The Best Free App"\)/);
    expect(await moved()).toEqual({ jobs: 0, ledger: 0, used: 0 });
    // A listing whose one line says what the app does makes a short set of it: that line, the
    // store's rating and the closing ask, each stand-in named in the warnings (issue 33: refuse less).
    const plain = await insertApp(h.t.pool, h.account.id, sparse);
    const made = await create({ appId: plain, device: 'iphone-69', count: 3 });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/shows the app's rating instead/),
        expect.stringMatching(/asks for the download instead/),
      ]),
    );
    // Twice as many slides are past what it can say: refused, offering the count it supports.
    const offered = expectProblem(await create({ appId: plain, device: 'iphone-69', count: 6 }), 422, 'cannot_fill_set');
    expect(offered.supported).toBeGreaterThan(0);
    expect(offered.fixes).toEqual(['extraContext', 'slides', 'count']);
  });

  it('your own slides are never refused for a sparse listing', async () => {
    const appId = await insertApp(h.t.pool, h.account.id, sparse);
    const slides = Array.from({ length: 6 }, (_, i) => ({ headline: `Slide ${i + 1}` }));
    expect((await create({ appId, device: 'iphone-69', slides })).statusCode).toBe(201);
  });

  it('another account’s sparse app is app_not_found, not cannot_fill_set: nothing about it leaks', async () => {
    const other = await accountWithKey(h.t.pool, 'free', 'Other');
    const theirs = await insertApp(h.t.pool, other.account.id, sparse);
    expectProblem(await create({ appId: theirs, device: 'iphone-69', count: 6 }), 404, 'app_not_found');
    expect(await moved()).toEqual({ jobs: 0, ledger: 0, used: 0 });
  });

  it('with a caption model configured, accepts what the rules alone cannot fill (the model writes in the job)', async () => {
    await h.close();
    h = await createTestApp({ llm: { baseUrl: 'http://127.0.0.1:9/v1', model: 'm', apiKey: null } });
    const appId = await insertApp(h.t.pool, h.account.id, sparse);
    expect((await create({ appId, device: 'iphone-69', count: 6 })).statusCode).toBe(201);
  });
});

describe('the verdict before the charge, remembered per app', () => {
  let h: TestApp;
  beforeEach(async () => {
    h = await createTestApp();
  });
  afterEach(async () => h.close());

  it('follows what changes it: new guidance or an uploaded screen turns a refusal into a set', async () => {
    const create = (body: object) => h.app.inject({ method: 'POST', url: SETS, headers: h.auth, payload: body });
    const appId = await insertApp(h.t.pool, h.account.id, sparse);
    expectProblem(await create({ appId, device: 'iphone-69', count: 4 }), 422, 'cannot_fill_set');
    expectProblem(await create({ appId, device: 'iphone-69', count: 4 }), 422, 'cannot_fill_set');
    const guidance = [
      'Build a shopping list from your meal plan in one tap.',
      'Save your favourite recipes with photos and notes.',
      'Share the week’s plan with your family.',
      'Track what is left in the fridge before it goes off.',
    ].join('\n');
    expect(await setGuidance(h.t.pool, h.account.id, appId, guidance)).toBe(true);
    expect((await create({ appId, device: 'iphone-69', count: 4 })).statusCode).toBe(201);

    const mac = await insertApp(h.t.pool, h.account.id, sampleListing({ platform: 'mac' }));
    expectProblem(await create({ appId: mac, device: 'iphone-69', count: 3 }), 422, 'cannot_fill_set');
    await uploadIphoneScreen(h, mac);
    expect((await create({ appId: mac, device: 'iphone-69', count: 3 })).statusCode).toBe(201);
  });
});
