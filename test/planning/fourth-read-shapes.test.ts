/**
 * Shapes the fourth read of 2026-11-28 found (docs/reads/2026-11-28-fourth.md), on listings built
 * here in the stores' own formats (not the corpus's apps: the rules go by shape, never by name).
 * The checker finds each, so a model's caption is judged the same; the rule writer no longer writes
 * them; the short captions the read shipped still pass.
 */
import { describe, expect, it } from 'vitest';
import { checkCaptions, type CaptionToCheck } from '../../src/captions/checker/check.ts';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import { understand } from '../../src/captions/understand.ts';
import { parseAppStoreLookupBody } from '../../src/stores/app-store.ts';
import { parseGooglePlayDetailsPage } from '../../src/stores/google-play.ts';
import type { Listing } from '../../src/core/listing.ts';
import type { CaptionLength, CaptionStyle } from '../../src/core/set.ts';
import type { Role } from '../../src/core/narratives.ts';
import { lookupBody, lookupResult, playDetails, playDetailsPage, softwareApplicationLd } from '../support/store-fixtures.ts';
import { shotsOf } from './corpus/app-store-a.ts';

const appStore = (trackId: number, over: Record<string, unknown>): Listing =>
  parseAppStoreLookupBody(
    lookupBody(
      [
        lookupResult({
          trackId,
          trackViewUrl: `https://apps.apple.com/us/app/id${trackId}?uo=4`,
          currency: 'USD',
          price: 0,
          screenshotUrls: shotsOf(`t${trackId}`, 5),
          ipadScreenshotUrls: [],
          ...over,
        }),
      ],
      { raw: true },
    ),
    { id: String(trackId), country: 'us' },
  );

/** A planner whose bullets cut short read as the fourth read's "Drag and drop", "Add Tasks", "Offline access". */
const planner = appStore(1690000001, {
  trackName: 'Weekboard',
  primaryGenreName: 'Productivity',
  subtitle: 'Boards for every project',
  averageUserRating: 4.4,
  userRatingCount: 2300,
  description: [
    'Weekboard turns your projects into boards you can follow.',
    '- **Drag and drop** tasks between columns',
    '- Add notes in plain words, like "Call the bank on Friday"',
    '- Get alerts when a deadline moves closer',
    '- Offline access to every board on the train',
    '- Routines for mornings through to evenings',
    '- Works with Trello, Asana and Jira boards',
    '- Share boards with your team',
    '- Learn shortcuts with guided tours',
  ].join('\n'),
});

const play = (id: string, details: Record<string, unknown>, language = 'en'): Listing =>
  parseGooglePlayDetailsPage(
    playDetailsPage({
      details: playDetails({ id, screenshots: Array.from({ length: 6 }, () => [1920, 1080] as [number, number]), ...details }),
      jsonLd: softwareApplicationLd({ name: details.title as string, category: details.genreId as string }),
    }),
    { id, country: 'us', language },
  );

/** A Play listing that ends on a review request whose question stands as a sentence of its own. */
const habits = play('com.example.habitloop', {
  title: 'HabitLoop: Daily Habits',
  genre: 'Health & Fitness',
  genreId: 'HEALTH_AND_FITNESS',
  summary: 'Habits that stick, one day at a time',
  rating: 4.6,
  ratingCount: 52000,
  descriptionHtml: [
    'Build habits that stick with gentle reminders.',
    '✓ Track habits with a single tap',
    '✓ Streaks and charts for every habit',
    '<br>Enjoying HabitLoop? Leave us a review on Google Play, it means a lot!',
  ].join('<br>'),
});

function findings(listing: Listing, style: CaptionStyle, length: CaptionLength, headline: string, role: Role = 'feature') {
  const caption: CaptionToCheck = { headline, subheadline: null, role };
  const device = listing.store === 'google-play' ? 'android-phone' : 'iphone-69';
  const [found] = checkCaptions([caption], { listings: [listing], extraContext: null, device, captionLength: length, captionStyle: style });
  return found;
}

describe('a short headline keeps the words that make its point', () => {
  it.each([
    // Two joined verbs stopped before their object.
    ['minimal', 'Drag and drop', 'stops before "tasks"'],
    ['bold', 'DRAG AND DROP.', 'stops before "tasks"'],
    // A light verb and a bare noun: what any app of its kind does; the point followed.
    ['aso-expert', 'Add Notes', 'says only "add notes"'],
    // (A notice cut before when it comes: the notice rule finds it first and says so.)
    ['bold', 'GET ALERTS.', 'stops after "alerts"'],
    // A noun whose point is what it reaches, a range, a list of names.
    ['bold', 'OFFLINE ACCESS.', 'what "access" reaches'],
    ['minimal', 'Routines for mornings', 'inside a range'],
    ['professional', 'Works with Trello.', 'inside a list'],
  ] as const)('%s: "%s" is cut', (style, headline, why) => {
    const cut = findings(planner, style, 'short', headline).filter((f) => f.id === 'cut');
    expect(cut.map((f) => f.message).join('\n')).toContain(why);
  });

  it('finds the phrasal verb and the restricting adverb cut from their complement', () => {
    const listing = appStore(1690000002, {
      trackName: 'Marginal',
      primaryGenreName: 'Productivity',
      subtitle: 'Lists that keep up with you',
      description: 'Designed exclusively for iPad, Marginal keeps your reading notes in one place.',
    });
    expect(findings(listing, 'aso-expert', 'short', 'Lists that Keep Up', 'hero').map((f) => f.id)).toContain('cut');
    expect(findings(listing, 'professional', 'short', 'Designed exclusively.', 'hero').map((f) => f.id)).toContain('cut');
  });

  it.each([
    ['bold', 'SHARE BOARDS.'],
    ['aso-expert', 'Learn Shortcuts'],
    ['minimal', 'Drag and drop tasks'],
    ['aso-expert', 'Add Notes in Plain Words'],
    ['bold', 'OFFLINE ACCESS TO EVERY BOARD.'],
  ] as const)('%s: passes the whole "%s"', (style, headline) => {
    expect(findings(planner, style, 'short', headline).filter((f) => f.id === 'cut')).toEqual([]);
  });

  it('the rule writer says none of the cut heads in any short voice', () => {
    const cut = /^(drag and drop|add notes|get alerts|offline access|routines for mornings|works with trello)[.!]?$/i;
    for (const captionStyle of ['aso-expert', 'bold', 'minimal', 'professional', 'playful'] as const) {
      const r = planScreenshotSet({
        listings: [planner],
        extraContext: null,
        uploadedScreens: 5,
        request: { device: 'iphone-69', captionStyle, captionLength: 'short', count: 5 },
      });
      for (const s of r.slides) expect(s.headline, captionStyle).not.toMatch(cut);
    }
  });
});

describe('a review request is never a caption', () => {
  it('the checker refuses the question that opens one, on any slide', () => {
    for (const role of ['problem', 'feature', 'hero'] as const)
      expect(findings(habits, 'aso-expert', 'short', 'Enjoying HabitLoop?', role).map((f) => f.id)).toContain('policy.review');
    // A question about something else may be a hook.
    expect(findings(habits, 'aso-expert', 'short', 'Love Streaks?', 'problem').map((f) => f.id)).not.toContain('policy.review');
  });

  it('the listing reader drops it: it is no problem to open a story on', () => {
    expect(understand([habits], habits, null).problems.map((p) => p.text)).toEqual([]);
  });
});
