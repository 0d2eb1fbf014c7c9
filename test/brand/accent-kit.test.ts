/**
 * A brand kit with a primary and an accent (issue 30, item 4): contrast is checked only where text
 * sits, so a purple + amber kit is taken; every theme draws the accent on the key word, and the
 * result's brand reports the accent as drawn, with the soft theme's dark text reported as drawn.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THEME_IDS, THEMES } from '../../src/core/themes.ts';
import { solidPng } from '../support/fake-images.ts';
import { insertApp } from '../support/fixtures.ts';
import { createPicturesApp, finishedJob, type PicturesApp } from '../sets/support.ts';

let h: PicturesApp;
let appId: string;
const brandUrl = () => `/api/v1/public/v1/apps/${appId}/brand`;
const put = (payload: object) => h.app.inject({ method: 'PUT', url: brandUrl(), headers: h.auth, payload });

beforeAll(async () => {
  h = await createPicturesApp();
  appId = await insertApp(h.t.pool, h.account.id);
  const up = await h.app.inject({
    method: 'POST',
    url: `/api/v1/public/v1/apps/${appId}/screens`,
    headers: { ...h.auth, 'content-type': 'image/png' },
    payload: await solidPng(1290, 2796, 'green'),
  });
  expect(up.statusCode, up.body).toBe(201);
});
afterAll(async () => {
  await h?.close();
});

const finished = (jobId: string) => finishedJob(h, jobId);

/** Pixels of exactly this colour (±2 a channel) in the headline's band. */
async function pixelsOf(png: Buffer, hex: string): Promise<number> {
  const { data, info } = await sharp(png)
    .extract({ left: 0, top: 120, width: 1320, height: 420 })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const want = [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16));
  let n = 0;
  for (let i = 0; i < data.length; i += info.channels) if (want.every((v, k) => Math.abs(data[i + k] - v) <= 2)) n++;
  return n;
}

describe('a brand kit with an accent', () => {
  it('takes purple + amber as primary + accent; refuses them as primary + secondary, naming accent', async () => {
    const legacy = await put({ colors: { primary: '#6B2FBF', secondary: '#FFB300' } });
    expect(legacy.statusCode).toBe(400);
    expect(legacy.json().errors[0]).toMatchObject({ field: 'colors' });
    expect(legacy.json().errors[0].message).toMatch(/colors\.accent/);

    const kit = await put({ colors: { primary: '#6b2fbf', accent: '#FFB300' } });
    expect(kit.statusCode, kit.body).toBe(200);
    expect(kit.json()).toMatchObject({
      colors: { primary: '#6B2FBF', accent: '#FFB300' },
      effective: { primary: '#6B2FBF', accent: '#FFB300', textColor: '#FFFFFF', source: 'brand-kit' },
    });
    // The gradient's other end is a neighbour of the primary, not the amber.
    expect(kit.json().effective.secondary).toMatch(/^#[0-9A-F]{6}$/);
    expect(kit.json().effective.secondary).not.toBe('#FFB300');
  });

  it.each(THEME_IDS)('%s: the accent is drawn on the key word and reported as drawn', async (theme) => {
    expect((await put({ colors: { primary: '#6B2FBF', accent: '#FFB300' } })).statusCode).toBe(200);
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/v1/public/v1/screenshots',
      headers: h.auth,
      payload: { appId, device: 'iphone-69', theme, slides: [{ headline: 'Track Unlimited Habits' }, { headline: 'Share Progress' }] },
    });
    expect(res.statusCode, res.body).toBe(201);
    const job = await finished(res.json().jobId);
    expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
    const { brand } = job.result;
    const style = THEMES[theme].accent;
    expect(brand.accentStyle).toBe(style === 'word' ? 'word' : style);
    expect(brand.accent).toMatch(/^#[0-9A-F]{6}$/);
    if (style !== 'swash') expect(brand.accent).toBe('#FFB300');
    // Soft lightens the purple: the text is drawn dark, and reported so.
    if (theme === 'soft') expect(brand.textColor).toBe('#111827');
    const url = new URL(job.result.slides[0].image.url);
    const png = (await h.app.inject({ method: 'GET', url: url.pathname + url.search })).rawPayload;
    expect(await pixelsOf(png, brand.accent)).toBeGreaterThan(2_000);
  });
});
