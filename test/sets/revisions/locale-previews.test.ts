/** POST /previews of a set in several locales: the slide of the locale named, in its script's fonts. */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../../support/app.ts';
import { startFakeLlm, translator, type FakeLlm } from '../../support/fake-llm.ts';
import { accountWithKey, insertApp } from '../../support/fixtures.ts';
import { scaled } from '../../support/timing.ts';
import { createPicturesApp, type PicturesApp } from '../support.ts';
import { json, renderedSet, slideBytes, upload, waitJob } from './support.ts';

let llm: FakeLlm;
let h: PicturesApp;
let jobId: string;
let oneLocaleJob: string;

beforeAll(async () => {
  llm = await startFakeLlm(translator({ 'ja-JP': (_h, i) => `毎日の献立を簡単に ${i + 1}` }));
  h = await createPicturesApp({ previews: true, llm: { baseUrl: llm.baseUrl, model: 'm', apiKey: null } });
  const appId = await insertApp(h.t.pool, h.account.id);
  const screens = [await upload(h, appId, 'green'), await upload(h, appId, 'blue')];
  const created = await h.app.inject({
    method: 'POST',
    url: '/api/v1/public/v1/screenshots',
    headers: h.auth,
    payload: { appId, device: 'iphone-67', count: 2, locales: ['en-US', 'ja-JP'], screenIds: screens },
  });
  if (created.statusCode !== 201) throw new Error(created.body);
  const job = await waitJob(h, json(created).jobId);
  if (job.status !== 'succeeded') throw new Error(JSON.stringify(job.error));
  jobId = job.id;
  oneLocaleJob = (await renderedSet(h, appId)).jobId;
}, scaled(90_000));
afterAll(async () => {
  await h?.close();
  await llm?.close();
});

const preview = (payload: object, auth = h.auth) =>
  h.app.inject({ method: 'POST', url: '/api/v1/public/v1/previews', headers: auth, payload });

/** Mean absolute difference per channel (0..255) of two same-sized pictures. */
async function difference(a: Buffer, b: Buffer): Promise<number> {
  const [x, y] = await Promise.all([a, b].map((p) => sharp(p).removeAlpha().raw().toBuffer()));
  let sum = 0;
  for (let i = 0; i < x.length; i++) sum += Math.abs(x[i] - y[i]);
  return sum / x.length;
}

async function storedSmall(path: string): Promise<Buffer> {
  const res = await h.app.inject({ method: 'GET', url: `/api/v1/public/v1/jobs/${jobId}/${path}`, headers: h.auth });
  expect(res.statusCode).toBe(200);
  return sharp(res.rawPayload).resize(430, 932).png().toBuffer();
}

describe('previews of a set in two locales', () => {
  it('draws the named locale’s slide as the job drew it (its script’s fonts), and an edited caption in that locale', async () => {
    const ja = await preview({ jobId, slide: { index: 1, locale: 'ja-JP' } });
    expect(ja.statusCode, ja.body).toBe(200);
    expect(await difference(ja.rawPayload, await storedSmall('locales/ja-JP/slides/1.png'))).toBeLessThan(2);
    // Without a locale, and with the first one named: the first locale's slide.
    const en = await preview({ jobId, slide: { index: 1 } });
    const enNamed = await preview({ jobId, slide: { index: 1, locale: 'en-US' } });
    expect(
      await difference(en.rawPayload, await slideBytes(h, jobId, 1).then((b) => sharp(b).resize(430, 932).png().toBuffer())),
    ).toBeLessThan(2);
    expect(await difference(en.rawPayload, enNamed.rawPayload)).toBe(0);
    expect(await difference(en.rawPayload, ja.rawPayload)).toBeGreaterThan(0.5);
    const edited = await preview({ jobId, slide: { index: 1, locale: 'ja-JP', headline: '買い物リストを一つに' } });
    expect(edited.statusCode).toBe(200);
    expect(edited.headers['caption-fits']).toBe('true');
    expect(await difference(edited.rawPayload, ja.rawPayload)).toBeGreaterThan(0.5);
    // The store view in that locale: its first slides side by side.
    const store = await preview({ jobId, slide: { index: 1, locale: 'ja-JP' }, view: 'store' });
    expect(store.statusCode).toBe(200);
    const left = await sharp(store.rawPayload).extract({ left: 0, top: 0, width: 430, height: 932 }).png().toBuffer();
    expect(await difference(left, ja.rawPayload)).toBeLessThan(1);
  });

  it('refuses a locale the set lacks, and any locale on a set in one locale, naming the field', async () => {
    const lacking = await preview({ jobId, slide: { index: 1, locale: 'de-DE' } });
    expectProblem(lacking, 400, 'validation_failed');
    expect(lacking.body).toContain('slide/locale');
    expect(lacking.body).toContain('en-US, ja-JP');
    const one = await preview({ jobId: oneLocaleJob, slide: { index: 1, locale: 'en-US' } });
    expectProblem(one, 400, 'validation_failed');
    expect(one.body).toContain('one locale');
  });

  it('answers 404 for another account’s set in any locale', async () => {
    const other = await accountWithKey(h.t.pool);
    const auth = { authorization: `Bearer ${other.key}` };
    expectProblem(await preview({ jobId, slide: { index: 1, locale: 'ja-JP' } }, auth), 404, 'job_not_found');
    expectProblem(await preview({ jobId, slide: { index: 1, locale: 'de-DE' } }, auth), 404, 'job_not_found');
  });
});
