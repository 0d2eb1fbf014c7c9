/**
 * Issue 33's "Screens" line, offline: uploaded screens already read (their OCR text) decide which of
 * the listing's features the rule writer says, so that every non-hero slide speaks of one screen's
 * feature and sits over that screen, in every voice and length, whatever the listing's own order.
 * Screens not read keep the listing's order (src/planning/screen-match.ts, `shownPhrases`).
 */
import { describe, expect, it } from 'vitest';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import { CAPTION_LENGTH_IDS, CAPTION_STYLE_IDS, type PlanInput } from '../../src/core/set.ts';
import { sampleListing } from '../support/fixtures.ts';

// The listing names seven features; the four screens show the last four of them.
const UNSHOWN = ['Sync across all your devices', 'Export your data to CSV files', 'Split shared costs with friends'];
const SHOWN = [
  { title: 'Receipts', rows: ['Coffee shop $4.50', 'Hardware store $37'], line: 'Scan receipts with your camera' },
  { title: 'Goals', rows: ['New laptop 60%', 'Holiday fund 25%'], line: 'Save toward goals with progress bars' },
  { title: 'Reports', rows: ['Spending this month', 'Top categories'], line: 'See reports of where your money goes' },
  { title: 'Bills', rows: ['Phone bill due Friday', 'Internet due in 5 days'], line: 'Pay bills before they are due' },
];
const listing = sampleListing({
  name: 'Penny Wise',
  category: 'Finance',
  subtitle: 'Take control of your money',
  description: [...UNSHOWN, ...SHOWN.map((f) => f.line)].map((l) => `• ${l}`).join('\n'),
  screenshots: { ...sampleListing().screenshots, iphone: [] },
});
// Read in an upload order that is not the listing's, each with a status bar and a tab bar.
const screenTexts = [2, 0, 3, 1].map((k) => ({
  screenId: SHOWN[k].title,
  text: ['9:41', SHOWN[k].title, ...SHOWN[k].rows, 'Home', 'Search', 'Settings'],
}));
const input = (over: Partial<PlanInput> & Pick<PlanInput, 'request'>): PlanInput => ({
  listings: [listing],
  extraContext: null,
  uploadedScreens: 4,
  ...over,
});

/** The features a caption says: those whose line's opening words ("Get reminders") it holds. */
const said = (text: string, features: string[]) =>
  features.filter((line) => text.toLowerCase().includes(line.toLowerCase().split(' ').slice(0, 2).join(' ')));

describe('the rule writer says the features the screens show', () => {
  for (const captionStyle of CAPTION_STYLE_IDS)
    for (const captionLength of CAPTION_LENGTH_IDS)
      it(`${captionStyle}/${captionLength}: each non-hero slide says one screen's feature, over that screen`, () => {
        const r = planScreenshotSet(input({ screenTexts, request: { device: 'iphone-69', count: 4, captionStyle, captionLength } }));
        const slides = r.slides.filter((s) => s.role !== 'hero');
        expect(slides).toHaveLength(3);
        for (const s of slides) {
          const text = `${s.headline} ${s.subheadline ?? ''}`;
          const lines = said(
            text,
            SHOWN.map((f) => f.line),
          );
          expect(lines, text).toHaveLength(1);
          expect(said(text, UNSHOWN), text).toEqual([]);
          expect(s.screenId, text).toBe(SHOWN.find((f) => f.line === lines[0])!.title);
        }
        expect(r.warnings.filter((w) => /names nothing its screen/.test(w))).toEqual([]);
      });

  it('screens not read keep the listing order', () => {
    const request = { device: 'iphone-69', count: 4 } as const;
    const unread = screenTexts.map((s) => ({ ...s, text: null }));
    const plain = planScreenshotSet(input({ request }));
    const withUnread = planScreenshotSet(input({ request, screenTexts: unread }));
    expect(withUnread.slides.map((s) => s.headline)).toEqual(plain.slides.map((s) => s.headline));
    // The listing's first features, as before: not the screens'.
    expect(plain.slides.some((s) => said(s.headline, UNSHOWN).length > 0)).toBe(true);
  });
});
