/** The themes' tables in README.md and docs/brand.md are what `npm run docs:themes` writes from THEMES. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { THEME_IDS, THEMES } from '../src/core/themes.ts';
import { BEGIN, END, TARGETS, themeTable, withGenerated } from '../scripts/theme-docs.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

describe('the themes in the docs', () => {
  it.each(TARGETS.map((t) => [t.file, t] as const))('%s is current: run `npm run docs:themes` after changing THEMES', (file, t) => {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    expect(text).toBe(withGenerated(text, t.render()));
  });

  it('lists every theme with what the renderer reads of it', () => {
    const table = themeTable();
    for (const id of THEME_IDS) expect(table).toContain(`| \`${id}\``);
    expect(table).toContain(`| ${THEMES['full-bleed'].name} |`);
    expect(table).toContain('0.126 × base, weight 900');
    expect(table).toContain('`#F5F7FA`');
  });

  it('refuses a file without its markers rather than write the table nowhere', () => {
    expect(() => withGenerated('# no markers', themeTable())).toThrow(/markers/);
    expect(withGenerated(`a\n${BEGIN}\nold\n${END}\nb`, 'new')).toBe(`a\n${BEGIN}\nnew\n${END}\nb`);
  });
});
