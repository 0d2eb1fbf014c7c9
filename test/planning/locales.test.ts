import { afterEach, describe, expect, it, vi } from 'vitest';
import { CaptionChecker } from '../../src/captions/checker/check.ts';
import { captionWidth, localeProblem } from '../../src/core/locales.ts';
import { TranslationFailed } from '../../src/captions/model/errors.ts';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import { planSet } from '../../src/planning/pipeline.ts';
import type { PlanInput } from '../../src/core/set.ts';
import { startFakeLlm, translationRequest, translator, type FakeLlm } from '../support/fake-llm.ts';
import { scaled } from '../support/timing.ts';
import { habitly } from './listings.ts';

const input = (locales: string[]): PlanInput => ({
  listings: [habitly],
  extraContext: null,
  request: { device: 'iphone-69', captionStyle: 'aso-expert', captionLength: 'short', locales },
});
const de = (h: string, i: number) => `Gewohnheit ${i + 1} stärken`.slice(0, 30);
const ja = (_h: string, i: number) => `習慣を毎日続ける${i + 1}`;

let fake: FakeLlm | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
  vi.restoreAllMocks();
});
/**
 * The set's model budget, scaled for a loaded machine: an answer the fake gives at once must come
 * in within it however busy the machine is (at a fixed 300 ms it ran out at load 30 and a
 * translation failed). A hang is HANG_MS, far past any scaled budget.
 */
const BUDGET_MS = scaled(300);
const HANG_MS = BUDGET_MS * 20;
const settings = () => ({ baseUrl: fake!.baseUrl, model: 'm', apiKey: null, timeoutMs: BUDGET_MS });

describe('locales', () => {
  it('validates tags and counts full-width characters twice', () => {
    expect(localeProblem('de-DE')).toBeNull();
    expect(localeProblem('de')).toMatch(/language-REGION/);
    expect(localeProblem('xx-DE')).toMatch(/not a known language/);
    expect(localeProblem('de-QQ')).toMatch(/not a known region/);
    expect(captionWidth('習慣')).toBe(4);
    expect(captionWidth('Habit')).toBe(5);
  });

  it("plans the listing language natively and translates the others; slides stay the first locale's", async () => {
    fake = await startFakeLlm(translator({ 'de-DE': de, 'ja-JP': ja }));
    const result = await planSet(input(['de-DE', 'en-US', 'ja-JP']), settings());
    const base = planScreenshotSet(input(['en-US']));
    expect(result.locales!.map((l) => l.locale)).toEqual(['de-DE', 'en-US', 'ja-JP']);
    expect(result.locales![1].slides).toEqual(base.slides);
    expect(result.slides).toEqual(result.locales![0].slides);
    expect(result.slides[0].headline).toMatch(/Gewohnheit/);
    expect(result.locales![2].slides[0].headline).toMatch(/習慣/);
    expect(result.locales![2].slides.map((s) => s.screenshotUrl)).toEqual(base.slides.map((s) => s.screenshotUrl));
  });

  it.each([
    ['a wrong-length answer', { content: { slides: [{ index: 1, headline: 'x', subheadline: null }] } }],
    ['invalid JSON', { content: 'not json at all' }],
    ['a timeout', { content: { slides: [] }, delayMs: HANG_MS }],
    ['an over-long Japanese headline', null],
  ])('retries once, then fails the planning with TranslationFailed on %s', async (_n, reply) => {
    const odd = reply ?? {
      content: { slides: [1, 2, 3, 4, 5].map((index) => ({ index, headline: '習慣'.repeat(8) + index, subheadline: null })) },
    };
    fake = await startFakeLlm(translator({}, { 'ja-JP': () => odd }));
    await expect(planSet(input(['en-US', 'ja-JP']), settings())).rejects.toBeInstanceOf(TranslationFailed);
    // A timeout spends the set's translation budget: no second request is sent after it.
    expect(fake.requests.filter((r) => JSON.stringify(r.body).includes('ja-JP')).length).toBe(reply && 'delayMs' in reply ? 1 : 2);
  });

  it('gives all locales and their retries one budget: a hanging model is not asked again and again', async () => {
    const hang = () => ({ content: { slides: [] }, delayMs: HANG_MS });
    fake = await startFakeLlm(translator({}, { 'de-DE': hang, 'fr-FR': hang, 'ja-JP': hang, 'es-ES': hang, 'it-IT': hang }));
    await expect(planSet(input(['de-DE', 'fr-FR', 'ja-JP', 'es-ES', 'it-IT']), settings())).rejects.toBeInstanceOf(TranslationFailed);
    // Per-attempt budgets asked 10 times (5 locales × 2 attempts) in four rounds of the budget; one budget asks each of
    // the first three once, and the rest find it spent.
    expect(fake.requests.filter((r) => translationRequest(r.body)).length).toBeLessThanOrEqual(5);
  });

  it('recovers when the retry answers well', async () => {
    fake = await startFakeLlm(translator({ 'de-DE': de }, { 'de-DE': (attempt) => (attempt === 1 ? { content: 'oops' } : null) }));
    const result = await planSet(input(['de-DE']), settings());
    expect(result.slides[0].headline).toMatch(/Gewohnheit/);
  });

  it('checks a translation with the same checker: an answer in another language is retried, then refused', async () => {
    fake = await startFakeLlm(translator({ 'de-DE': (_h, i) => `Sigue tus hábitos con la app ${i + 1}`.slice(0, 30) }));
    const reasons: string[] = [];
    await expect(planSet(input(['de-DE']), settings(), { warn: (o) => reasons.push(JSON.stringify(o)) })).rejects.toBeInstanceOf(
      TranslationFailed,
    );
    expect(fake.requests.filter((r) => JSON.stringify(r.body).includes('de-DE')).length).toBe(2);
    expect(reasons.join(' ')).toMatch(/language.*reads as Spanish/);
  });

  it('does not judge a 10 KB caption: the answer is refused on its length, asked again, then the planning fails', async () => {
    const ramble = Array.from({ length: 700 }, (_, i) => `Gewohnheit ${i}`).join(' ');
    fake = await startFakeLlm(translator({ 'de-DE': (_h, i) => (i === 2 ? ramble : de(_h, i)) }));
    const read: string[] = [];
    const check = CaptionChecker.prototype.check;
    vi.spyOn(CaptionChecker.prototype, 'check').mockImplementation(function (this: CaptionChecker, c) {
      read.push(c.headline);
      return check.call(this, c);
    });
    const reasons: string[] = [];
    await expect(planSet(input(['de-DE']), settings(), { warn: (o) => reasons.push(JSON.stringify(o)) })).rejects.toBeInstanceOf(
      TranslationFailed,
    );
    expect(read.filter((h) => h.includes('Gewohnheit'))).toEqual([]);
    expect(reasons.join(' ')).toMatch(/slide 3: fits \(headline\): .{0,90}… ?\\?" is \d{5} characters; short headlines hold 30/);
    // The retry quotes the caption short, not the 10 KB back.
    const retry = JSON.stringify(fake.requests.filter((r) => translationRequest(r.body))[1].body.messages);
    expect(retry).toMatch(/is \d{5} characters/);
    expect(retry.length).toBeLessThan(8_000);
  });

  it('refuses another language without a model', async () => {
    await expect(planSet(input(['de-DE']), null)).rejects.toMatchObject({ code: 'validation_failed' });
  });
});
