/**
 * The result's `brand` reports the colours the slides are drawn in (issue 30, item 4): the text
 * colour of the headlines' pixels and the background the theme paints, not the palette's text
 * colour (the dark theme draws #F5F7FA; soft lightens a brand's colours, which can take dark ink).
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THEME_IDS } from '../../src/core/themes.ts';
import { solidPng } from '../support/fake-images.ts';
import { insertApp } from '../support/fixtures.ts';
import { createPicturesApp, finishedJob, type PicturesApp } from '../sets/support.ts';

let h: PicturesApp;
let appId: string;
beforeAll(async () => {
  h = await createPicturesApp();
  appId = await insertApp(h.t.pool, h.account.id);
  // White reads on both kit colours (the palette's text colour), but soft lightens them toward white.
  const kit = await h.app.inject({
    method: 'PUT',
    url: `/api/v1/public/v1/apps/${appId}/brand`,
    headers: h.auth,
    payload: { colors: { primary: '#2563EB', secondary: '#7C3AED' } },
  });
  expect(kit.statusCode, kit.body).toBe(200);
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

/**
 * The commonest colour in the headline's band, the background left out (the colours at the band's
 * edges, in the margins): the inside of the letters, one exact colour.
 */
async function headlineColour(png: Buffer, accent?: string, stops: string[] = []): Promise<string> {
  const { data, info } = await sharp(png)
    .extract({ left: 0, top: 170, width: 1320, height: 110 })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const hexAt = (i: number) => `#${[data[i], data[i + 1], data[i + 2]].map((v) => v.toString(16).padStart(2, '0')).join('')}`.toUpperCase();
  const row = info.width * info.channels;
  // The accent marks one word (in its colour, or as a marker or a swash behind it): not the text colour.
  const margins = new Set<string>(accent ? [accent] : []);
  for (let y = 0; y < info.height; y++)
    for (const x of [0, 20, info.width - 21, info.width - 1]) margins.add(hexAt(y * row + x * info.channels));
  // And the gradient's own colours: any colour inside the box its stops span (a gentle gradient
  // gives each of its colours a stripe of the band as large as a short headline's letters).
  const rgb = stops.map((c) => [1, 3, 5].map((k) => parseInt(c.slice(k, k + 2), 16)));
  const inGradient = (i: number) =>
    rgb.length > 0 &&
    [0, 1, 2].every((k) => data[i + k] >= Math.min(...rgb.map((c) => c[k])) - 2 && data[i + k] <= Math.max(...rgb.map((c) => c[k])) + 2);
  const counts = new Map<string, number>();
  for (let i = 0; i < data.length; i += info.channels) {
    const hex = hexAt(i);
    if (!margins.has(hex) && !inGradient(i)) counts.set(hex, (counts.get(hex) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0][0];
}

describe("the result's brand", () => {
  it.each(THEME_IDS)('%s: textColor is the colour of the headline as drawn, background the stops drawn', async (theme) => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/v1/public/v1/screenshots',
      headers: h.auth,
      payload: { appId, device: 'iphone-69', theme, slides: [{ headline: 'Plan Every Meal' }, { headline: 'Shop Faster' }] },
    });
    expect(res.statusCode, res.body).toBe(201);
    const job = await finished(res.json().jobId);
    expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
    const url = new URL(job.result.slides[0].image.url);
    const png = (await h.app.inject({ method: 'GET', url: url.pathname + url.search })).rawPayload;
    expect(job.result.slides[0].layout).not.toBe('headline-bottom');
    expect(await headlineColour(png, job.result.brand.accent, job.result.brand.background)).toBe(job.result.brand.textColor);
    expect(job.result.brand.background.length).toBeGreaterThanOrEqual(2);
    // The top-left pixel is the gradient's first stop.
    const { data } = await sharp(png).extract({ left: 0, top: 0, width: 1, height: 1 }).raw().toBuffer({ resolveWithObject: true });
    const first = job.result.brand.background[0] as string;
    const want = [1, 3, 5].map((k) => parseInt(first.slice(k, k + 2), 16));
    [...data].forEach((v, k) => expect(Math.abs(v - want[k])).toBeLessThanOrEqual(3));
  });
});
