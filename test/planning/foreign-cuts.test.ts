/**
 * Sixth read, shape 2: cuts the cut rules missed outside English, and one English participle. On
 * look-alikes: the checker finds each (so the model path is judged by the same rule), and the rule
 * writer no longer writes them; the whole phrase, and the phrase stopped where it ends, still pass.
 */
import { describe, expect, it } from 'vitest';
import { checkCaptions } from '../../src/captions/checker/check.ts';
import { understand } from '../../src/captions/understand.ts';
import { writeCaptions } from '../../src/captions/rules/writer.ts';
import { CAPTION_LENGTH_IDS, CAPTION_STYLE_IDS, type CaptionLength, type CaptionStyle } from '../../src/core/set.ts';
import type { Listing } from '../../src/core/listing.ts';
import { devicesFor } from './corpus/measure.ts';
import { lookAlike } from './look-alike.ts';

const patisserie = lookAlike({
  name: 'Petit Four',
  genre: 'Cuisine et boissons',
  subtitle: null,
  country: 'fr',
  description: [
    'Petit Four vous aide à réussir vos desserts sans stress.',
    '• Des centaines de gâteaux validés par des pâtissiers',
    '• Le minuteur intégré pour ne rien brûler',
    '• Vos listes de courses partagées',
  ],
});
const laufen = lookAlike({
  name: 'Laufwerk',
  genre: 'Gesundheit und Fitness',
  subtitle: null,
  country: 'de',
  description: ['Laufwerk plant deine Läufe für die ganze Woche.', '• Strecken und Zeiten im Auge behalten', '• Über 100 Intervallpläne'],
});
const words = lookAlike({
  name: 'Wordly',
  genre: 'Games',
  subtitle: null,
  description: ['Wordly is a word game for quiet evenings.', 'Play 5,000 crosswords graded by difficulty.', 'Learn new words every day.'],
});

function cutOf(l: Listing, style: CaptionStyle, length: CaptionLength, headline: string, sub: string | null = null): string {
  const [found] = checkCaptions([{ headline, subheadline: sub, role: 'feature' }], {
    listings: [l],
    extraContext: null,
    device: devicesFor(l)[0],
    captionLength: length,
    captionStyle: style,
  });
  return found
    .filter((f) => f.id === 'cut')
    .map((f) => f.message)
    .join('\n');
}

describe('the checker finds the cuts (sixth read, shape 2)', () => {
  it.each([
    [patisserie, 'bold', 'long', 'DES CENTAINES DE GÂTEAUX VALIDÉS.', null, 'before who does it'],
    [patisserie, 'minimal', 'short', 'Le minuteur intégré', null, 'what it is for'],
    [laufen, 'professional', 'long', 'Strecken und Zeiten.', 'Im Auge behalten.', 'at its verb'],
    [words, 'professional', 'short', 'Play 5,000 crosswords graded.', null, 'stops after "graded"'],
  ] as const)('%#: "%s"', (l, style, length, headline, sub, why) => {
    expect(cutOf(l, style, length, headline, sub)).toContain(why);
  });

  it.each([
    [patisserie, 'bold', 'short', 'DES CENTAINES DE GÂTEAUX.'],
    [patisserie, 'playful', 'long', 'Des centaines de gâteaux validés par des pâtissiers !'],
    [patisserie, 'minimal', 'long', 'Le minuteur intégré pour ne rien brûler'],
    [laufen, 'professional', 'long', 'Strecken und Zeiten im Auge behalten.'],
    [words, 'professional', 'short', 'Play 5,000 crosswords.'],
  ] as const)('%#: "%s" passes', (l, style, length, headline) => {
    expect(cutOf(l, style, length, headline)).toBe('');
  });
});

describe('the rule writer no longer writes them', () => {
  it('no voice or length writes a cut the checker finds', () => {
    const cut: string[] = [];
    for (const l of [patisserie, laufen, words]) {
      const u = understand([l], l, null);
      for (const style of CAPTION_STYLE_IDS)
        for (const length of CAPTION_LENGTH_IDS)
          for (const c of writeCaptions(u, ['hero', 'feature', 'feature', 'feature', 'call-to-action'], style, length))
            if (c) {
              const why = cutOf(l, style, length, c.headline, c.subheadline);
              if (why) cut.push(`${style}/${length} ${c.headline} // ${c.subheadline ?? ''}: ${why}`);
            }
    }
    expect(cut).toEqual([]);
  });
});

describe('a participle whose agent its own subheadline names is not cut', () => {
  it('"… validés. // … par des pâtissiers." passes; the headline alone does not', () => {
    expect(cutOf(patisserie, 'professional', 'long', 'Des centaines de gâteaux validés.', 'Chacun a été goûté par des pâtissiers.')).toBe('');
    expect(cutOf(patisserie, 'professional', 'long', 'Des centaines de gâteaux validés.')).toContain('before who does it');
  });
});
