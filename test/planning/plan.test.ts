import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatPlan } from '../../scripts/plan.ts';
import { contrastRatio, paletteFor } from '../../src/planning/look.ts';
import { defaultRoles, findNarrative, NARRATIVES, ROLES } from '../../src/core/narratives.ts';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import { DEVICE_IDS } from '../../src/core/devices.ts';
import { MAX_COUNT, type PlanInput, type PlanRequest, type ScreenshotSetResult } from '../../src/core/set.ts';
import { isProblem } from '../../src/core/problem.ts';
import { emptyScreenshots, type Listing } from '../../src/core/listing.ts';
import { planViolations } from './check.ts';
import { FULL } from './sample.ts';
import { android, emptyDescription, french, habitly, noIpad, paid, unrated } from './listings.ts';

/** A sparse listing's set is refused (cannot_fill_set), never shorter: these tests plan the count it supports. */
const plan = (listings: Listing[], request: Partial<PlanRequest> = {}, extraContext: string | null = null): ScreenshotSetResult => {
  try {
    return planScreenshotSet({ listings, extraContext, request: { device: 'iphone-69', ...request } });
  } catch (error) {
    const supported = isProblem(error) && error.code === 'cannot_fill_set' ? (error.extensions.supported as number) : 0;
    const asked = request.count ?? 5;
    if (request.narrativeId || supported < 1 || asked <= 1) throw error;
    return plan(listings, { ...request, count: Math.min(supported, asked - 1) }, extraContext);
  }
};
const headlines = (r: ScreenshotSetResult) => r.slides.map((s) => s.headline);

describe('narratives', () => {
  it('has at least six distinct, well-formed stories', () => {
    expect(NARRATIVES.length).toBeGreaterThanOrEqual(6);
    expect(new Set(NARRATIVES.map((n) => n.id)).size).toBe(NARRATIVES.length);
    for (const n of NARRATIVES) {
      expect(n.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(n.roles.length).toBeGreaterThanOrEqual(1);
      expect(n.roles.length).toBeLessThanOrEqual(MAX_COUNT);
      for (const r of n.roles) expect(ROLES).toContain(r);
    }
    expect(findNarrative('how-it-works')?.roles.filter((r) => r === 'how-it-works')).toHaveLength(3);
    expect(findNarrative('full-tour')?.roles).toHaveLength(10);
    expect(findNarrative('single-hero')?.roles).toEqual(['hero']);
    expect(findNarrative('nope')).toBeNull();
  });

  it('tells a default story of any length that opens with the hero', () => {
    for (let n = 1; n <= MAX_COUNT; n++) {
      const roles = defaultRoles(n);
      expect(roles).toHaveLength(n);
      expect(roles[0]).toBe('hero');
    }
    expect(defaultRoles(10)).toContain('call-to-action');
  });

  it('numbers the steps the listing states, and shows features with a warning when it states none', () => {
    const stepped = {
      ...habitly,
      description: `${habitly.description}\nHow it works:\n1. Pick the habits you want\n2. Tap once a day to check in\n3. Watch your streaks grow`,
    };
    const r = plan([stepped], { narrativeId: 'how-it-works', captionStyle: 'aso-expert' });
    expect(r.slides.map((s) => s.role)).toEqual(['hero', 'how-it-works', 'how-it-works', 'how-it-works', 'call-to-action']);
    expect(r.slides.slice(1, 4).map((s) => s.headline.match(/\d/)?.[0])).toEqual(['1', '2', '3']);
    const none = plan([habitly], { narrativeId: 'how-it-works' });
    expect(none.slides.some((s) => s.role === 'how-it-works')).toBe(false);
    expect(none.warnings.join(' ')).toMatch(/does not state 3 steps/);
  });
});

describe('requests', () => {
  const problem = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      return isProblem(e) ? { status: e.status, code: e.code } : e;
    }
    return null;
  };
  it('refuses an unknown narrative, a bad count and no listing with validation_failed', () => {
    expect(problem(() => plan([habitly], { narrativeId: 'best-story' }))).toEqual({ status: 400, code: 'validation_failed' });
    for (const count of [0, 11, 2.5]) expect(problem(() => plan([habitly], { count }))).toEqual({ status: 400, code: 'validation_failed' });
    expect(problem(() => plan([]))).toEqual({ status: 400, code: 'validation_failed' });
    expect(problem(() => plan([habitly], { device: 'watch' as never }))).toEqual({ status: 400, code: 'validation_failed' });
  });
  it("checks the request with the API's own schema, naming each field by its path", () => {
    const errors = (request: Partial<PlanRequest>) => {
      try {
        planScreenshotSet({ listings: [habitly], extraContext: null, request: { device: 'iphone-69', ...request } });
      } catch (e) {
        if (isProblem(e) && e.code === 'validation_failed') return e.extensions.errors;
        throw e;
      }
      return [];
    };
    // The API's body refuses these; the hand-written check let them through to the planner.
    expect(errors({ size: 'big' })).toEqual([{ field: 'size', message: expect.stringMatching(/pattern/) }]);
    expect(errors({ slides: [{ headline: 'Track it', screenId: 'scr_nope' }] })).toEqual([
      { field: 'slides/0/screenId', message: expect.stringMatching(/pattern/) },
    ]);
    expect(
      errors({ slides: [{ headline: 'x'.repeat(61) }, { headline: '   ' }, { headline: 'Ok', subheadline: 'y'.repeat(141) }] }),
    ).toEqual([
      { field: 'slides/0/headline', message: 'must be 1 to 60 characters' },
      { field: 'slides/2/subheadline', message: 'must be at most 140 characters' },
      { field: 'slides/1/headline', message: 'must be 1 to 60 characters' },
    ]);
    // Null is absence to the planner, and a length counts characters as the API does, not UTF-16 units.
    expect(errors({ slides: [{ headline: '😀'.repeat(60), subheadline: null }], narrativeId: null, locales: null })).toEqual([]);
  });
  it('ignores count when a narrative is named, and defaults to five short aso-expert slides', () => {
    expect(plan([habitly], { narrativeId: 'single-hero', count: 9 }).slides).toHaveLength(1);
    const r = plan([habitly]);
    expect([r.slides.length, r.captionStyle, r.captionLength, r.narrativeId]).toEqual([5, 'aso-expert', 'short', null]);
  });
});

describe('listing understanding', () => {
  it('skips store boilerplate and uses the bullet features', () => {
    const all = plan([habitly], { count: 10, captionLength: 'long' })
      .slides.flatMap((s) => [s.headline, s.subheadline ?? ''])
      .join(' ');
    expect(all).not.toMatch(/subscription|iTunes|privacy|https?:/i);
    expect(all).toMatch(/Unlimited Habits/i);
    expect(all).toMatch(/Home Screen Widgets/i);
    // "Smart reminders that adapt to your schedule" is not used since the whole-phrase rules, though
    // "Smart Reminders" passes the checker: a known gap of the rule writer (issue 33's note).
  });
  it('lets the extra context outrank the description', () => {
    const r = plan([habitly], { captionStyle: 'minimal' }, 'Dark mode for night owls. Offline journaling on flights.');
    expect(headlines(r).slice(0, 3).join(' ')).toMatch(/dark mode|offline journaling/i);
  });
  it('plans a good set from an empty description', () => {
    // Six slides are refused before anything is charged, saying why and what to add.
    expect(() =>
      planScreenshotSet({
        listings: [emptyDescription],
        extraContext: null,
        request: { device: 'iphone-69', count: 6, captionLength: 'long' },
      }),
    ).toThrow(/no description.*extraContext/);
    // A long set needs a line under every headline, and the category alone is none (issue 33's
    // padding rule): long-captions.test.ts checks that refusal. Short, its subtitle leads the set.
    const r = plan([emptyDescription], { count: 6, captionLength: 'short' });
    expect(headlines(r)[0]).toMatch(/Count Anything Quickly/);
    expect(
      planViolations(
        {
          listings: [emptyDescription],
          extraContext: null,
          request: { device: 'iphone-69', count: r.slides.length, captionLength: 'short' },
        },
        r,
      ),
    ).toEqual([]);
  });
  it('captions a French listing with its own French phrases and says so', () => {
    const r = plan([french], { captionStyle: 'professional' });
    const text = headlines(r).join(' ').toLowerCase();
    expect(text).toMatch(/recettes|repas|courses|favoris/);
    expect(text).not.toMatch(/\b(meet|get|download|your|the)\b/);
    expect(r.warnings.some((w) => /"fr"/.test(w))).toBe(true);
  });
  it('never says free for a paid app, even when the description does', () => {
    for (const captionStyle of ['aso-expert', 'playful'] as const) {
      const r = plan([paid], { count: 10, captionStyle, captionLength: 'long' });
      expect(JSON.stringify(r.slides)).not.toMatch(/\bfree\b/i);
    }
    const freeApp = { ...paid, price: 0 };
    expect(plan([freeApp], { count: 10, captionLength: 'long' }).slides.some((s) => /free/i.test(`${s.headline} ${s.subheadline}`))).toBe(
      true,
    );
  });
  it('shows social proof only with a rating, and says so otherwise', () => {
    const rated = plan([habitly], { narrativeId: 'social-proof-first' });
    expect(rated.slides[0].role).toBe('social-proof');
    expect(rated.slides[0].headline).toMatch(/4\.7/);
    // A narrative's length is fixed: the sparse unrated listing needs a few more lines to fill it.
    const r = plan(
      [unrated],
      { narrativeId: 'social-proof-first' },
      'Export your notes as PDF files. Share lists with your team. Sync every device overnight.',
    );
    expect(r.slides.some((s) => s.role === 'social-proof')).toBe(false);
    expect(r.warnings.join(' ')).toMatch(/no rating/);
    const low = plan([{ ...habitly, rating: 2.1 }], { narrativeId: 'social-proof-first' });
    expect(low.slides.some((s) => s.role === 'social-proof')).toBe(false);
  });
  it("does not name the other store's platform", () => {
    const r = plan([{ ...android, store: 'app-store' }], { count: 10 });
    expect(headlines(r).join(' ')).not.toMatch(/android|wear os/i);
  });
});

describe('screens, store rules and look', () => {
  it('frames the hero with the first screenshot and cycles when there are fewer shots', () => {
    const r = plan([habitly], { count: 8 });
    expect(r.slides[0].screenshotUrl).toBe(habitly.screenshots.iphone[0].url);
    expect(new Set(r.slides.map((s) => s.screenshotUrl)).size).toBe(Math.min(6, r.slides.length));
    if (r.slides.length > 6) expect(r.warnings.join(' ')).toMatch(new RegExp(`6 screenshots for ${r.slides.length} slides`));
  });
  it('goes text-only with a warning when the family is missing', () => {
    const r = plan([noIpad], { device: 'ipad-pro' });
    expect(r.slides.every((s) => s.screenshotUrl === null && s.layout === 'text-only')).toBe(true);
    expect(r.warnings.join(' ')).toMatch(/no iPad screenshots/);
  });
  it('lets Android phone and tablet shots stand in for each other, with a warning', () => {
    const r = plan([android], { device: 'android-tablet' });
    expect(r.slides.every((s) => s.screenshotUrl?.includes('/phone/'))).toBe(true);
    expect(r.warnings.join(' ')).toMatch(/instead/);
  });
  it("prefers the listing of the device's store when both are given", () => {
    const both = [habitly, android];
    expect(plan(both, { device: 'android-phone' }).slides[0].screenshotUrl).toContain('trailmate');
    expect(plan(both, { device: 'iphone-67' }).slides[0].screenshotUrl).toContain('habitly');
    expect(headlines(plan(both, { device: 'android-phone', count: 10 })).join(' ')).toMatch(/TrailMate|Trail|Hikes/i);
  });
  it('warns when more than 8 slides are planned for Google Play, and not for the App Store', () => {
    const rich = {
      ...android,
      description: `${android.description}\n${['Plan routes with elevation profiles', 'Get weather forecasts for every trailhead', 'Save favourite trails to collections', 'Follow friends and see their latest hikes', 'Export tracks as GPX files'].map((l) => `★ ${l}`).join('\n')}`,
    };
    expect(plan([rich], { device: 'android-phone', count: 10 }).warnings.join(' ')).toMatch(/at most 8/);
    expect(plan([android], { device: 'android-phone', count: 8 }).warnings.join(' ')).not.toMatch(/at most 8/);
    expect(plan([habitly], { count: 10 }).warnings.join(' ')).not.toMatch(/at most 8/);
  });
  it('computes WCAG contrast and always picks an AA text colour, for any brand colours or none', () => {
    const hex = fc.integer({ min: 0, max: 0xffffff }).map((n) => `#${n.toString(16).padStart(6, '0').toUpperCase()}`);
    expect(contrastRatio('#FFFFFF', '#000000')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#FFFFFF')).toBeCloseTo(4.48, 2);
    fc.assert(
      fc.property(fc.option(fc.tuple(hex, hex)), fc.string(), (brand, name) => {
        const p = paletteFor(brand && { primary: brand[0], secondary: brand[1] }, name);
        expect(p.colors).toHaveLength(2);
        for (const c of p.colors) expect(contrastRatio(c, p.textColor)).toBeGreaterThanOrEqual(4.5);
      }),
      { numRuns: 500 },
    );
  });
});

describe('property: any listing text gives a valid plan', () => {
  const text = fc
    .array(
      fc.oneof(
        fc.lorem({ maxCount: 12 }),
        fc.constantFrom('• ', '\n', '- ', 'free ', ' and', ', ', '&', 'FEATURES:', 'Tired of it?', '🔥 '),
      ),
      { maxLength: 40 },
    )
    .map((a) => a.join(' '));
  // 60 random listings a run in `npm test` (each a fresh analysis: 150 were most of this file's
  // CPU, docs/reads/test-time.md); every run draws new ones, and fast-check prints the seed that
  // replays a failure. `npm run plan:full` draws 600.
  it('never throws and keeps every rule', () => {
    fc.assert(
      fc.property(
        text,
        fc.lorem({ maxCount: 5 }),
        fc.option(fc.lorem({ maxCount: 8 })),
        fc.constantFrom(...DEVICE_IDS),
        fc.integer({ min: 1, max: 10 }),
        fc.boolean(),
        fc.boolean(),
        (description, name, subtitle, device, count, long, paidApp) => {
          const listing: Listing = {
            ...habitly,
            name: name || 'X',
            description,
            subtitle,
            price: paidApp ? 1.99 : 0,
            screenshots: { ...emptyScreenshots(), iphone: habitly.screenshots.iphone },
          };
          const input: PlanInput = {
            listings: [listing],
            extraContext: null,
            request: { device, count, captionLength: long ? 'long' : 'short', captionStyle: 'playful' },
          };
          let result: ScreenshotSetResult;
          try {
            result = planScreenshotSet(input);
          } catch (error) {
            // The one refusal the contract allows: the listing says too little for the slides asked.
            expect(isProblem(error) && error.code).toBe('cannot_fill_set');
            return;
          }
          expect(result.slides).toHaveLength(count);
          expect(planViolations(input, result)).toEqual([]);
        },
      ),
      { numRuns: FULL ? 600 : 60 },
    );
  });
});

describe('the rule checker itself', () => {
  it('flags broken plans', () => {
    const input: PlanInput = { listings: [paid], extraContext: null, request: { device: 'iphone-69' } };
    const good = planScreenshotSet(input);
    const broken = (patch: Partial<ScreenshotSetResult['slides'][number]>, i = 1) => ({
      ...good,
      slides: good.slides.map((s, k) => (k === i ? { ...s, ...patch } : s)),
    });
    expect(planViolations(input, good)).toEqual([]);
    expect(planViolations(input, broken({ headline: 'Categorise Every Expense Automatically' })).join()).toMatch(/short caption/);
    expect(planViolations(input, broken({ headline: 'Export Reports to CS' })).join()).toMatch(/word "cs"/);
    expect(planViolations(input, broken({ headline: 'Export Reports and' })).join()).toMatch(/dangling/);
    expect(planViolations(input, broken({ headline: 'Free Reports' })).join()).toMatch(/free/);
    expect(planViolations(input, broken({ headline: good.slides[0].headline.toUpperCase() })).join()).toMatch(/repeated/);
    // Text in the background's own colour cannot be read, whatever the brand.
    expect(planViolations(input, broken({ textColor: good.slides[1].background.colors[0] })).join()).toMatch(/contrast/);
    expect(planViolations(input, broken({ screenshotUrl: paid.screenshots.ipad[0].url })).join()).toMatch(/wrong family/);
  });
});

describe('cli table', () => {
  it('prints every slide, the colours and the warnings', () => {
    const r = plan([noIpad], { device: 'ipad-pro', captionLength: 'long' });
    const table = formatPlan(r);
    for (const s of r.slides) expect(table).toContain(s.headline);
    expect(table).toMatch(/contrast \d+\.\d\d:1/);
    expect(table).toContain(r.warnings[0]);
  });
});
