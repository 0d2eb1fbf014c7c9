/**
 * What a publication promises besides getting the images there: approval twice changes nothing, a
 * plan over an hour old is planned again before anything is applied, publishing costs no credits,
 * one locale's failure leaves the others published, and verify fails saying what differs.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { md5, png } from '../fake-stores/helpers.ts';
import { ASC_APP, connectAppStore, type PublishingHarness, succeededJob, publishingHarness } from './support.ts';

let p: PublishingHarness;
let sc: string;
beforeEach(async () => {
  p = await publishingHarness();
  sc = await connectAppStore(p);
});
afterEach(async () => p.close());

const sums = (seeds: number[], offset = 0) => Promise.all(seeds.map(async (s) => md5(await png(s + offset))));
const ledger = async () =>
  (await p.h.t.pool.query('SELECT kind, amount FROM credit_ledger WHERE account_id = $1 ORDER BY id', [p.h.account.id])).rows;

async function planned(seeds: number[], locales?: string[]): Promise<string> {
  const job = await succeededJob(p, { device: 'iphone-69', seeds, ...(locales ? { locales } : {}) });
  const res = await p.post('/publications', { jobId: job, connectionId: sc });
  expect(res.statusCode, res.body).toBe(201);
  await p.drain();
  return res.json().id;
}

describe('a publication', () => {
  it('is approved once however often it is asked, costs no credits, and a plan over an hour old is planned again first', async () => {
    const id = await planned([1, 2]);
    const before = await ledger();
    const first = (await p.get(`/publications/${id}`)).json();
    expect((await p.post(`/publications/${id}/approve`)).statusCode).toBe(202);
    expect((await p.post(`/publications/${id}/approve`)).statusCode).toBe(202);
    expect(p.queued).toEqual([id]);
    // The task runs 61 minutes after planning: the plan is made again before anything is applied.
    const later = new Date(Date.parse(first.plannedAt) + 61 * 60_000);
    p.runner.now = () => later;
    await p.drain();
    const done = (await p.get(`/publications/${id}`)).json();
    expect(done.status, JSON.stringify(done.error)).toBe('published');
    expect(done.plannedAt).toBe(later.toISOString());
    expect(p.asc.calls.filter((c) => c.method === 'POST' && c.path === '/v1/appScreenshots')).toHaveLength(2);
    expect(await ledger()).toEqual(before);
  });

  it('a plan younger than an hour is applied as it is', async () => {
    const id = await planned([1]);
    const first = (await p.get(`/publications/${id}`)).json();
    p.runner.now = () => new Date(Date.parse(first.plannedAt) + 59 * 60_000);
    await p.post(`/publications/${id}/approve`);
    await p.drain();
    expect((await p.get(`/publications/${id}`)).json()).toMatchObject({ status: 'published', plannedAt: first.plannedAt });
  });

  it("one locale's failure leaves the others published, and the error names the locale", async () => {
    const id = await planned([1, 2], ['en-US', 'de-DE']);
    // Items are listed in their order (seq, from 1); the upload's file name carries seq and place.
    const items = (await p.get(`/publications/${id}`)).json().plan.items as { locale: string; position: number }[];
    const seq = items.findIndex((i) => i.locale === 'de-DE' && i.position === 1) + 1;
    expect(seq).toBeGreaterThan(0);
    p.asc.failDelivery(`shotgen-${id.slice(-10).toLowerCase()}-${seq}-1.png`);
    await p.post(`/publications/${id}/approve`);
    await p.drain();
    const done = (await p.get(`/publications/${id}`)).json();
    expect(done.status).toBe('failed');
    expect(done.error.message).toMatch(/de-DE\/APP_IPHONE_67/);
    expect(done.error.message).not.toMatch(/en-US/);
    expect(p.asc.screenshots(ASC_APP, 'en-US', 'APP_IPHONE_67').map((s) => s.sourceFileChecksum)).toEqual(await sums([1, 2]));
  });

  it('verify reads the store back and fails saying what differs', async () => {
    const id = await planned([1, 2]);
    // Someone adds a screenshot to the set while the order is being set: the store no longer holds the set alone.
    const held = p.asc.hold({ method: 'PATCH', path: /relationships\/appScreenshots$/ });
    void held.reached.then(async () => {
      p.asc.seedScreenshots(ASC_APP, 'en-US', 'APP_IPHONE_67', [{ fileName: 'by-hand.png', bytes: await png(42) }]);
      held.release();
    });
    await p.post(`/publications/${id}/approve`);
    await p.drain();
    const done = (await p.get(`/publications/${id}`)).json();
    expect(done.status).toBe('failed');
    expect(done.error.code).toBe('publication_mismatch');
    expect(done.error.message).toMatch(/en-US\/APP_IPHONE_67: the store holds 3 images, the set 2/);
  });
});
