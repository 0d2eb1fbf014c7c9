/**
 * npm run docs:themes: the themes' tables in README.md ("Brand and themes") and docs/brand.md
 * ("Themes"), written from THEMES (src/core/themes.ts) between their markers, so what the docs say
 * a theme does is what the renderer reads (test/docs-themes.test.ts compares the committed files
 * with what this renders).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DEFAULT_THEME, THEME_IDS, THEMES, type Theme, type ThemeId } from '../src/core/themes.ts';

export const BEGIN = '<!-- themes: written by `npm run docs:themes` from THEMES (src/core/themes.ts); do not edit -->';
export const END = '<!-- /themes -->';

const pct = (n: number) => `${Math.round(n * 100)} %`;
const code = (s: string) => `\`${s}\``;

function background(t: Theme): string {
  const b = t.background;
  if (b.kind === 'fixed') return `${b.stops.map(code).join(' to ')}, whatever the brand`;
  const colours = b.colours === 'primary' ? "the brand's primary colour, flat" : "the brand's primary to its secondary";
  const tint = b.towardWhite ? `, mixed toward white (${b.towardWhite.map(pct).join(', ')})` : '';
  const planned = b.planned ? "; without brand colours, the slide's planned colours" : '';
  return colours + tint + planned;
}

const text = (t: Theme): string =>
  t.text === 'legible' ? "the slide's own when it reaches AA (planned colours only), else white or ink" : code(t.text.fixed);

const ORNAMENTS: Record<NonNullable<Theme['ornament']>, string> = {
  glow: 'a glow of the primary colour behind the device',
  ribbon: 'a ribbon and a disc on every seam, half on each slide, toned away from the text',
};
const ornament = (t: Theme): string => (t.ornament ? ORNAMENTS[t.ornament] : 'nothing');

const screen = (t: Theme): string =>
  t.screen === 'framed'
    ? "in its device's frame, where the slide's layout puts it"
    : 'without a frame, under the text, bleeding off the bottom edge when taller than the room (a landscape one stood upright, turned in its place; a slide without its screen becomes a text slide)';

const product = (t: Theme): string => `hero ${pct(t.product.hero)}, features ${pct(t.product.feature)}`;

const headline = (t: Theme): string => `${t.headline.size} × base, weight ${t.headline.weight}`;
const acrossSet = (t: Theme): string => (t.acrossSet ? 'yes: slide i shows its slice of one wide background' : 'no');

const ACCENTS: Record<Theme['accent'], string> = {
  marker: 'a block of the accent behind the key word, the word in white or ink, whichever reads on it',
  swash: 'a highlighter stroke of the accent under the key word (moved in lightness until the text reads on it)',
  word: 'the key word in the accent where it reads at 3:1, else an underline of the accent',
};

const named = (id: ThemeId) => `${code(id)}${id === DEFAULT_THEME ? ' (default)' : ''}`;

/** docs/brand.md: every property of every theme. */
export function themeTable(): string {
  const rows = THEME_IDS.map((id) => {
    const t = THEMES[id];
    return `| ${[named(id), t.name, background(t), text(t), ACCENTS[t.accent], ornament(t), screen(t), product(t), headline(t), acrossSet(t)].join(' | ')} |`;
  });
  return [
    "| theme | name | background | text | accent | over the background | screen | product: share of the slide's width | headline: top size, weight | across the set |",
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

/** README.md: one line per theme, what sets it apart. */
export function themeList(): string {
  return THEME_IDS.map((id) => {
    const t = THEMES[id];
    const apart = [
      background(t),
      t.ornament ? ORNAMENTS[t.ornament] : '',
      t.screen === 'bleed' ? `the screen ${screen(t)}` : '',
      t.headline.weight === 900 ? `Black headlines up to ${t.headline.size} × the slide's base` : '',
      t.acrossSet ? 'one background across the set' : '',
    ].filter(Boolean);
    return `- ${named(id)}: ${apart.join('; ')}.`;
  }).join('\n');
}

/** `text` with the part between the markers replaced by `generated`; throws when the markers are missing. */
export function withGenerated(text: string, generated: string): string {
  const from = text.indexOf(BEGIN);
  const to = text.indexOf(END, from);
  if (from < 0 || to < 0) throw new Error(`the themes' markers are missing (${BEGIN} … ${END})`);
  return `${text.slice(0, from + BEGIN.length)}\n${generated}\n${text.slice(to)}`;
}

/** The files the tables are written into, each with its table. */
export const TARGETS: { file: string; render: () => string }[] = [
  { file: 'README.md', render: themeList },
  { file: 'docs/brand.md', render: themeTable },
];

const ROOT = new URL('../', import.meta.url);
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const { file, render } of TARGETS) {
    const target = fileURLToPath(new URL(file, ROOT));
    writeFileSync(target, withGenerated(readFileSync(target, 'utf8'), render()));
    console.log(`wrote ${target}`);
  }
}
