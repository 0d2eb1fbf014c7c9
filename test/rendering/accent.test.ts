/**
 * The brand's accent (issue 30, item 4): which word of a headline it marks, and how each theme
 * draws it, with contrast looked at only where text sits.
 */
import { describe, expect, it } from 'vitest';
import { contrastRatio } from '../../src/core/colour.ts';
import { THEME_IDS, THEMES } from '../../src/core/themes.ts';
import { accentOf, keyWord } from '../../src/rendering/accent.ts';
import { lookOf } from '../../src/rendering/themes.ts';

const PURPLE_AMBER = { primary: '#6B2FBF', secondary: '#4C1D95', accent: '#FFB300' };
const slide = { headline: 'Track Unlimited Habits', subheadline: null, layout: 'headline-top', background: { colors: [] }, textColor: '' };

describe('the key word', () => {
  it("is the longest word the slide's keywords name (stems too), else the longest word that is no minor word", () => {
    expect(keyWord('Track Unlimited Habits', ['habit', 'unlimited'])).toBe('Unlimited');
    expect(keyWord('Build Better Habits Daily', ['habit'])).toBe('Habits');
    expect(keyWord('Share Your Progress')).toBe('Progress');
    expect(keyWord('All in One')).toBeNull();
    expect(keyWord('Eat Up', ['eat'])).toBeNull();
  });
});

describe('the accent per theme', () => {
  it('draws one treatment per theme; the word always reads where text sits', () => {
    for (const theme of THEME_IDS) {
      const look = lookOf(theme, slide, PURPLE_AMBER);
      const accent = accentOf(theme, PURPLE_AMBER, look.text, look.stops)!;
      expect(accent, theme).not.toBeNull();
      const style = THEMES[theme].accent;
      if (style === 'marker') {
        // The word sits on the accent: its colour reaches AA there.
        expect(contrastRatio(accent.ink, accent.color)).toBeGreaterThanOrEqual(4.5);
        expect(accent.color).toBe('#FFB300');
      } else if (style === 'swash') {
        expect(contrastRatio(look.text, accent.color)).toBeGreaterThanOrEqual(4.5);
        expect(accent.ink).toBe(look.text);
      } else {
        // Amber on purple reads as large text: the word itself is amber.
        expect(accent, theme).toMatchObject({ style: 'word', color: '#FFB300', ink: '#FFB300' });
        for (const stop of look.stops) expect(contrastRatio(accent.color, stop)).toBeGreaterThanOrEqual(3);
      }
    }
  });

  it("keeps a kit's accent as it is: where it would not read as text it becomes an underline; a derived one moves to read", () => {
    const pale = { primary: '#F5F3FF', secondary: '#EDE9FE', accent: '#FDE68A' };
    const look = lookOf('full-bleed', slide, pale);
    expect(accentOf('full-bleed', pale, look.text, look.stops)).toMatchObject({ style: 'underline', color: '#FDE68A', ink: look.text });
    const derived = accentOf('full-bleed', { primary: '#0E9F6E', secondary: '#1E429F' }, '#FFFFFF', ['#0E9F6E', '#1E429F'])!;
    expect(derived.style).toBe('word');
    expect(Math.min(contrastRatio(derived.color, '#0E9F6E'), contrastRatio(derived.color, '#1E429F'))).toBeGreaterThanOrEqual(3);
    expect(accentOf('soft', undefined, '#111827', ['#FFFFFF', '#EEEEEE'])).toBeNull();
  });
});
