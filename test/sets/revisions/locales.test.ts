/** A revision of a set in several locales: every locale revised, each re-rendering only its own changed slides. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyRevision } from '../../../src/sets/revisions/edit.ts';
import type { ScreenshotSetResult } from '../../../src/core/set.ts';
import { expectProblem } from '../../support/app.ts';
import { startFakeLlm, translator, type FakeLlm } from '../../support/fake-llm.ts';
import { insertApp } from '../../support/fixtures.ts';
import { createPicturesApp, type PicturesApp } from '../support.ts';
import { json, upload, waitJob } from './support.ts';

let llm: FakeLlm;
let h: PicturesApp;
beforeAll(async () => {
  llm = await startFakeLlm(translator({ 'de-DE': (_h, i) => `Plane die Woche ${i + 1}` }));
  h = await createPicturesApp({ llm: { baseUrl: llm.baseUrl, model: 'm', apiKey: null } });
});
afterAll(async () => {
  await h?.close();
  await llm?.close();
});

type LocaleSet = { locale: string; slides: { headline: string; screenId?: string; image: { sha256: string } }[]; warnings: string[] };
const hashes = (job: { result: { locales: LocaleSet[] } }) => job.result.locales.map((l) => l.slides.map((s) => s.image.sha256));

describe('revising a set in two locales', () => {
  it('applies a caption edit to the locale it names and a screen swap to every locale; unchanged slides keep their bytes', async () => {
    const appId = await insertApp(h.t.pool, h.account.id);
    const screens = [await upload(h, appId, 'green'), await upload(h, appId, 'blue'), await upload(h, appId, 'red')];
    const created = await h.app.inject({
      method: 'POST',
      url: '/api/v1/public/v1/screenshots',
      headers: h.auth,
      payload: { appId, device: 'iphone-69', count: 2, locales: ['en-US', 'de-DE'], screenIds: screens.slice(0, 2) },
    });
    expect(created.statusCode, created.body).toBe(201);
    const parent = await waitJob(h, json(created).jobId);
    expect(parent.status, JSON.stringify(parent.error)).toBe('succeeded');
    const before = hashes(parent);

    const revised = await h.app.inject({
      method: 'POST',
      url: `/api/v1/public/v1/jobs/${parent.id}/revisions`,
      headers: h.auth,
      payload: {
        slides: [
          { index: 1, locale: 'de-DE', headline: 'Plane den Tag 1' },
          { index: 2, screenId: screens[2] },
        ],
      },
    });
    expect(revised.statusCode, revised.body).toBe(201);
    const child = await waitJob(h, json(revised).jobId);
    expect(child.status, JSON.stringify(child.error)).toBe('succeeded');
    const locales = child.result.locales as LocaleSet[];
    expect(locales.map((l) => l.locale)).toEqual(['en-US', 'de-DE']);
    expect(locales[0].slides[0].headline).toBe(parent.result.locales[0].slides[0].headline);
    expect(locales[1].slides[0].headline).toBe('Plane den Tag 1');
    expect(locales.map((l) => l.slides[1].screenId)).toEqual([screens[2], screens[2]]);
    const after = hashes(child);
    // en-US slide 1 did not change: the parent's file, byte for byte. Every other slide did.
    expect(after[0][0]).toBe(before[0][0]);
    expect(after[0][1]).not.toBe(before[0][1]);
    expect(after[1][0]).not.toBe(before[1][0]);
    expect(after[1][1]).not.toBe(before[1][1]);
    // The set's slides are its first locale's.
    expect(child.result.slides.map((s: { image: { sha256: string } }) => s.image.sha256)).toEqual(after[0]);
    // The de-DE file is served under its locale's path.
    const de = await h.app.inject({ method: 'GET', url: `/api/v1/public/v1/jobs/${child.id}/locales/de-DE/slides/1.png`, headers: h.auth });
    expect(de.statusCode).toBe(200);
  });

  it('refuses a locale the set does not have, and a locale edit that changes more than captions, naming the field', async () => {
    const appId = await insertApp(h.t.pool, h.account.id);
    const screen = await upload(h, appId, 'green');
    const created = await h.app.inject({
      method: 'POST',
      url: '/api/v1/public/v1/screenshots',
      headers: h.auth,
      payload: { appId, device: 'iphone-69', count: 1, locales: ['en-US', 'de-DE'], screenIds: [screen] },
    });
    const parent = await waitJob(h, json(created).jobId);
    expect(parent.status).toBe('succeeded');
    const revise = (payload: object) =>
      h.app.inject({ method: 'POST', url: `/api/v1/public/v1/jobs/${parent.id}/revisions`, headers: h.auth, payload });
    const unknown = await revise({ slides: [{ index: 1, locale: 'fr-FR', headline: 'Planifier' }] });
    expectProblem(unknown, 400, 'validation_failed');
    expect(unknown.body).toContain('slides/0/locale');
    const mixed = await revise({ slides: [{ index: 1, locale: 'de-DE', headline: 'Planen', layout: 'text-only' }] });
    expectProblem(mixed, 400, 'validation_failed');
    expect(mixed.body).toContain('captions only');
  });
});

describe('applyRevision across locales', () => {
  const slide = (headline: string) => ({
    index: 1,
    role: 'hero' as const,
    headline,
    subheadline: null,
    keywords: [],
    screenshotUrl: null,
    layout: 'headline-top',
    background: { colors: ['#000000'] },
    textColor: '#FFFFFF',
  });
  const two = {
    device: 'iphone-69',
    captionLength: 'short',
    slides: [slide('Plan Meals'), { ...slide('Shop Fast'), index: 2 }],
    warnings: [],
    locales: [
      { locale: 'en-US', slides: [slide('Plan Meals'), { ...slide('Shop Fast'), index: 2 }], warnings: [] },
      { locale: 'de-DE', slides: [slide('Essen planen'), { ...slide('Schnell einkaufen'), index: 2 }], warnings: [] },
    ],
  } as unknown as ScreenshotSetResult;

  it('edits the first locale’s captions when no locale is named; order and added slides apply to every locale', () => {
    const out = applyRevision(two, { slides: [{ index: 1, headline: 'Plan Dinner' }], add: [{ headline: 'Cook' }], order: [3, 2, 1] });
    expect(out.errors).toEqual([]);
    expect(out.plan.slides.map((s) => s.headline)).toEqual(['Cook', 'Shop Fast', 'Plan Dinner']);
    expect(out.plan.locales![1].slides.map((s) => s.headline)).toEqual(['Cook', 'Schnell einkaufen', 'Essen planen']);
    expect(out.edited).toEqual([
      { locale: 'en-US', positions: [0, 2], fields: ['add/0', 'slides/0'] },
      { locale: 'de-DE', positions: [0], fields: ['add/0'] },
    ]);
  });

  it('refuses a locale on a set in one locale, and the same captions edited twice', () => {
    const one = { ...two, locales: undefined } as ScreenshotSetResult;
    expect(applyRevision(one, { slides: [{ index: 1, locale: 'en-US', headline: 'X' }] }).errors[0].field).toBe('slides/0/locale');
    const twice = applyRevision(two, {
      slides: [
        { index: 1, headline: 'A' },
        { index: 1, locale: 'en-US', headline: 'B' },
      ],
    });
    expect(twice.errors.map((e) => e.field)).toEqual(['slides/1/index']);
  });
});
