import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AccountViews } from '../../src/accounts/account-views.ts';
import { getBalance } from '../../src/accounts/credits.ts';
import { Notifications } from '../../src/db/notifications.ts';
import { until } from '../support/jobs.ts';
import { requestHash } from '../../src/sets/idempotency.ts';
import { createScreenshotSet } from '../../src/sets/create.ts';
import { createTestApp, expectProblem, type TestApp } from '../support/app.ts';
import { testServers } from '../support/db.ts';
import { accountWithKey, insertApp } from '../support/fixtures.ts';

const SETS = '/api/v1/public/v1/screenshots';

for (const server of testServers()) {
  describe(`POST /screenshots on the ${server.name} server`, () => {
    let h: TestApp;
    let appId: string;
    let now: Date;
    beforeEach(async () => {
      now = new Date('2026-11-21T12:00:00Z');
      h = await createTestApp({ server, clock: () => now });
      appId = await insertApp(h.t.pool, h.account.id);
    });
    afterEach(async () => h.close());

    const create = (body: object, headers: Record<string, string> = {}, auth = h.auth) =>
      h.app.inject({ method: 'POST', url: SETS, headers: { ...auth, ...headers }, payload: body });

    const counts = async () => {
      const { rows } = await h.t.pool.query(
        `SELECT (SELECT count(*) FROM jobs)::int AS jobs, (SELECT count(*) FROM credit_ledger WHERE kind = 'charge')::int AS charges`,
      );
      return rows[0] as { jobs: number; charges: number };
    };

    it('charges 5, queues a job and points at it', async () => {
      const res = await create({ appId, device: 'iphone-69' });
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body).toEqual({ jobId: expect.stringMatching(/^job_/), credits: { cost: 5, remaining: 45 }, warnings: [] });
      expect(res.headers.location).toBe(`/api/v1/public/v1/jobs/${body.jobId}`);
      const job = await h.app.inject({ method: 'GET', url: res.headers.location as string, headers: h.auth });
      expect(job.statusCode).toBe(200);
      expect(job.json()).toMatchObject({ id: body.jobId, status: 'queued', result: null, error: null });
      expect(job.headers['retry-after']).toBe('1');
      const { rows } = await h.t.pool.query('SELECT request FROM jobs WHERE id = $1', [body.jobId]);
      expect(rows[0].request).toEqual({
        device: 'iphone-69',
        count: 5,
        captionStyle: 'aso-expert',
        captionLength: 'short',
        narrativeId: null,
      });
      const account = await h.app.inject({ method: 'GET', url: '/api/v1/public/v1/account', headers: h.auth });
      expect(account.json().credits).toMatchObject({ used: 5, remaining: 45 });
    });

    it('another process’s cached account view hears of the charge', async () => {
      const elsewhere = new Notifications(h.t.url);
      await elsewhere.start();
      try {
        const views = new AccountViews(h.t.pool, elsewhere, () => now);
        expect((await views.get(h.account.id)).balance.remaining).toBe(50);
        expect(views.peek(h.account.id)).toBeDefined();
        expect((await create({ appId, device: 'iphone-69' })).statusCode).toBe(201);
        await until(async () => views.peek(h.account.id) === undefined, 5_000);
        expect((await views.get(h.account.id)).balance.remaining).toBe(45);
      } finally {
        await elsewhere.close();
      }
    });

    it('30 concurrent requests on 50 credits: exactly 10 jobs, 20 × 402, the ledger sums to the balance', async () => {
      const results = await Promise.all(Array.from({ length: 30 }, () => create({ appId, device: 'iphone-65', count: 3 })));
      const created = results.filter((r) => r.statusCode === 201);
      const refused = results.filter((r) => r.statusCode === 402);
      expect(created).toHaveLength(10);
      expect(refused).toHaveLength(20);
      for (const r of refused) {
        const p = expectProblem(r, 402, 'insufficient_credits');
        expect(p).toMatchObject({ cost: 5, remaining: 0, resetsAt: '2026-12-01T00:00:00Z' });
      }
      const remaining = created.map((r) => r.json().credits.remaining).sort((a, b) => a - b);
      expect(remaining).toEqual([0, 5, 10, 15, 20, 25, 30, 35, 40, 45]);
      expect(await counts()).toEqual({ jobs: 10, charges: 10 });
      const { rows } = await h.t.pool.query(
        `SELECT COALESCE(sum(CASE kind WHEN 'charge' THEN -amount ELSE amount END), 0)::int AS net FROM credit_ledger WHERE account_id = $1`,
        [h.account.id],
      );
      expect(50 + rows[0].net).toBe((await getBalance(h.t.pool, h.account.id, now)).remaining);
    });

    it('404 app_not_found for another account’s app, charging nothing', async () => {
      const other = await accountWithKey(h.t.pool, 'free', 'Other');
      const theirApp = await insertApp(h.t.pool, other.account.id);
      expectProblem(await create({ appId: theirApp, device: 'iphone-69' }), 404, 'app_not_found');
      expectProblem(await create({ appId: 'app_does_not_exist', device: 'iphone-69' }), 404, 'app_not_found');
      // A NUL is refused as text before any look-up (CONTRACT, fourth milestone, "Text fields").
      expect(expectProblem(await create({ appId: 'app_\u0000x', device: 'iphone-69' }), 400, 'validation_failed').errors[0].field).toBe(
        'appId',
      );
      expect(await counts()).toEqual({ jobs: 0, charges: 0 });
      // and their jobs are invisible here
      const theirs = await create({ appId: theirApp, device: 'iphone-69' }, {}, { authorization: `Bearer ${other.key}` });
      expect(theirs.statusCode).toBe(201);
      expectProblem(await h.app.inject({ method: 'GET', url: theirs.headers.location as string, headers: h.auth }), 404, 'job_not_found');
    });

    it('uses the narrative’s slide count and rejects an unknown narrative', async () => {
      const catalogue = (await h.app.inject({ method: 'GET', url: '/api/v1/public/v1/narratives', headers: h.auth })).json();
      const narrative = catalogue.narratives[0];
      const res = await create({ appId, device: 'iphone-69', narrativeId: narrative.id, count: 1 });
      expect(res.statusCode).toBe(201);
      const { rows } = await h.t.pool.query('SELECT request FROM jobs WHERE id = $1', [res.json().jobId]);
      expect(rows[0].request).toMatchObject({ narrativeId: narrative.id, count: narrative.slideCount });
      const bad = expectProblem(await create({ appId, device: 'iphone-69', narrativeId: 'no-such-story' }), 400, 'validation_failed');
      expect(bad.errors[0].field).toBe('narrativeId');
    });

    describe('Idempotency-Key', () => {
      const KEY = { 'idempotency-key': 'order-7781' };

      it('replays the first response for a retry with the same body and charges nothing more', async () => {
        const first = await create({ appId, device: 'iphone-69', count: 4 }, KEY);
        const again = await create({ count: 4, device: 'iphone-69', appId }, KEY);
        expect(first.statusCode).toBe(201);
        expect(again.statusCode).toBe(201);
        expect(again.json()).toEqual(first.json());
        expect(again.headers.location).toBe(first.headers.location);
        expect(again.headers['idempotent-replayed']).toBe('true');
        expect(await counts()).toEqual({ jobs: 1, charges: 1 });
      });

      it('422 idempotency_key_reused for a different body; keys are scoped to the account', async () => {
        await create({ appId, device: 'iphone-69' }, KEY);
        expectProblem(await create({ appId, device: 'iphone-65' }, KEY), 422, 'idempotency_key_reused');
        const other = await accountWithKey(h.t.pool, 'free', 'Other');
        const theirApp = await insertApp(h.t.pool, other.account.id);
        const theirs = await create({ appId: theirApp, device: 'iphone-65' }, KEY, { authorization: `Bearer ${other.key}` });
        expect(theirs.statusCode).toBe(201);
        expect(await counts()).toEqual({ jobs: 2, charges: 2 });
      });

      it('concurrent duplicates get the first response, never a second charge', async () => {
        const results = await Promise.all(Array.from({ length: 12 }, () => create({ appId, device: 'iphone-67' }, KEY)));
        for (const r of results) expect([201, 409]).toContain(r.statusCode);
        const bodies = new Set(results.filter((r) => r.statusCode === 201).map((r) => r.body));
        expect(bodies.size).toBe(1);
        expect(await counts()).toEqual({ jobs: 1, charges: 1 });
      });

      it('expires after 24 hours: the key then starts a new set', async () => {
        const first = await create({ appId, device: 'iphone-69' }, KEY);
        now = new Date(now.getTime() + 24 * 3600_000 - 1000);
        expect((await create({ appId, device: 'iphone-69' }, KEY)).json()).toEqual(first.json());
        now = new Date(now.getTime() + 2000);
        const later = await create({ appId, device: 'iphone-65' }, KEY);
        expect(later.statusCode).toBe(201);
        expect(later.json().jobId).not.toBe(first.json().jobId);
        expect(await counts()).toEqual({ jobs: 2, charges: 2 });
      });

      it('409 idempotency_key_in_use when the first request holds the key too long', async () => {
        // A first request that has claimed the key and not yet committed.
        const first = await h.t.pool.connect();
        try {
          await first.query('BEGIN');
          await first.query(
            `INSERT INTO idempotency_keys (account_id, key, request_hash, created_at) VALUES ($1, 'order-7781', $2, now())`,
            [h.account.id, requestHash({ appId, device: 'iphone-69' })],
          );
          const error = await createScreenshotSet(
            h.t.pool,
            h.account.id,
            { appId, device: 'iphone-69' },
            { now, idempotencyKey: 'order-7781', idempotencyWaitMs: 200 },
          ).catch((e) => e);
          expect(error).toMatchObject({ status: 409, code: 'idempotency_key_in_use', headers: { 'Retry-After': '1' } });
        } finally {
          await first.query('ROLLBACK');
          first.release();
        }
        expect(await counts()).toEqual({ jobs: 0, charges: 0 });
      });

      it('rejects a key longer than 255 characters', async () => {
        expectProblem(await create({ appId, device: 'iphone-69' }, { 'idempotency-key': 'k'.repeat(256) }), 400, 'validation_failed');
        expect(await counts()).toEqual({ jobs: 0, charges: 0 });
      });

      it('does not record a refused request: the retry is judged afresh', async () => {
        await h.t.pool.query(`INSERT INTO credit_periods (account_id, period_start, allowance, used) VALUES ($1, '2026-11-01', 50, 50)`, [
          h.account.id,
        ]);
        expectProblem(await create({ appId, device: 'iphone-69' }, KEY), 402, 'insufficient_credits');
        await h.t.pool.query(`UPDATE credit_periods SET granted = 5 WHERE account_id = $1`, [h.account.id]);
        expect((await create({ appId, device: 'iphone-69' }, KEY)).statusCode).toBe(201);
      });
    });
  });
}
