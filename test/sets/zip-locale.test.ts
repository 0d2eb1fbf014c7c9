/**
 * The ZIP files a set under the locale its captions are written in, not the listing's (issue 30,
 * item 7): an English set of a Korean Play listing goes to android/en-US/, where supply uploads it
 * as the English listing's screenshots instead of over the Korean ones.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captionsLocale } from '../../src/core/locales.ts';
import { fileLocale } from '../../src/sets/archive.ts';
import { solidPng } from '../support/fake-images.ts';
import { insertApp, sampleListing } from '../support/fixtures.ts';
import { until } from '../support/jobs.ts';
import { scaled } from '../support/timing.ts';
import { createPicturesApp, zipNames, type PicturesApp } from './support.ts';

const korean = () =>
  sampleListing({
    store: 'google-play',
    storeId: 'com.example.pantry',
    url: 'https://play.google.com/store/apps/details?id=com.example.pantry&hl=ko',
    language: 'ko',
    country: 'kr',
    name: '팬트리 플래너',
    description: '일주일 식단을 몇 분 만에 계획하세요.\n• 장보기 목록을 자동으로 만드세요\n• 가족과 목록을 공유하세요',
  });

const slides = (...headlines: string[]) => headlines.map((headline) => ({ headline, subheadline: null }));

describe('the locale a set is filed under', () => {
  it("is the captions' language with the listing's country when Play has that locale, else the language's usual one", () => {
    expect(captionsLocale('ko', 'kr')).toBe('ko-KR');
    expect(captionsLocale('en', 'kr')).toBe('en-US');
    expect(captionsLocale('en', 'gb')).toBe('en-GB');
    expect(captionsLocale('de', 'at')).toBe('de-DE');
    expect(captionsLocale('fr', 'ca')).toBe('fr-CA');
    expect(captionsLocale('pt', 'br')).toBe('pt-BR');
  });

  it('reads the language from the captions themselves', () => {
    const listing = korean();
    expect(fileLocale({ slides: slides('일주일 식단을 계획하세요', '장보기 목록 공유') as never }, listing)).toBe('ko-KR');
    expect(fileLocale({ slides: slides('Plan Every Meal', 'Share Lists With Your Family') as never }, listing)).toBe('en-US');
    expect(fileLocale({ slides: slides('Plane jede Mahlzeit', 'Teile die Liste mit deiner Familie') as never }, listing)).toBe('de-DE');
    expect(fileLocale({ slides: slides('Plan Every Meal') as never }, sampleListing())).toBe('en-US');
  });
});

describe('an English set of a Korean Play listing', () => {
  let h: PicturesApp;
  beforeAll(async () => {
    h = await createPicturesApp();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('is filed under android/en-US/, not android/ko-KR/', async () => {
    const appId = await insertApp(h.t.pool, h.account.id, korean());
    const up = await h.app.inject({
      method: 'POST',
      url: `/api/v1/public/v1/apps/${appId}/screens`,
      headers: { ...h.auth, 'content-type': 'image/png' },
      payload: await solidPng(1080, 1920, 'green'),
    });
    expect(up.statusCode, up.body).toBe(201);
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/v1/public/v1/screenshots',
      headers: h.auth,
      payload: { appId, device: 'android-phone', slides: [{ headline: 'Plan Every Meal' }, { headline: 'Share Lists With Your Family' }] },
    });
    expect(res.statusCode, res.body).toBe(201);
    const job = await until(async () => {
      const j = (
        await h.app.inject({ method: 'GET', url: `/api/v1/public/v1/jobs/${res.json().jobId}`, headers: { ...h.auth, prefer: 'wait=10' } })
      ).json();
      return j.status === 'succeeded' || j.status === 'failed' ? j : null;
    }, scaled(60_000));
    expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
    const url = new URL(job.result.archive.url);
    const names = await zipNames((await h.app.inject({ method: 'GET', url: url.pathname + url.search })).rawPayload);
    const shots = names.filter((n) => n.includes('/images/phoneScreenshots/'));
    expect(shots).toHaveLength(2);
    for (const n of shots) expect(n).toMatch(/^android\/en-US\/images\/phoneScreenshots\/0\d_/);
    expect(names.some((n) => n.includes('ko-KR'))).toBe(false);
  });
});
