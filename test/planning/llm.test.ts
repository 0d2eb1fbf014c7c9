import { afterEach, describe, expect, it } from 'vitest';
import { planWithLlm, type LlmSettings } from '../../src/planning/llm.ts';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import type { PlanInput } from '../../src/planning/types.ts';
import { startFakeLlm, type FakeLlm, type FakeReply } from '../support/fake-llm.ts';
import { habitly, paid } from './listings.ts';

const SECRET = 'sk-test-secret-123';
const habitlyInput: PlanInput = {
  listings: [habitly],
  extraContext: null,
  request: { device: 'iphone-69', captionStyle: 'aso-expert', captionLength: 'short' },
};
const paidInput: PlanInput = { listings: [paid], extraContext: null, request: { device: 'iphone-69', count: 3, captionLength: 'long' } };
const GOOD = [
  'Build Better Habits Daily',
  'Track Unlimited Habits',
  'Smart Reminders for You',
  'Beautiful Streak Insights',
  'Home Screen Widgets',
];
const answer = (headlines: string[], subs: (string | null)[] = headlines.map(() => null)) => ({
  slides: headlines.map((headline, i) => ({ index: i + 1, headline, subheadline: subs[i] })),
});

let fake: FakeLlm | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

async function run(input: PlanInput, reply: FakeReply, timeoutMs = 2000) {
  fake = await startFakeLlm(() => reply);
  const warnings: { obj: object; msg: string }[] = [];
  const settings: LlmSettings = { baseUrl: fake.baseUrl, model: 'fake-model', apiKey: SECRET, timeoutMs };
  const result = await planWithLlm(input, settings, { warn: (obj, msg) => warnings.push({ obj, msg }) });
  return { result, warnings, logged: JSON.stringify(warnings) };
}

describe('planWithLlm', () => {
  it('is exactly the built-in planner without an LLM', async () => {
    expect(await planWithLlm(habitlyInput, null)).toEqual(planScreenshotSet(habitlyInput));
  });

  it('uses good captions and keeps the rest of the plan', async () => {
    const { result, warnings } = await run(habitlyInput, { content: answer(GOOD) });
    const base = planScreenshotSet(habitlyInput);
    expect(result.slides.map((s) => s.headline)).toEqual(GOOD);
    expect(result.slides.map((s) => [s.screenshotUrl, s.layout, s.role, s.background])).toEqual(
      base.slides.map((s) => [s.screenshotUrl, s.layout, s.role, s.background]),
    );
    expect(result.slides[1].keywords).toContain('habits');
    expect(warnings).toEqual([]);
    const req = fake?.requests[0];
    expect(req?.path).toBe('/v1/chat/completions');
    expect(req?.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(req?.body.model).toBe('fake-model');
    expect((req?.body.response_format as { type: string }).type).toBe('json_schema');
  });

  it('accepts long captions that keep the rules', async () => {
    const subs = [
      'Track every expense and plan monthly budgets.',
      'See where your money goes each month.',
      'Export reports to CSV and PDF.',
    ];
    const { result } = await run(paidInput, {
      content: answer(['Budgets and Bills, Sorted', 'Plan Monthly Budgets', 'Export Reports to CSV'], subs),
    });
    expect(result.slides.map((s) => s.subheadline)).toEqual(subs);
  });

  const fallbacks: [string, PlanInput, FakeReply, RegExp][] = [
    [
      'a headline over 30 characters',
      habitlyInput,
      { content: answer([...GOOD.slice(0, 4), 'Home Screen Widgets for Quick Check-Ins Everywhere']) },
      /longer than 30/,
    ],
    [
      '"free" for a paid app',
      paidInput,
      { content: answer(['Free Budgets and Bills', 'Plan Monthly Budgets', 'Export Reports to CSV'], ['Budgets.', 'Plans.', 'Reports.']) },
      /free/,
    ],
    ['a repeated headline', habitlyInput, { content: answer([...GOOD.slice(0, 4), 'track unlimited habits']) }, /repeats/],
    ['a dangling "and"', habitlyInput, { content: answer([...GOOD.slice(0, 4), 'Home Screen Widgets and']) }, /unfinished/],
    ['invented features', habitlyInput, { content: answer([...GOOD.slice(0, 4), 'Blockchain Crypto Rewards']) }, /not grounded/],
    [
      'a subheadline on a short set',
      habitlyInput,
      {
        content: answer(
          GOOD,
          GOOD.map(() => 'Build better habits daily.'),
        ),
      },
      /no subheadline/,
    ],
    ['the wrong number of slides', habitlyInput, { content: answer(GOOD.slice(0, 3)) }, /expected 5 slides/],
    ['an HTTP 500', habitlyInput, { status: 500, raw: '{"error":{"message":"boom"}}' }, /500/],
    ['content that is not JSON', habitlyInput, { content: 'Sure! Here are your captions: ...' }, /JSON/],
    ['a body that is not JSON', habitlyInput, { raw: '<html>gateway</html>' }, /JSON|Error/],
    ['a timeout', habitlyInput, { content: answer(GOOD), delayMs: 1500 }, /timed out|Timeout/i],
  ];
  it.each(fallbacks)('falls back to the built-in plan on %s, logging no secret', async (_name, input, reply, reason) => {
    const { result, warnings, logged } = await run(input, reply, 300);
    expect(result).toEqual(planScreenshotSet(input));
    expect(warnings.length).toBe(1);
    expect(logged).toMatch(reason);
    expect(logged).not.toContain(SECRET);
    expect(JSON.stringify(result.warnings)).not.toContain(SECRET);
  });

  it('falls back when nothing listens at the base URL', async () => {
    const result = await planWithLlm(habitlyInput, { baseUrl: 'http://127.0.0.1:9/v1', model: 'm', apiKey: null, timeoutMs: 500 });
    expect(result).toEqual(planScreenshotSet(habitlyInput));
  });

  it('still refuses a bad request before calling the model', async () => {
    await expect(
      planWithLlm(
        { ...habitlyInput, request: { device: 'iphone-69', narrativeId: 'nope' } },
        { baseUrl: 'http://127.0.0.1:9/v1', model: 'm', apiKey: null },
      ),
    ).rejects.toMatchObject({ code: 'validation_failed' });
  });
});
