/**
 * Issue 33's "Screens" line: five uploaded screens whose titles name five of the listing's
 * features, uploaded in shuffled order, come back with each feature's caption over its own screen,
 * offline and with a model (the fake one), each slide saying what grounded it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createPicturesApp, type PicturesApp } from './support.ts';
import { appScreenPng } from '../support/app-screens.ts';
import { insertApp, sampleListing } from '../support/fixtures.ts';
import { startFakeLlm, type FakeLlm } from '../support/fake-llm.ts';
import { ScreenTextCache } from '../../src/screens/reader.ts';

const FEATURES = [
  { title: 'Budgets', rows: ['Groceries $420 of $500', 'Rent $1,200'], line: 'Set monthly budgets for every category' },
  { title: 'Receipts', rows: ['Coffee shop $4.50', 'Hardware store $37'], line: 'Scan receipts with your camera' },
  { title: 'Goals', rows: ['New laptop 60%', 'Holiday fund 25%'], line: 'Save toward goals with progress bars' },
  { title: 'Reports', rows: ['Spending this month', 'Top categories'], line: 'See reports of where your money goes' },
  { title: 'Bills', rows: ['Phone bill due Friday', 'Internet due in 5 days'], line: 'Get reminders before bills are due' },
];
const listing = sampleListing({
  name: 'Penny Wise',
  category: 'Finance',
  subtitle: 'Budgets, bills and goals',
  description: `Take control of your money with Penny Wise.\n${FEATURES.map((f) => `• ${f.line}`).join('\n')}\nYour data stays on your device.`,
  screenshots: { ...sampleListing().screenshots, iphone: [] },
});

let h: PicturesApp;
let llm: FakeLlm | null = null;
/**
 * Both tests upload the same five pictures and neither counts the model's reads (screen-text.test.ts
 * and listing-screen-matching.test.ts do): whichever runs first reads them, the other gets the same
 * lines from here. The service keeps reads per account (src/screens/reader.ts) and each test has its
 * own; this cache keys by the picture alone. Reading them again cost about 3 CPU-s a run.
 */
class ByPicture extends ScreenTextCache {
  override get(key: string, read: () => Promise<string[]>): Promise<string[]> {
    return super.get(key.slice(key.indexOf(':') + 1), read);
  }
}
const read = new ByPicture();
afterEach(async () => {
  await h?.close();
  await llm?.close();
  llm = null;
});

async function runSet(): Promise<{ slides: Slide[]; warnings: string[]; byTitle: Map<string, string> }> {
  const appId = await insertApp(h.t.pool, h.account.id, listing);
  const byTitle = new Map<string, string>();
  // Shuffled: upload order is not the listing's order.
  for (const k of [3, 0, 4, 2, 1]) {
    const f = FEATURES[k];
    const res = await h.app.inject({
      method: 'POST',
      url: `/api/v1/public/v1/apps/${appId}/screens`,
      headers: { ...h.auth, 'content-type': 'image/png' },
      payload: appScreenPng({ title: f.title, rows: f.rows }),
    });
    expect(res.statusCode).toBe(201);
    byTitle.set(f.title, res.json().screenId);
  }
  const created = await h.app.inject({
    method: 'POST',
    url: '/api/v1/public/v1/screenshots',
    headers: h.auth,
    payload: { appId, device: 'iphone-69', count: 5 },
  });
  expect(created.statusCode, created.body).toBe(201);
  const { jobId } = created.json();
  let job = created.json();
  while (job.status !== 'succeeded' && job.status !== 'failed')
    job = (await h.app.inject({ method: 'GET', url: `/api/v1/public/v1/jobs/${jobId}`, headers: { ...h.auth, prefer: 'wait=30' } })).json();
  expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
  return { slides: job.result.slides, warnings: job.result.warnings, byTitle };
}

interface Slide {
  role: string;
  headline: string;
  subheadline: string | null;
  screenId: string;
  captionSource: string;
  grounding: { screenText: string[]; listing: string[]; extraContext: boolean };
}

/** Each slide whose caption names a feature frames that feature's screen; returns how many did. */
function expectOwnScreens(slides: Slide[], byTitle: Map<string, string>): number {
  let named = 0;
  for (const s of slides) {
    const text = `${s.headline} ${s.subheadline ?? ''}`.toLowerCase();
    // A caption naming several features (the hero's "Budgets, Bills and Goals") has no one screen.
    const features = FEATURES.filter((f) => text.includes(f.title.toLowerCase().slice(0, 5)));
    if (features.length !== 1) continue;
    const feature = features[0];
    named++;
    expect(s.screenId, `"${s.headline}" over ${feature.title}`).toBe(byTitle.get(feature.title));
    expect(s.grounding.screenText).toContain(feature.title);
  }
  return named;
}

describe('captions over the screens they speak of', () => {
  it('offline: each feature caption frames its own screen, and says what grounded it', async () => {
    h = await createPicturesApp({ screenReader: read });
    const { slides, byTitle } = await runSet();
    expect(new Set(slides.map((s) => s.screenId)).size).toBe(5);
    // Every slide naming a feature sits over its screen, and each slide after the hero (whose
    // "Budgets, Bills and Goals" names three and so has no one screen) says one of the five, in the
    // listing's words, over that feature's screen. A short headline may not hold the feature's
    // title ("Get Reminders" for "Get reminders before bills are due"): its screen is its line's.
    expectOwnScreens(slides, byTitle);
    for (const s of slides.slice(1)) {
      const text = `${s.headline} ${s.subheadline ?? ''}`.toLowerCase();
      // Its line's first two words, or the two after its verb: a short form may drop a light verb
      // ("Reminders before bills are due" for "Get reminders before bills are due").
      const says = FEATURES.filter((f) => {
        const words = f.line.toLowerCase().split(' ');
        return text.includes(words.slice(0, 2).join(' ')) || text.includes(words.slice(1, 3).join(' '));
      });
      expect(
        says.map((f) => f.title),
        s.headline,
      ).toHaveLength(1);
      expect(s.screenId, `"${s.headline}" over ${says[0].title}`).toBe(byTitle.get(says[0].title));
    }
    for (const s of slides) expect(s.grounding).toMatchObject({ extraContext: false });
    expect(slides.some((s) => s.grounding.listing.length > 0)).toBe(true);
  });

  it('with a model: the prompt carries the screens, and each caption frames its own screen', async () => {
    // The model speaks of one feature a slide: the hero of Reports (where the money goes), slide 2 of
    // Budgets, slide 3 of Receipts, then Goals and Bills, in listing order, not the upload's.
    llm = await startFakeLlm(() => ({
      content: {
        slides: [
          { index: 1, candidates: [{ headline: 'Reports Show Where Money Goes', subheadline: null }] },
          { index: 2, candidates: [{ headline: 'Set Monthly Budgets', subheadline: null }] },
          { index: 3, candidates: [{ headline: 'Scan Every Receipt', subheadline: null }] },
          { index: 4, candidates: [{ headline: 'Save Toward Your Goals', subheadline: null }] },
          { index: 5, candidates: [{ headline: 'Reminders Before Bills Are Due', subheadline: null }] },
        ],
      },
    }));
    h = await createPicturesApp({ screenReader: read, llm: { baseUrl: llm.baseUrl, model: 'fake', apiKey: null } });
    const { slides, byTitle } = await runSet();
    const user = JSON.parse((llm.requests[0].body.messages as { content: string }[])[1].content);
    const titles = FEATURES.map((f) => f.title);
    expect(user.screens.map((s: { text: string[] }) => s.text.find((t) => titles.includes(t))).sort()).toEqual([...titles].sort());
    // The model's five captions name one feature each, and each sits over its own screen.
    expect(slides.every((s) => s.captionSource === 'model')).toBe(true);
    expect(expectOwnScreens(slides, byTitle)).toBe(5);
  });
});
