import { createCanvas } from '@napi-rs/canvas';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerFonts } from '../../src/rendering/fonts.ts';
import { fitSet, scaleOf, textBlock } from '../../src/rendering/layout.ts';
import { balance, breakPieces, directionOf, linesAt, MAX_LINES, wrap } from '../../src/rendering/text.ts';
import { slide } from './support.ts';

beforeAll(() => registerFonts());
const ctx = () => createCanvas(1, 1).getContext('2d');
const pieces = (t: string) => breakPieces(t).map((p) => p.piece);

describe('break opportunities', () => {
  it('breaks after spaces and between CJK characters, never inside a Latin word', () => {
    expect(pieces('Hello world, again')).toEqual(['Hello ', 'world, ', 'again']);
    expect(pieces('Hello 日本').length).toBe(2);
  });

  it('breaks Chinese and Japanese between words, not inside them', () => {
    const ja = pieces('家族で買い物リストを共有');
    expect(ja.join('')).toBe('家族で買い物リストを共有');
    expect(ja.some((p) => p.includes('リスト'))).toBe(true);
    expect(ja.length).toBeGreaterThan(2);
    const zh = pieces('简体中文测试这个应用');
    expect(zh.length).toBeGreaterThan(2);
    expect(zh.some((p) => p.includes('应用'))).toBe(true);
  });

  it('breaks Thai between dictionary words (UAX #14 alone would not)', () => {
    const p = pieces('สวัสดีชาวโลก');
    expect(p.length).toBeGreaterThan(1);
    expect(p.join('')).toBe('สวัสดีชาวโลก');
    expect(p).toContain('สวัสดี');
  });

  it('honours a hard line break', () => {
    expect(wrap('One\nTwo', 10_000, (s) => s.length).lines).toEqual(['One', 'Two']);
  });
});

describe('greedy fill', () => {
  it('fills each line as far as the width allows', () => {
    expect(wrap('aa bb cc dd', 5, (s) => s.length).lines).toEqual(['aa bb', 'cc dd']);
    expect(wrap('aaaaaaa bb', 5, (s) => s.length)).toEqual({ lines: ['aaaaaaa', 'bb'], fits: false });
  });
});

describe('balanced lines', () => {
  it('keeps the greedy line count but evens the lines out', () => {
    const measure = (s: string) => s.length;
    expect(wrap('Track every habit in one tap', 24, measure).lines).toEqual(['Track every habit in one', 'tap']);
    expect(balance('Track every habit in one tap', 24, measure)).toEqual(['Track every', 'habit in one tap']);
  });

  it('puts two sentences on two lines one each, when each fits', () => {
    const measure = (s: string) => s.length;
    expect(balance('UNLIMITED HABITS. TRACKED.', 20, measure)).toEqual(['UNLIMITED HABITS.', 'TRACKED.']);
    // A sentence wider than the line is wrapped as any text.
    expect(balance('UNLIMITED HABITS. TRACKED.', 16, measure)).toEqual(['UNLIMITED', 'HABITS. TRACKED.']);
  });
});

describe('direction', () => {
  it('follows the first strong character', () => {
    expect(directionOf('שלום Hello')).toBe('rtl');
    expect(directionOf('123 مرحبا')).toBe('rtl');
    expect(directionOf('Hello שלום')).toBe('ltr');
    expect(directionOf('😀 2024')).toBe('ltr');
  });
});

describe('one font size for the set', () => {
  const set = [
    slide(0, 'Hi', 'hero-centered'),
    slide(1, 'A Much Longer Headline That Needs Several Lines To Fit', 'headline-top', {
      subheadline: 'With a subheadline that is long enough to wrap onto more than one line',
    }),
    slide(2, 'Medium length headline here', 'text-only'),
  ];

  it.each(['iphone-69', 'ipad-pro', 'android-phone'] as const)(
    '%s: the largest size at which every headline fits in three lines',
    (device) => {
      const c = ctx();
      const m = fitSet(c, device, set);
      const sc = scaleOf(device);
      for (const s of set) {
        const w = linesAt(c, s.headline, 700, m.headlineSize, sc.textWidth);
        expect(w.fits).toBe(true);
        expect(w.lines.length).toBeLessThanOrEqual(MAX_LINES);
      }
      // One pixel larger, the longest headline no longer fits (or the size is the cap).
      const bigger = linesAt(c, set[1].headline, 700, m.headlineSize + 1, sc.textWidth);
      expect(bigger.lines.length > MAX_LINES || !bigger.fits || m.headlineSize === Math.round(sc.base * 0.09)).toBe(true);
      // The short headline alone would be drawn larger: the set shares the smaller size.
      const cap = Math.round(sc.base * 0.09);
      if (m.headlineSize < cap) expect(fitSet(c, device, [set[0]]).headlineSize).toBeGreaterThan(m.headlineSize);
      else expect(fitSet(c, device, [set[0]]).headlineSize).toBe(cap);
      expect(m.subSize).toBeLessThan(m.headlineSize);
      expect(m.blockHeight).toBe(Math.max(...set.map((s) => textBlock(c, s, m, sc).height)));
    },
  );

  it('never lets a line run past the margins, even with a word longer than the box', () => {
    const c = ctx();
    const long = [slide(0, 'Supercalifragilisticexpialidocious-Internationalization', 'headline-top')];
    const m = fitSet(c, 'android-phone', long);
    const sc = scaleOf('android-phone');
    const block = textBlock(c, long[0], m, sc);
    c.font = `bold ${m.headlineSize}px "sg-latin"`;
    for (const line of block.headline) expect(c.measureText(line).width).toBeLessThanOrEqual(sc.textWidth);
    expect(block.headline.join('').replace(/\s/g, '')).toBe(long[0].headline);
  });
});
