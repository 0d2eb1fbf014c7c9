/**
 * Issue 33, item 3, the model's side: what the request carries (the store's rating and count, each
 * screen's text, the audience extraContext names, the checker's rules in plain words), the checker's
 * findings logged at debug per slide, and a set that fails only when a slide has nothing that passes.
 */
import { scaled } from '../support/timing.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { newStats } from '../../src/captions/model/writer.ts';
import { planWithModel } from '../../src/planning/pipeline.ts';
import type { PlanInput } from '../../src/core/set.ts';
import { GOOD_HABITLY, one } from './good-captions.ts';
import { captionModel, captionRequest, startFakeLlm, userText, type FakeLlm } from '../support/fake-llm.ts';
import { emptyDescription, habitly } from './listings.ts';
import { loadImage } from '@napi-rs/canvas';
import { appScreenPng } from '../support/app-screens.ts';

const GOOD = GOOD_HABITLY;
let fake: FakeLlm | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});
const settings = () => ({ baseUrl: fake!.baseUrl, model: 'm', apiKey: null, timeoutMs: scaled(5_000) });

describe('the model’s request', () => {
  it('carries the store’s rating and count, each screen’s text, the audience and the rules it is judged by', async () => {
    fake = await startFakeLlm(captionModel(GOOD));
    const input: PlanInput = {
      listings: [habitly],
      extraContext: 'Made for busy parents who want calmer routines.',
      request: { device: 'iphone-69', count: 5, captionLength: 'short' },
      screenTexts: [
        { screenId: 'a', text: ['Today', 'Drink water', 'Read 10 pages'] },
        { screenId: 'b', text: null },
        { screenId: 'c', text: ['Streaks', '21 days'] },
      ],
    };
    await planWithModel(input, settings());
    const [system, user] = (fake.requests[0].body.messages as { content: unknown }[]).map((m) => userText(m.content));
    const asked = JSON.parse(user);
    expect(asked.storeRating).toEqual({ value: '4.7', count: '12K+' });
    expect(asked.audience).toBe('busy parents who want calmer routines');
    // Screens keep their framing number: the unread second screen leaves a gap, not a shift.
    expect(asked.screens).toEqual([
      { screen: 1, text: ['Today', 'Drink water', 'Read 10 pages'] },
      { screen: 3, text: ['Streaks', '21 days'] },
    ]);
    expect(system).toMatch(/Write for busy parents/);
    expect(system).toMatch(/paraphrase is fine/i);
    expect(system).toMatch(
      /every number, rating, award, platform and feature you name must be in the listing, extraContext or a screen’s text/,
    );
    expect(system).toMatch(/Social proof quotes only `storeRating`/);
    expect(system).toMatch(/no headings/i);
  });

  it('with LLM_VISION shows the model each screen, downscaled to 768 px, after the words; without it, words only', async () => {
    fake = await startFakeLlm(captionModel(GOOD));
    const screens = [
      appScreenPng({ title: 'Today', rows: ['Drink water', 'Read 10 pages'] }),
      appScreenPng({ title: 'Streaks', rows: ['21 days'] }),
    ];
    const input: PlanInput = {
      listings: [habitly],
      extraContext: null,
      request: { device: 'iphone-69', count: 5, captionLength: 'short' },
      screenTexts: [
        { screenId: 'a', text: ['Today', 'Drink water'] },
        { screenId: 'b', text: ['Streaks', '21 days'] },
      ],
      screenPictures: screens.map((b) => new Uint8Array(b)),
    };
    await planWithModel(input, { ...settings(), vision: true });
    const [system, user] = fake.requests[0].body.messages as { content: unknown }[];
    expect(system.content).toMatch(/pictures that follow are those screens/);
    const parts = user.content as { type: string; text?: string; image_url?: { url: string } }[];
    expect(parts.map((p) => p.type)).toEqual(['text', 'image_url', 'image_url']);
    expect(JSON.parse(parts[0].text!).screens).toHaveLength(2);
    for (const p of parts.slice(1)) {
      expect(p.image_url!.url).toMatch(/^data:image\/jpeg;base64,/);
      const image = await loadImage(Buffer.from(p.image_url!.url.split(',')[1], 'base64'));
      expect(Math.max(image.width, image.height)).toBe(768);
    }
    // The same input without LLM_VISION: the request is words only.
    await planWithModel(input, settings());
    expect(typeof (fake.requests[1].body.messages as { content: unknown }[])[1].content).toBe('string');
  });

  it('leaves the rating out when too few people gave it', async () => {
    fake = await startFakeLlm(captionModel(GOOD));
    const few = { ...habitly, ratingCount: 12 };
    await planWithModel(
      { listings: [few], extraContext: null, request: { device: 'iphone-69', count: 5, captionLength: 'short' } },
      settings(),
    );
    const user = JSON.parse(userText((fake.requests[0].body.messages as { content: unknown }[])[1].content));
    expect(user.storeRating).toBeNull();
  });
});

describe('the repair turn', () => {
  it('names each failing candidate’s findings in plain words, and the slides already kept', async () => {
    const first = {
      ...GOOD,
      3: [
        { headline: 'Smart Reminders That Adapt To', subheadline: null },
        { headline: 'Rated 4.9 by 2M Users', subheadline: null },
      ],
    };
    fake = await startFakeLlm(captionModel(first, { 3: one('Reminders for Your Schedule') }));
    await planWithModel(
      { listings: [habitly], extraContext: null, request: { device: 'iphone-69', count: 5, captionLength: 'short' } },
      settings(),
    );
    const sent = captionRequest(fake.requests[1].body)!;
    expect(sent.repair!.map((s) => s.index)).toEqual([3]);
    // Both candidates, each with its own problems, said as a reader would (which line, what is wrong).
    expect(sent.repair![0].candidates).toEqual([
      {
        headline: 'Smart Reminders That Adapt To',
        subheadline: null,
        problems: expect.arrayContaining([expect.stringMatching(/^Headline: .*ends on "to"/)]),
      },
      {
        headline: 'Rated 4.9 by 2M Users',
        subheadline: null,
        problems: expect.arrayContaining([expect.stringMatching(/^Headline: .*claims "4\.9", which the listing does not say/)]),
      },
    ]);
    // No checker ids: the problems are sentences, not "grounded" or "complete".
    for (const c of sent.repair![0].candidates) for (const p of c.problems) expect(p).toMatch(/^(Headline|Subheadline): ".+/);
    expect(sent.kept!.map((k) => k.index)).toEqual([1, 2, 4, 5]);
    expect(sent.kept![0]).toMatchObject({ headline: GOOD[1][0].headline });
  });
});

describe('the checker’s verdicts on the model’s words', () => {
  it('are logged at debug, one line per slide, each candidate with its findings', async () => {
    fake = await startFakeLlm(
      captionModel({ ...GOOD, 3: one('Smart Reminders That Adapt To') }, { 3: one('Reminders for Your Schedule') }),
    );
    const lines: { obj: Record<string, unknown>; msg: string }[] = [];
    const logger = { warn: () => {}, debug: (obj: object, msg: string) => lines.push({ obj: obj as Record<string, unknown>, msg }) };
    await planWithModel(
      { listings: [habitly], extraContext: null, request: { device: 'iphone-69', count: 5, captionLength: 'short' } },
      settings(),
      logger,
    );
    const first = lines.filter((l) => l.obj.round === 'first');
    expect(first.map((l) => l.obj.slide)).toEqual([1, 2, 3, 4, 5]);
    expect(first[2].obj).toMatchObject({
      role: expect.any(String),
      chosen: null,
      candidates: [
        { headline: 'Smart Reminders That Adapt To', findings: expect.arrayContaining([expect.stringMatching(/ends on "to"/)]) },
      ],
    });
    expect(first[0].obj).toMatchObject({ chosen: 'Build Better Habits Daily', candidates: [{ findings: [] }] });
    expect(lines.filter((l) => l.obj.round === 'repair')[2].obj.chosen).toBe('Reminders for Your Schedule');
  });

  it('never fail the job while a slide has a caption that passes: the rule writer has none for it here', async () => {
    // Tally Counter's listing has one line: the rule writer fills only the hero. The model says slide 2's
    // words again on slide 3, twice; on its own that caption passes, so the set ships rather than fails.
    const answer = {
      1: one('Count Anything in a Tap'),
      2: one('Count Laps at the Pool'),
      3: one('Count Laps at the Pool'),
      4: one('Keep Score at Game Night'),
      5: one('Tally Stock in the Storeroom'),
    };
    fake = await startFakeLlm(captionModel(answer));
    const warnings: string[] = [];
    const stats = newStats();
    const result = await planWithModel(
      { listings: [emptyDescription], extraContext: null, request: { device: 'iphone-69', count: 5, captionLength: 'short' } },
      settings(),
      { warn: (_o, msg) => warnings.push(msg) },
      stats,
    );
    expect(result.slides.map((s) => s.headline)).toEqual(Object.values(answer).map((c) => c[0].headline));
    expect(warnings).toContain('caption slide kept a caption that passes alone but not in its set');
    expect(stats.repairs).toBe(1);
  });
});
