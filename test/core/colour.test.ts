/** core/colour.ts, the one colour module the brand and the renderer share: WCAG figures and hex forms. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ANY_HEX, contrastRatio, DARK_TEXT, fromHex, LIGHT_TEXT, luminance, mix, textColorFor, toHex } from '../../src/core/colour.ts';

const hex = fc.integer({ min: 0, max: 0xffffff }).map((n) => `#${n.toString(16).padStart(6, '0').toUpperCase()}`);

describe('colour', () => {
  it('gives the WCAG 2 figures', () => {
    expect(luminance('#FFFFFF')).toBe(1);
    expect(luminance('#000000')).toBe(0);
    expect(contrastRatio('#FFFFFF', '#000000')).toBe(21);
    // The classic near miss: #777 on white is 4.48:1, under AA.
    expect(contrastRatio('#777777', '#FFFFFF')).toBeCloseTo(4.48, 2);
    expect(contrastRatio(DARK_TEXT, LIGHT_TEXT)).toBeCloseTo(17.74, 2);
  });

  it('reads #RGB and lower case as a plan file may hold them, the same as #RRGGBB', () => {
    expect(fromHex('#abc')).toEqual(fromHex('#AABBCC'));
    expect(fromHex('#0b5fff')).toEqual([11, 95, 255]);
    expect(luminance('#fff')).toBe(1);
    for (const c of ['#abc', '#ABCDEF', '#abcdef']) expect(ANY_HEX.test(c)).toBe(true);
    for (const c of ['abc', '#abcd', '#GGGGGG', '']) expect(ANY_HEX.test(c)).toBe(false);
  });

  it('mixes in sRGB, rounding each channel, as upper-case #RRGGBB', () => {
    expect(mix('#000000', '#FFFFFF', 0.5)).toBe('#808080');
    expect(mix('#4f46e5', '#FFFFFF', 0)).toBe('#4F46E5');
    expect(mix('#4F46E5', '#000000', 0.25)).toBe('#3B35AC');
    fc.assert(
      fc.property(hex, hex, (a, b) => {
        expect([mix(a, b, 0), mix(a, b, 1)]).toEqual([a, b]);
      }),
    );
    fc.assert(
      fc.property(hex, (a) => {
        expect(toHex(fromHex(a))).toBe(a);
      }),
    );
  });

  it('chooses white or ink by the worst contrast over every background, white on a tie', () => {
    expect(textColorFor(['#FDE047']).textColor).toBe(DARK_TEXT);
    expect(textColorFor(['#0B0D12', '#171B24']).textColor).toBe(LIGHT_TEXT);
    // A light and a dark end: the one that reads better on the worse end wins.
    const { textColor, contrast } = textColorFor(['#FFFFFF', '#1E429F']);
    expect(contrast).toBe(Math.min(contrastRatio('#FFFFFF', textColor), contrastRatio('#1E429F', textColor)));
  });
});
