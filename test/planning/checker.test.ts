import { describe, expect, it } from 'vitest';
import { checkCaptions, type CaptionToCheck, type CheckContext } from '../../src/captions/checker/check.ts';
import { habitly, paid } from './listings.ts';

const ctx = (over: Partial<CheckContext> = {}): CheckContext => ({
  listings: [{ ...habitly, description: `${habitly.description}\nAlso from us: Sleepwell Sounds.` }],
  extraContext: null,
  device: 'iphone-69',
  captionLength: 'short',
  captionStyle: 'aso-expert',
  ...over,
});
const ids = (headline: string, c: Partial<CaptionToCheck> = {}, x: Partial<CheckContext> = {}) =>
  checkCaptions([{ headline, subheadline: null, role: 'feature', ...c }], ctx(x))[0].map((f) => f.id);

describe('the caption checker', () => {
  it('passes a grounded, finished, fitting caption', () => {
    expect(ids('Track Unlimited Habits')).toEqual([]);
  });

  it('counts the app’s name as generic even when the listing has it on a line of its own', () => {
    const named = { ...habitly, name: 'Where Am I? - GeoGuess Game', description: `GeoGuess Game\n${habitly.description}` };
    expect(ids('GeoGuess Game', { role: 'hero' }, { listings: [named] })).toContain('generic');
    // A listing line with words beyond the name is the developer's own and says something.
    const own = { ...habitly, description: `Habitly for busy parents\n${habitly.description}` };
    expect(ids('Habitly for Busy Parents', { role: 'hero' }, { listings: [own] })).not.toContain('generic');
  });

  it('measures fit as rendered: thirty wide letters do not fit where thirty narrow ones do', () => {
    expect(ids('WWWWWWWWWW WWWWWWWWW WWWWWWWWW')).toContain('fits');
    expect(ids('iiiiiiiiii iiiiiiiii iiiiiiiii')).not.toContain('fits');
    expect(ids('Track Unlimited Habits Every Day Now')).toContain('fits');
  });

  it.each([
    ['complete', 'Track Unlimited Habits and'],
    ['complete', 'Smart Reminders That…'],
    ['grounded', 'Rated 4.9 by 2M Users'],
    ['grounded', 'Award-Winning Habit Coach'],
    ['policy.price', 'Only $4.99 a Month'],
    ['policy.platform', 'Also on Android Phones'],
    ['policy.review', 'Rate Us Five Stars Today'],
    ['policy.other-app', 'Sleep Better With Sleepwell Sounds'],
    ['policy.hidden', 'Track\u200B Habits'],
    ['policy.hidden', 'Track H\u0430bits'],
    ['policy.hidden', 'Track Habits\u{E0041}\u{E0042}'],
    ['language', 'Verfolge deine Ziele mit dem Plan'],
  ])('finds %s in "%s"', (id, headline) => {
    expect(ids(headline)).toContain(id);
  });

  it('refuses a headline opening on a pronoun that refers to nothing; under a headline it has one', () => {
    expect(ids('It Keeps Your Habits on Track')).toContain('complete');
    expect(ids('They Remind You Every Day')).toContain('complete');
    expect(ids('Its Charts Show Your Streaks')).toContain('complete');
    expect(ids('Track Unlimited Habits')).not.toContain('complete');
    const long = { captionLength: 'long' as const };
    expect(ids('Smart Reminders', { subheadline: 'They adapt to your schedule.' }, long)).toEqual([]);
  });

  it('says free only of a free app', () => {
    expect(ids('Free Habit Tracker')).not.toContain('policy.free');
    expect(ids('Free Budget Reports', {}, { listings: [paid] })).toContain('policy.free');
  });

  it('refuses an echo, a repeat and a template of the name alone; each finding is on its slide', () => {
    const found = checkCaptions(
      [
        { headline: 'Habitly: Habit Tracker', subheadline: 'Build better habits daily.', role: 'hero' },
        { headline: 'Smart Reminders', subheadline: 'Smart reminders that adapt to your schedule.', role: 'feature' },
        { headline: 'Build Better Habits Daily', subheadline: 'Track unlimited habits with a single tap.', role: 'feature' },
      ],
      ctx({ captionLength: 'long' }),
    ).map((f) => f.map((x) => x.id));
    expect(found[0]).toEqual(['generic', 'value-first']);
    expect(found[1]).toContain('echo');
    expect(found[2]).toContain('repeat');
  });

  it.each([
    ['style', 'Track Habits • Daily', 'aso-expert'],
    ['style', 'TRACK YOUR HABITS DAILY', 'minimal'],
    ['tone', 'Tired of Broken Streaks', 'aso-expert'],
    ['tone', 'Still Forgetting Habits?', 'aso-expert'],
  ] as const)('finds %s in "%s" (%s)', (id, headline, captionStyle) => {
    expect(ids(headline, {}, { captionStyle })).toContain(id);
  });

  it('lets the bold voice shout and a problem slide complain', () => {
    expect(ids('TRACK YOUR HABITS DAILY', {}, { captionStyle: 'bold' })).not.toContain('style');
    expect(ids('Tired of Broken Streaks', { role: 'problem' })).not.toContain('tone');
  });

  it('spells the listing’s brands as it does', () => {
    const listings = [{ ...habitly, description: `${habitly.description}\nSyncs through iCloud.` }];
    expect(ids('Sync Through Icloud', {}, { listings })).toContain('style');
    expect(ids('Sync Through iCloud', {}, { listings })).not.toContain('style');
  });

  it('asks one feature a slide, and the value of the first three slides', () => {
    const set = (captions: CaptionToCheck[]) => checkCaptions(captions, ctx()).map((f) => f.map((x) => x.id));
    expect(ids('Track habits, share streaks and export charts')).toContain('one-feature');
    expect(ids('Track habits, share streaks and export charts', { role: 'hero' })).not.toContain('one-feature');
    const again = set([
      { headline: 'Track Unlimited Habits', subheadline: null, role: 'feature' },
      { headline: 'Unlimited Habits Tracked Daily', subheadline: null, role: 'feature' },
    ]);
    expect(again[1]).toContain('one-feature');
    // Only the opening slides must carry the value; later, a name-only headline is "generic" alone.
    const late = set([
      { headline: 'Track Unlimited Habits', subheadline: null, role: 'hero' },
      { headline: 'Smart Reminders', subheadline: null, role: 'feature' },
      { headline: 'Home Screen Widgets', subheadline: null, role: 'feature' },
      { headline: 'Habitly: Habit Tracker', subheadline: null, role: 'feature' },
      { headline: 'Get Habitly', subheadline: null, role: 'call-to-action' },
    ]);
    expect(late[3]).toEqual(['generic']);
    expect(late[4]).toEqual([]);
    expect(set([{ headline: 'Get Habitly', subheadline: null, role: 'call-to-action' }])[0]).toEqual(['value-first']);
    // The ask closing a three-slide set does not open it (fifth read, doodle: "GET DOODLE KIDS NOW." warned so).
    const three = set([
      { headline: 'Track Unlimited Habits', subheadline: null, role: 'hero' },
      { headline: '4.8 Stars on Average', subheadline: null, role: 'social-proof' },
      { headline: 'Get Habitly', subheadline: null, role: 'call-to-action' },
    ]);
    expect(three[2]).toEqual([]);
    // A writer checking slide 5 alone says where it stands.
    expect(ids('Habitly: Habit Tracker', { index: 5 })).toEqual(['generic']);
  });

  it('checks a translation in its own language', () => {
    const de = (headline: string) => checkCaptions([{ headline, subheadline: null, role: 'feature' }], ctx({ locale: 'de-DE' }))[0];
    expect(de('Gewohnheiten schnell erfassen')).toEqual([]);
    expect(de('Track your habits with one tap').map((f) => f.id)).toContain('language');
    expect(
      checkCaptions([{ headline: 'Track Habits', subheadline: null, role: 'feature' }], ctx({ locale: 'ja-JP' }))[0].map((f) => f.id),
    ).toContain('language');
  });
});
