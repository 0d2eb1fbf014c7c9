/** A set in several languages renders every locale: its own slide URLs, and a ZIP folder each. */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, translator, type FakeLlm } from '../support/fake-llm.ts';
import { solidPng } from '../support/fake-images.ts';
import { insertApp } from '../support/fixtures.ts';
import { createPicturesApp, zipNames, type PicturesApp } from './support.ts';
import { scaled } from '../support/timing.ts';

let llm: FakeLlm;
let h: PicturesApp;
beforeAll(async () => {
  llm = await startFakeLlm(translator({ 'de-DE': (_h, i) => `Plane Woche ${i + 1}`, 'ja-JP': (_h, i) => `毎日の計画 ${i + 1}` }));
  h = await createPicturesApp({ llm: { baseUrl: llm.baseUrl, model: 'm', apiKey: null } });
});
afterAll(async () => {
  await h?.close();
  await llm?.close();
});

describe('a set in three locales', () => {
  it(
    'renders each locale, serves them under their own paths, and puts a folder per locale in the ZIP',
    async () => {
      const appId = await insertApp(h.t.pool, h.account.id);
      await h.app.inject({
        method: 'POST',
        url: `/api/v1/public/v1/apps/${appId}/screens`,
        headers: { ...h.auth, 'content-type': 'image/png' },
        payload: await solidPng(1290, 2796, 'green'),
      });
      const created = await h.app.inject({
        method: 'POST',
        url: '/api/v1/public/v1/screenshots',
        headers: h.auth,
        payload: { appId, device: 'iphone-69', count: 2, locales: ['en-US', 'de-DE', 'ja-JP'] },
      });
      expect(created.json().credits.cost).toBe(15);
      let job;
      do
        job = (
          await h.app.inject({
            method: 'GET',
            url: `/api/v1/public/v1/jobs/${created.json().jobId}`,
            headers: { ...h.auth, prefer: 'wait=30' },
          })
        ).json();
      while (job.status === 'queued' || job.status === 'running');
      expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
      const locales = job.result.locales as { locale: string; slides: { headline: string; image: { url: string; sha256: string } }[] }[];
      expect(locales.map((l) => l.locale)).toEqual(['en-US', 'de-DE', 'ja-JP']);
      // The first locale's slides are the set's slides (/slides/1.png); the others have their own paths.
      expect(locales[0].slides[0].image.url).toBe(job.result.slides[0].image.url);
      expect(locales[1].slides[0].image.url).toContain('/locales/de-DE/slides/1.png?');
      expect(locales[2].slides[0].headline).toMatch(/毎日/);
      const hashes = new Set<string>();
      for (const l of locales) {
        for (const s of l.slides) {
          const u = new URL(s.image.url);
          const res = await h.app.inject({ method: 'GET', url: u.pathname + u.search });
          expect(res.statusCode).toBe(200);
          expect((await sharp(res.rawPayload).metadata()).width).toBe(1320);
          hashes.add(s.image.sha256);
        }
      }
      // Different captions, different pictures.
      expect(hashes.size).toBe(locales.length * locales[0].slides.length);
      const zip = new URL(job.result.archive.url);
      const names = await zipNames((await h.app.inject({ method: 'GET', url: zip.pathname + zip.search })).rawPayload);
      const roles = job.result.slides.map((s: { role: string }) => s.role);
      expect(names).toEqual(
        [
          ...['de-DE', 'en-US', 'ja-JP'].flatMap((l) => roles.map((r: string, i: number) => `${l}/0${i + 1}_iphone-69_${r}.png`)),
          'plan.json',
        ].sort(),
      );
    },
    scaled(60_000),
  );
});
