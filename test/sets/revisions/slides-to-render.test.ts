/**
 * Which slides a revision draws again: a theme that draws across the set (THEMES[…].acrossSet)
 * redraws a slide that moved, since its slice of the background moved with it; any other theme
 * copies it.
 */
import { describe, expect, it } from 'vitest';
import type { ThemeId } from '../../../src/core/themes.ts';
import { slidesToRender } from '../../../src/sets/revisions/revision-runner.ts';
import type { StoredRevision } from '../../../src/sets/revisions/types.ts';
import { slide } from '../../rendering/support.ts';

const before = [
  slide(0, 'Track Every Habit', 'hero-centered'),
  slide(1, 'Smart Reminders', 'headline-top'),
  slide(2, 'Charts', 'headline-bottom'),
];
const rev = (theme: ThemeId, sources: number[]) => ({ theme, parentTheme: theme, sources }) as unknown as StoredRevision;
const moved = (theme: ThemeId, sources: number[]) =>
  slidesToRender(
    'iphone-69',
    before,
    sources.map((s) => before[s - 1]),
    rev(theme, sources),
  );

describe('slidesToRender', () => {
  it('in a panorama, redraws the slides that moved', () => {
    expect(moved('panoramic', [1, 3, 2])).toEqual({ indices: [1, 2], wholeSet: null });
  });

  it.each(['bold', 'soft', 'dark', 'full-bleed'] as const)('with %s, copies a slide that only moved', (theme) => {
    expect(moved(theme, [1, 3, 2])).toEqual({ indices: [], wholeSet: null });
  });
});

describe('slidesToRender, the cover', () => {
  // Every feature's product yields to the cover's (src/rendering/cover-lead.ts).
  it('redraws the whole set when the cover says something else', () => {
    const after = [{ ...before[0], headline: 'Track Each Habit' }, before[1], before[2]];
    expect(slidesToRender('iphone-69', before, after, rev('soft', [1, 2, 3])).wholeSet).toMatch(/cover/);
  });

  it('not when only a feature does', () => {
    const after = [before[0], { ...before[1], headline: 'Smart Alerts' }, before[2]];
    expect(slidesToRender('iphone-69', before, after, rev('soft', [1, 2, 3]))).toEqual({ indices: [1], wholeSet: null });
  });
});
