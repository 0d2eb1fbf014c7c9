/** The planning tiers' voice × length rotation (./support/every-voice.ts) reaches what it says it does. */
import { describe, expect, it } from 'vitest';
import { CAPTION_LENGTH_IDS, CAPTION_STYLE_IDS } from '../../src/core/set.ts';
import { everyVoice } from './support/every-voice.ts';

const pair = (t: { captionStyle: string; captionLength: string }) => `${t.captionStyle}/${t.captionLength}`;
const ALL = CAPTION_STYLE_IDS.flatMap((s) => CAPTION_LENGTH_IDS.map((l) => `${s}/${l}`));

describe('everyVoice', () => {
  it('plans every item, in distinct pairs, and every voice × length among them, for any number of items', () => {
    for (let n = 1; n <= 40; n++)
      for (const per of [undefined, 1, 2, 3]) {
        const items = Array.from({ length: n }, (_, i) => `item${i}`);
        const turns = everyVoice(items, { per, full: false });
        const at = `${n} items, per ${per}`;
        for (const [i, item] of items.entries()) {
          const own = turns.filter((t) => t.item === item);
          expect(own.length, at).toBeGreaterThan(0);
          expect(
            own.every((t) => t.index === i),
            at,
          ).toBe(true);
          expect(new Set(own.map(pair)).size, at).toBe(own.length);
          if (own.length <= CAPTION_STYLE_IDS.length) expect(new Set(own.map((t) => t.captionStyle)).size, at).toBe(own.length);
        }
        expect(new Set(turns.map(pair)), at).toEqual(new Set(ALL));
        // Small: no more turns than reaching every item and every pair takes.
        expect(turns.length, at).toBe(n * Math.max(per ?? 1, Math.ceil(ALL.length / n)));
      }
  });

  it('plans the whole product in full, and one length alone in every voice', () => {
    const full = everyVoice(['a', 'b', 'c'], { full: true });
    expect(full.map((t) => `${t.item} ${pair(t)}`).sort()).toEqual(['a', 'b', 'c'].flatMap((i) => ALL.map((p) => `${i} ${p}`)).sort());
    const long = everyVoice(['a', 'b', 'c', 'd', 'e', 'f', 'g'], { lengths: ['long'], full: false });
    expect(long).toHaveLength(7);
    expect(new Set(long.map((t) => t.captionStyle))).toEqual(new Set(CAPTION_STYLE_IDS));
    expect(long.every((t) => t.captionLength === 'long')).toBe(true);
  });

  it('refuses axes whose rotation would miss pairs', () => {
    expect(() => everyVoice(['a'], { voices: ['bold', 'minimal'], lengths: ['short', 'long'] })).toThrow(/share a factor/);
  });
});
