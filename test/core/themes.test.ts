/**
 * Themes are data: one record per theme in THEMES, and no code outside src/core/themes.ts decides by
 * a theme's name (it reads the record: background, text, ornament, screen, headline, across the set).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_THEME, PANORAMA_THEME, THEME_IDS, THEMES, themeFor, type ThemeId } from '../../src/core/themes.ts';
import { ANY_HEX } from '../../src/core/colour.ts';

const SRC = path.resolve(import.meta.dirname, '../../src');

describe('THEMES', () => {
  it('has one record per theme id, each with its own name', () => {
    expect(Object.keys(THEMES).sort()).toEqual([...THEME_IDS].sort());
    expect(new Set(THEME_IDS.map((t) => THEMES[t].name)).size).toBe(THEME_IDS.length);
    expect(THEME_IDS).toContain(DEFAULT_THEME);
  });

  it('holds colours the renderer can draw and weights it has fonts for', () => {
    for (const t of THEME_IDS) {
      const { background, text, headline } = THEMES[t];
      if (background.kind === 'fixed') for (const c of background.stops) expect(c).toMatch(ANY_HEX);
      if (text !== 'legible') expect(text.fixed).toMatch(ANY_HEX);
      expect([700, 900]).toContain(headline.weight);
      expect(headline.size).toBeGreaterThan(0);
      expect(headline.size).toBeLessThan(0.2);
    }
  });

  it('draws a set forced into a panorama with a theme that draws across the set', () => {
    expect(THEMES[PANORAMA_THEME].acrossSet).toBe(true);
    expect(THEMES[PANORAMA_THEME].ornament).toBe('ribbon');
  });

  it('gives the default theme for none, and for an id no longer known (an old stored request)', () => {
    expect(themeFor(undefined)).toBe(THEMES[DEFAULT_THEME]);
    expect(themeFor('sepia' as ThemeId)).toBe(THEMES[DEFAULT_THEME]);
    expect(themeFor('dark')).toBe(THEMES.dark);
  });

  it('is read, never asked for by name, outside src/core/themes.ts', () => {
    const files = (readdirSync(SRC, { recursive: true }) as string[])
      .filter((f) => f.endsWith('.ts'))
      .map((f) => f.split(path.sep).join('/'));
    const ids = THEME_IDS.map((t) => t.replace('-', '\\-')).join('|');
    // A theme id compared with, switched on, or (for the two ids that are no common word) written at all.
    const byName = new RegExp(`[!=]==\\s*'(${ids})'|'(${ids})'\\s*[!=]==|case '(${ids})'|'(panoramic|full-bleed)'`);
    const found = files
      .filter((f) => f !== 'core/themes.ts')
      .flatMap((f) =>
        readFileSync(path.join(SRC, f), 'utf8')
          .split('\n')
          .map((line, i) => ({ where: `${f}:${i + 1}`, line }))
          // A caption style is called bold too.
          .filter(({ line }) => byName.test(line) && !/captionStyle/.test(line)),
      );
    expect(found).toEqual([]);
  });
});
