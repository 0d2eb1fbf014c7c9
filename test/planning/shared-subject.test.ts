/**
 * A list item cut from a clause whose subject is someone else (recordings read,
 * docs/reads/2026-11-29-recordings.md, "Top 5 patterns" 3): "…when neighbours like and | share your
 * photos" said alone tells the reader to share. Look-alike sentences written for this test.
 */
import { describe, expect, it } from 'vitest';
import { cutPhrase } from '../../src/captions/checker/cut.ts';
import { sentenceWords } from '../../src/captions/checker/sentences.ts';

const sentences = sentenceWords([
  'Get a ping when neighbours like and share your garden photos.',
  'Hear a chime whenever teammates edit or comment on your boards.',
  'See friends and share your photos.',
  'Tap a song, and play it offline.',
  'Get a note when you finish and share your progress.',
]);
const cut = (text: string) => cutPhrase(text, sentences, new Set());

describe('a verb whose subject is someone else is not the reader’s action', () => {
  it.each([
    ['Share your garden photos', 'whose subject is "neighbours"'],
    ['Comment on your boards', 'whose subject is "teammates"'],
  ])('"%s" is a cut', (caption, why) => {
    expect(cut(caption) ?? '').toContain(why);
  });

  it.each(['Share your photos', 'Share your progress'])('"%s" keeps the reader as its subject', (caption) => {
    expect(cut(caption) ?? '').not.toContain('whose subject is');
  });
});

describe('a preposition’s noun is no subject', () => {
  const own = sentenceWords(['Save your brushes as presets and apply them to any canvas.', 'Read before bedtime and wake up rested.']);
  it.each(['Apply them to any canvas', 'Wake up rested'])('"%s" is no one else’s action', (caption) => {
    expect(
      cutPhrase(caption, own, new Set(), caption.startsWith('Apply') ? 'Save your brushes as presets' : 'Read before bedtime') ?? '',
    ).not.toContain('whose subject is');
  });
});
