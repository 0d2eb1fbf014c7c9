import { scaled } from '../support/timing.ts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CaptionChecker } from '../../src/captions/checker/check.ts';
import { MAX_ANSWER_CHARS } from '../../src/captions/model/llm.ts';
import { newStats } from '../../src/captions/model/writer.ts';
import { planWithModel } from '../../src/planning/pipeline.ts';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import type { PlanInput } from '../../src/core/set.ts';
import { GOOD_HABITLY, one } from './good-captions.ts';
import { captionModel, captionRequest, startFakeLlm, type FakeLlm } from '../support/fake-llm.ts';
import { habitly } from './listings.ts';

const listing = { ...habitly, description: `${habitly.description}\nAlso from us: Sleepwell Sounds and Focusly.` };
const input: PlanInput = { listings: [listing], extraContext: null, request: { device: 'iphone-69', count: 5, captionLength: 'short' } };
const GOOD = GOOD_HABITLY;

let fake: FakeLlm | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
  vi.restoreAllMocks();
});
// Budgets scaled for a loaded machine: a prompt answer must come in however busy it is.
const settings = (timeoutMs = scaled(2_000)) => ({ baseUrl: fake!.baseUrl, model: 'm', apiKey: 'sk-test', timeoutMs });
const rules = () => planScreenshotSet(input);

describe('the model writer', () => {
  it('ships the model’s words when the checker passes them, one call, each slide marked model', async () => {
    fake = await startFakeLlm(captionModel(GOOD));
    const stats = newStats();
    const result = await planWithModel(input, settings(), undefined, stats);
    expect(result.slides.map((s) => s.headline)).toEqual(Object.values(GOOD).map((c) => c[0].headline));
    expect(result.slides.every((s) => s.captionSource === 'model')).toBe(true);
    expect(result.slides).toHaveLength(5);
    expect(fake.requests).toHaveLength(1);
    const body = fake.requests[0].body;
    expect(body.max_tokens).toBeGreaterThan(0);
    expect(JSON.stringify(body.response_format)).toContain('candidates');
    // The prompt carries each slide's role, the voice's examples and the budget as rendered.
    expect(captionRequest(body)!.slides.map((s) => s.role)).toEqual(rules().slides.map((s) => s.role));
    expect(JSON.stringify(body.messages)).toMatch(/px bold/);
    expect(stats).toMatchObject({ calls: 1, repairs: 0, fallbacks: 0 });
  });

  it('sends only the flawed slides back once; a repaired slide keeps model words, an unrepaired one falls back alone', async () => {
    const flawed = {
      ...GOOD,
      2: one('Track Unlimited Habits With One Single Tap Every Day'), // too long
      3: one('Smart Reminders That Adapt To'), // cut
      4: one('Rated 4.9 by 2M Users'), // invented
      5: one('Sleep Better With Sleepwell Sounds'), // the developer's other app
    };
    const repair = { 2: one('Track Habits With One Tap'), 3: one('Reminders for Your Schedule'), 4: one('Rated 4.9 by 2M Users') };
    fake = await startFakeLlm(captionModel(flawed, repair));
    const stats = newStats();
    const result = await planWithModel(input, settings(), undefined, stats);
    expect(fake.requests).toHaveLength(2);
    const sentBack = captionRequest(fake.requests[1].body)!.repair!;
    expect(sentBack.map((s) => s.index)).toEqual([2, 3, 4, 5]);
    // Each candidate with its problems in plain words, and the slide kept.
    expect(sentBack.map((s) => s.findings.join(' '))).toEqual([
      expect.stringMatching(/^Headline: ".*" is \d+ characters; short headlines hold 30\.$/),
      expect.stringMatching(/"Smart Reminders That Adapt To" ends on "to"/),
      expect.stringMatching(/claims "4\.9", which the listing does not say/),
      expect.stringMatching(/names the developer’s other app Sleepwell/),
    ]);
    expect(sentBack[0].candidates[0].headline).toBe('Track Unlimited Habits With One Single Tap Every Day');
    expect(captionRequest(fake.requests[1].body)!.kept).toEqual([
      { index: 1, role: 'hero', headline: 'Build Better Habits Daily', subheadline: null },
    ]);
    expect(result.slides[0]).toMatchObject({ headline: 'Build Better Habits Daily', captionSource: 'model' });
    expect(result.slides[1]).toMatchObject({ headline: 'Track Habits With One Tap', captionSource: 'model' });
    expect(result.slides[2]).toMatchObject({ headline: 'Reminders for Your Schedule', captionSource: 'model' });
    expect(result.slides[3].captionSource).toBe('rules');
    expect(result.slides[4].captionSource).toBe('rules');
    expect(result.slides.map((s) => s.headline).join(' ')).not.toMatch(/Sleepwell|2M/);
    expect(stats).toMatchObject({ calls: 2, repairs: 4, fallbacks: 2 });
  });

  it('never fails a set the rules alone can fill: model words that take the rule writer’s ideas give way to its whole set', async () => {
    // Three slides, the rule writer's exactly: the model says slide 2's idea on slide 1 and fails slides 2 and 3 twice.
    const three: PlanInput = { ...input, request: { ...input.request, count: 3 } };
    const ruled = planScreenshotSet(three).slides;
    fake = await startFakeLlm(
      captionModel({ 1: one(ruled[1].headline), 2: one('Rated 4.9 by 2M Users'), 3: one('Sleep Better With Sleepwell Sounds') }),
    );
    const stats = newStats();
    const result = await planWithModel(three, settings(), undefined, stats);
    expect(fake.requests).toHaveLength(2);
    expect(result.slides.map((s) => s.headline)).toEqual(ruled.map((s) => s.headline));
    expect(result.slides.every((s) => s.captionSource === 'rules')).toBe(true);
    expect(stats.fallbacks).toBe(3);
  });

  it('refuses a caption in the wrong language and repairs it', async () => {
    fake = await startFakeLlm(
      captionModel({ ...GOOD, 3: one('Verfolge deine Ziele mit dem Plan') }, { 3: one('Smart Reminders That Adapt') }),
    );
    const result = await planWithModel(input, settings());
    expect(captionRequest(fake.requests[1].body)!.repair![0].findings.join(' ')).toMatch(/reads as German, not English/);
    expect(result.slides[2]).toMatchObject({ headline: 'Smart Reminders That Adapt', captionSource: 'model' });
  });

  it.each([
    ['malformed JSON', { content: '{"slides": [ {"index": 1, "candidates": [' }],
    ['a 500', { status: 500, raw: '{"error":{"message":"boom"}}' }],
  ])('falls back to the rule writer for the whole set on %s', async (_name, reply) => {
    fake = await startFakeLlm(() => reply);
    const stats = newStats();
    const result = await planWithModel(input, settings(), undefined, stats);
    expect(result.slides.map((s) => s.headline)).toEqual(rules().slides.map((s) => s.headline));
    expect(result.slides.every((s) => s.captionSource === 'rules')).toBe(true);
    expect(stats).toMatchObject({ failures: 1, fallbacks: 5 });
  });

  it('never waits for a hanging model past its budget', async () => {
    fake = await startFakeLlm(() => ({ content: { slides: [] }, delayMs: scaled(400) * 25 }));
    const started = Date.now();
    const result = await planWithModel(input, settings(scaled(400)));
    expect(Date.now() - started).toBeLessThan(scaled(1_500));
    expect(result.slides.every((s) => s.captionSource === 'rules')).toBe(true);
  });

  it('replays recorded answers: a retried plan does not ask the model again', async () => {
    fake = await startFakeLlm(captionModel(GOOD));
    const recorded = { known: {}, fresh: {} as Record<string, string> };
    const first = await planWithModel(input, settings(), undefined, newStats(), recorded);
    const stats = newStats();
    const again = await planWithModel(input, settings(), undefined, stats, { known: recorded.fresh, fresh: {} });
    expect(fake.requests).toHaveLength(1);
    expect(again.slides).toEqual(first.slides);
    expect(stats.cached).toBe(1);
  });

  describe('judges a rambling answer in bounded work', () => {
    /** Listing words run together to `chars` characters: a caption that says real things, far too long. */
    const ramble = (chars: number, from: number) => {
      const words = listing.description.split(/\s+/);
      let text = '';
      for (let i = from; text.length < chars; i++) text += `${words[i % words.length]} `;
      return text.trim();
    };
    /** What the checker is asked: the headlines it reads, from whichever writer. */
    const checked = () => {
      const read: string[] = [];
      const check = CaptionChecker.prototype.check;
      vi.spyOn(CaptionChecker.prototype, 'check').mockImplementation(function (this: CaptionChecker, c) {
        read.push(c.headline);
        return check.call(this, c);
      });
      return read;
    };

    it('a 10 KB answer: over-long captions are refused unread, at most 3 candidates a slide and the set’s slides only', async () => {
      const long = (i: number) => ({ headline: ramble(600, i * 13), subheadline: null });
      const slides = [
        // Each slide: two captions twenty times too long, the good one, then 10 more that are never read.
        ...Object.entries(GOOD).map(([index, [good]]) => ({
          index: Number(index),
          candidates: [long(Number(index)), long(Number(index) + 50), good, ...Array.from({ length: 10 }, () => good)],
        })),
        // Slides the set does not have.
        ...[0, 6, 99].map((index) => ({ index, candidates: [long(index)] })),
      ];
      const content = JSON.stringify({ slides });
      expect(content.length).toBeGreaterThan(10_000);
      expect(content.length).toBeLessThan(MAX_ANSWER_CHARS);
      fake = await startFakeLlm(() => ({ content }));
      const read = checked();
      const stats = newStats();
      const result = await planWithModel(input, settings(), undefined, stats);
      expect(result.slides.map((s) => s.headline)).toEqual(Object.values(GOOD).map((c) => c[0].headline));
      expect(result.slides.every((s) => s.captionSource === 'model')).toBe(true);
      // The good candidate of each slide, judged when chosen and again as the set is assembled.
      // Each good caption read once: a set that passes at the first answer is not judged again.
      expect(stats.judged).toBe(5);
      expect(Math.max(...read.map((h) => h.length))).toBeLessThanOrEqual(80);
      expect(fake.requests).toHaveLength(1);
    });

    it('a 10 KB answer of nothing but over-long captions: one repair turn quoting them short, then the rule writer’s set', async () => {
      const content = JSON.stringify({
        slides: Object.keys(GOOD).map((index) => ({
          index: Number(index),
          candidates: [0, 1, 2].map((k) => ({ headline: ramble(700, Number(index) * 7 + k), subheadline: null })),
        })),
      });
      expect(content.length).toBeGreaterThan(10_000);
      fake = await startFakeLlm(() => ({ content }));
      const read = checked();
      const stats = newStats();
      const result = await planWithModel(input, settings(), undefined, stats);
      expect(result.slides.map((s) => s.headline)).toEqual(rules().slides.map((s) => s.headline));
      expect(stats).toMatchObject({ calls: 2, judged: 0, repairs: 5, fallbacks: 5 });
      expect(Math.max(...read.map((h) => h.length))).toBeLessThanOrEqual(80);
      const sentBack = captionRequest(fake.requests[1].body)!.repair!;
      for (const s of sentBack) {
        expect(s.findings).toEqual(
          [0, 1, 2].map(() => expect.stringMatching(/^Headline: ".{60}…" is \d{3} characters; short headlines hold 30\.$/)),
        );
      }
    });

    it('a 1 MB answer is not read: the rule writer writes the set', async () => {
      const slides = Array.from({ length: 3_000 }, (_, i) => ({ index: (i % 5) + 1, candidates: GOOD[(i % 5) + 1] }));
      const content = JSON.stringify({ slides, padding: ramble(1_000_000, 0) });
      expect(content.length).toBeGreaterThan(1_000_000);
      fake = await startFakeLlm(() => ({ content }));
      const read = checked();
      const stats = newStats();
      const result = await planWithModel(input, settings(), undefined, stats);
      expect(result.slides.map((s) => s.headline)).toEqual(rules().slides.map((s) => s.headline));
      expect(result.slides.every((s) => s.captionSource === 'rules')).toBe(true);
      expect(stats).toMatchObject({ calls: 1, failures: 1, judged: 0, fallbacks: 5 });
      // The checker read the rule writer's captions only.
      expect(
        read.filter((h) => Object.values(GOOD).some(([g]) => g.headline === h) && !rules().slides.some((s) => s.headline === h)),
      ).toEqual([]);
    });
  });

  it('keeps the API key out of logs and answers', async () => {
    fake = await startFakeLlm(() => ({ status: 500, raw: '{}' }));
    const logs: string[] = [];
    const result = await planWithModel(input, settings(), { warn: (o, m) => logs.push(JSON.stringify(o) + m) });
    expect(fake.requests[0].headers.authorization).toBe('Bearer sk-test');
    expect(logs.join('\n') + JSON.stringify(result)).not.toContain('sk-test');
  });
});
