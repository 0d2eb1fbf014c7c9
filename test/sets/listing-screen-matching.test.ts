/**
 * Issue 33's "Screens" line for an app without uploads: the listing's own screenshots are read once
 * each (OCR, kept by URL in store_screen_texts), and each feature's caption goes over the
 * screenshot that shows it, whatever the listing's order; a second set reads nothing again. A screen
 * uploaded before screens were read is read by the first set that frames it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { emptyScreenshots } from '../../src/core/listing.ts';
import { appScreenPng } from '../support/app-screens.ts';
import { startFakeImageHost, type FakeImageHost } from '../support/fake-images.ts';
import { insertApp, sampleListing } from '../support/fixtures.ts';
import { createPicturesApp, finishedJob, type PicturesApp } from './support.ts';
import { until } from '../support/jobs.ts';

const FEATURES = [
  { key: 'budgets', title: 'Budgets', rows: ['Groceries $420 of $500', 'Rent $1,200'], line: 'Set monthly budgets for every category' },
  { key: 'receipts', title: 'Receipts', rows: ['Coffee shop $4.50', 'Hardware store $37'], line: 'Scan receipts with your camera' },
  { key: 'goals', title: 'Goals', rows: ['New laptop 60%', 'Holiday fund 25%'], line: 'Save toward goals with progress bars' },
  { key: 'reports', title: 'Reports', rows: ['Spending this month', 'Top categories'], line: 'See reports of where your money goes' },
  { key: 'bills', title: 'Bills', rows: ['Phone bill due Friday', 'Internet due in 5 days'], line: 'Get reminders before bills are due' },
];

let images: FakeImageHost;
let h: PicturesApp;
beforeAll(async () => {
  images = await startFakeImageHost();
  for (const f of FEATURES) images.pictures.set(f.key, appScreenPng({ title: f.title, rows: f.rows }));
});
afterAll(async () => {
  await images.close();
});
afterEach(async () => h?.close());

async function createApp(): Promise<{ appId: string; urlOf: Map<string, string> }> {
  const screenshots = emptyScreenshots();
  // Shuffled: the listing's screenshot order is not its description's.
  const order = [3, 0, 4, 2, 1].map((k) => FEATURES[k]);
  screenshots.iphone = order.map((f, n) => ({ url: images.url(f.key, n + 1), width: 1290, height: 2796 }));
  const listing = sampleListing({
    name: 'Penny Wise',
    category: 'Finance',
    subtitle: 'Budgets, bills and goals',
    description: `Take control of your money with Penny Wise.\n${FEATURES.map((f) => `• ${f.line}`).join('\n')}\nYour data stays on your device.`,
    screenshots,
  });
  const appId = await insertApp(h.t.pool, h.account.id, listing);
  return { appId, urlOf: new Map(order.map((f, n) => [f.title, images.url(f.key, n + 1)])) };
}

async function runSet(appId: string, extra: object = { count: 5 }) {
  const created = await h.app.inject({
    method: 'POST',
    url: '/api/v1/public/v1/screenshots',
    headers: h.auth,
    payload: { appId, device: 'iphone-69', ...extra },
  });
  expect(created.statusCode, created.body).toBe(201);
  const job = await finishedJob(h, created.json().jobId);
  expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
  return job.result as {
    slides: { headline: string; subheadline: string | null; screenshotUrl: string; grounding: { screenText: string[] } }[];
    warnings: string[];
  };
}

describe('captions over the listing screenshots they speak of', () => {
  it('reads each screenshot once and puts each feature caption over its own', async () => {
    h = await createPicturesApp({ screenReader: true, storeImageOrigins: [images.origin] });
    const { appId, urlOf } = await createApp();
    const { slides } = await runSet(appId);
    let named = 0;
    for (const s of slides) {
      const text = `${s.headline} ${s.subheadline ?? ''}`.toLowerCase();
      const features = FEATURES.filter((f) => text.includes(f.title.toLowerCase().slice(0, 5)));
      if (features.length !== 1) continue;
      named++;
      expect(s.screenshotUrl, `"${s.headline}" over ${features[0].title}`).toBe(urlOf.get(features[0].title));
      expect(s.grounding.screenText).toContain(features[0].title);
    }
    expect(named).toBeGreaterThanOrEqual(3);
    expect(new Set(slides.map((s) => s.screenshotUrl)).size).toBe(5);
    const { rows } = await h.t.pool.query<{ url: string; text: string[] }>('SELECT url, text FROM store_screen_texts ORDER BY url');
    expect(rows.map((r) => r.url).sort()).toEqual([...urlOf.values()].sort());
    expect(rows.every((r) => r.text.length > 0)).toBe(true);

    // A second set (of the same app) plans from the rows: the reader reads nothing more.
    const reads = h.services.screenReader!.modelReads;
    await runSet(appId);
    expect(h.services.screenReader!.modelReads).toBe(reads);
  });

  it('without a reader the listing order is kept, as before', async () => {
    h = await createPicturesApp({ storeImageOrigins: [images.origin] });
    const { appId } = await createApp();
    const { slides } = await runSet(appId);
    expect(slides.every((s) => s.grounding.screenText.length === 0)).toBe(true);
    expect((await h.t.pool.query('SELECT 1 FROM store_screen_texts')).rowCount).toBe(0);
  });

  it('reads an older upload, never read when stored, for the first set that frames it', async () => {
    h = await createPicturesApp({ screenReader: true, storeImageOrigins: [images.origin] });
    const { appId } = await createApp();
    const up = await h.app.inject({
      method: 'POST',
      url: `/api/v1/public/v1/apps/${appId}/screens`,
      headers: { ...h.auth, 'content-type': 'image/png' },
      payload: images.pictures.get('budgets'),
    });
    expect(up.statusCode).toBe(201);
    const { screenId } = up.json();
    const textOf = async () => (await h.t.pool.query('SELECT text, text_status FROM screens WHERE id = $1', [screenId])).rows[0];
    await until(async () => (await textOf()).text_status === 'read');
    // As a row stored before screens were read: no text, and nothing reading it.
    await h.t.pool.query("UPDATE screens SET text = NULL, text_status = 'none' WHERE id = $1", [screenId]);
    const { slides } = await runSet(appId, { count: 1, screenIds: [screenId] });
    expect(await textOf()).toMatchObject({ text_status: 'read', text: expect.arrayContaining(['Budgets']) });
    expect(slides[0].grounding.screenText).toContain('Budgets');
  });
});
