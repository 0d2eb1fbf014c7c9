/**
 * Sixth read, shape 1: a hero cut to the head of the store subtitle in short voices ("KANBAN
 * BOARDS." of "Kanban boards for your week") or split over headline and sub ("DEIN TRAININGSPLAN. //
 * Für zu Hause."). On look-alikes: the hero says the subtitle whole where it fits, else another line
 * whole, and a part of the subtitle only where that would lose a slide.
 */
import { describe, expect, it } from 'vitest';
import { understand } from '../../src/captions/understand.ts';
import { writeCaptions } from '../../src/captions/rules/writer.ts';
import { CAPTION_STYLE_IDS } from '../../src/core/set.ts';
import { lookAlike } from './look-alike.ts';

const shelf = lookAlike({
  name: 'Shelfwise',
  genre: 'Productivity',
  subtitle: 'Reading lists for your month',
  description: [
    'Shelfwise keeps the books you mean to read in one calm list.',
    '• Scan a cover to add a book',
    '• Track pages read each day',
    '• Share lists with friends',
    '• Notes and quotes sync with iCloud',
  ],
});
// Over the short limit (30) whole: a part of it is no hero while another line can be said.
const kraft = lookAlike({
  name: 'Hantelbank',
  genre: 'Gesundheit und Fitness',
  subtitle: 'Dein Kraftprogramm für unterwegs',
  country: 'de',
  description: [
    'Hantelbank stellt dir ein Programm zusammen, das in deine Woche passt.',
    '• Über 200 Übungen mit Videos',
    '• Einheiten von 15 bis 40 Minuten',
    '• Trainiere mit Gummibändern',
    '• Zeig deine Fortschritte',
  ],
});
const heroOf = (l: ReturnType<typeof lookAlike>, style: (typeof CAPTION_STYLE_IDS)[number], length: 'short' | 'long', after = 2) => {
  const u = understand([l], l, null);
  return writeCaptions(u, ['hero', ...Array<'feature'>(after).fill('feature'), 'call-to-action'], style, length)[0]!;
};

describe('a hero never says the subtitle cut to its head (sixth read, shape 1)', () => {
  it.each(CAPTION_STYLE_IDS)('%s/short: the subtitle that fits is said whole', (style) => {
    expect(heroOf(shelf, style, 'short').headline.toLowerCase()).toContain('reading lists for your month');
  });

  it.each(CAPTION_STYLE_IDS)('%s/long: the subtitle is never split over headline and sub', (style) => {
    const hero = heroOf(shelf, style, 'long');
    expect(hero.headline.toLowerCase()).toContain('for your month');
    expect((hero.subheadline ?? '').toLowerCase()).not.toMatch(/^for your month/);
  });

  it.each(CAPTION_STYLE_IDS)('%s/short: a subtitle over the limit gives way to a whole line, not its head', (style) => {
    const hero = heroOf(kraft, style, 'short').headline.toLowerCase();
    expect(hero).not.toMatch(/^dein kraftprogramm[.!]?$/);
    expect(hero).not.toMatch(/^für unterwegs/);
  });

  it('the head stays where the line said instead would leave a slide unwritten', () => {
    const u = understand([kraft], kraft, null);
    // Four features after the hero and four bullets: a bullet as the hero would leave the last one empty.
    const set = writeCaptions(u, ['hero', 'feature', 'feature', 'feature', 'feature', 'call-to-action'], 'professional', 'short');
    expect(set[0]!.headline.toLowerCase()).toMatch(/^dein kraftprogramm/);
  });
});
