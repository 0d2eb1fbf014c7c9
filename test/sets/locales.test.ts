/** POST /screenshots with locales: 5 credits per locale in the one charge, refused without a model. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, expectProblem, type TestApp } from '../support/app.ts';
import { primaryServer } from '../support/db.ts';
import { insertApp } from '../support/fixtures.ts';
import type { Db } from '../../src/db/pool.ts';
import { createScreenshotSet } from '../../src/sets/create.ts';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import { isProblem } from '../../src/core/problem.ts';
import { habitly } from '../planning/listings.ts';

const SETS = '/api/v1/public/v1/screenshots';
const ledger = async (h: TestApp) => (await h.t.pool.query(`SELECT kind, amount, job_id FROM credit_ledger ORDER BY id`)).rows;

describe('locales on POST /screenshots', () => {
  let h: TestApp;
  let appId: string;
  afterEach(async () => h.close());

  describe('with a caption model', () => {
    beforeEach(async () => {
      h = await createTestApp({ server: primaryServer(), llm: { baseUrl: 'http://127.0.0.1:9/v1', model: 'm', apiKey: null } });
      appId = await insertApp(h.t.pool, h.account.id);
    });
    it('charges 5 per locale in one ledger row, stores them, and replays with the same key', async () => {
      const body = { appId, device: 'iphone-69', locales: ['en-US', 'de-DE', 'ja-JP'] };
      const headers = { ...h.auth, 'idempotency-key': 'k1' };
      const res = await h.app.inject({ method: 'POST', url: SETS, headers, payload: body });
      expect(res.statusCode).toBe(201);
      expect(res.json().credits.cost).toBe(15);
      const again = await h.app.inject({ method: 'POST', url: SETS, headers, payload: body });
      expect(again.json()).toEqual(res.json());
      const other = await h.app.inject({ method: 'POST', url: SETS, headers, payload: { ...body, locales: ['en-US'] } });
      expectProblem(other, 422, 'idempotency_key_reused');
      expect(await ledger(h)).toEqual([{ kind: 'charge', amount: 15, job_id: res.json().jobId }]);
      const { rows } = await h.t.pool.query('SELECT cost, request FROM jobs');
      expect(rows).toEqual([{ cost: 15, request: expect.objectContaining({ locales: ['en-US', 'de-DE', 'ja-JP'] }) }]);
    });
    it('refuses bad, repeated, too many locales and locales with slides, charging nothing; 402 names the full cost', async () => {
      for (const locales of [
        [],
        ['de'],
        ['xx-DE'],
        ['de-DE', 'de-DE'],
        Array.from({ length: 11 }, (_, i) => `de-${['DE', 'AT', 'CH', 'LU', 'BE', 'IT', 'US', 'GB', 'FR', 'NL', 'DK'][i]}`),
      ]) {
        expectProblem(
          await h.app.inject({ method: 'POST', url: SETS, headers: h.auth, payload: { appId, device: 'iphone-69', locales } }),
          400,
          'validation_failed',
        );
      }
      expectProblem(
        await h.app.inject({
          method: 'POST',
          url: SETS,
          headers: h.auth,
          payload: { appId, device: 'iphone-69', locales: ['en-US'], slides: [{ headline: 'Hi' }] },
        }),
        400,
        'validation_failed',
      );
      expect(await ledger(h)).toEqual([]);
      const ten = ['en-US', 'de-DE', 'fr-FR', 'es-ES', 'it-IT', 'ja-JP', 'ko-KR', 'pt-BR', 'nl-NL', 'sv-SE'];
      let last;
      for (let i = 0; i < 10; i++)
        last = await h.app.inject({ method: 'POST', url: SETS, headers: h.auth, payload: { appId, device: 'iphone-69', locales: ten } });
      const p = expectProblem(last!, 402, 'insufficient_credits');
      expect((p as { cost?: number }).cost ?? last!.json().cost).toBe(50);
    });
  });

  it('without a model refuses a locale in another language, naming it, and charges nothing', async () => {
    h = await createTestApp({ server: primaryServer() });
    appId = await insertApp(h.t.pool, h.account.id);
    const res = await h.app.inject({
      method: 'POST',
      url: SETS,
      headers: h.auth,
      payload: { appId, device: 'iphone-69', locales: ['en-GB', 'de-DE'] },
    });
    expectProblem(res, 400, 'validation_failed');
    expect(res.json().errors).toEqual([
      { field: 'locales/1', message: expect.stringMatching(/de-DE is not the listing's language \(en-US\).*LLM_BASE_URL/) },
    ]);
    expect(await ledger(h)).toEqual([]);
    const ok = await h.app.inject({
      method: 'POST',
      url: SETS,
      headers: h.auth,
      payload: { appId, device: 'iphone-69', locales: ['en-US'] },
    });
    expect(ok.json().credits.cost).toBe(5);
  });
});

describe('one locales check for the planner and for creating a set', () => {
  /** The field errors a call refused with, or null when it did not refuse on validation. */
  const errorsOf = async (call: () => unknown): Promise<unknown> => {
    try {
      await call();
      return null;
    } catch (e) {
      if (isProblem(e) && e.code === 'validation_failed') return e.extensions.errors;
      throw e;
    }
  };
  const eleven = ['DE', 'AT', 'CH', 'LU', 'BE', 'IT', 'US', 'GB', 'FR', 'NL', 'DK'].map((r) => `de-${r}`);
  const cases: Array<{ locales: string[]; slides?: Array<{ headline: string }> }> = [
    { locales: [] },
    { locales: ['de'] },
    { locales: ['xx-DE', 'de-QQ'] },
    { locales: ['de-DE', 'en-US', 'de-DE'] },
    { locales: eleven },
    { locales: ['en-US'], slides: [{ headline: 'Hi' }] },
  ];
  it.each(cases)('refuses $locales alike', async ({ locales, slides }) => {
    // Refused before the database is touched: no database at all.
    const db = {} as Db;
    const created = await errorsOf(() =>
      createScreenshotSet(
        db,
        'acc_x',
        { appId: 'app_x', device: 'iphone-69', locales, ...(slides ? { slides } : {}) },
        { now: new Date() },
      ),
    );
    const planned = await errorsOf(() =>
      planScreenshotSet({
        listings: [habitly],
        extraContext: null,
        request: { device: 'iphone-69', locales, ...(slides ? { slides } : {}) },
      }),
    );
    expect(created).not.toBeNull();
    expect(planned).toEqual(created);
  });
});
