import { createCanvas } from '@napi-rs/canvas';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerFonts } from '../../src/rendering/fonts.ts';
import { DEVICE_IDS } from '../../src/core/devices.ts';
import { fitSet, MIN_HEADLINE_RATIO, MIN_LEGIBLE_PT, scaleOf, textBlock, THUMBNAIL_PT, typeScale } from '../../src/rendering/layout.ts';
import {
  balance,
  breakPieces,
  directionOf,
  linesAt,
  MAX_LINES,
  NO_LINE_END,
  NO_LINE_START,
  wrap,
  wrapByGrapheme,
} from '../../src/rendering/text.ts';
import { slide } from './support.ts';

beforeAll(() => registerFonts());
const ctx = () => createCanvas(1, 1).getContext('2d');
const pieces = (t: string) => breakPieces(t).map((p) => p.piece);

describe('break opportunities', () => {
  it('breaks after spaces and between CJK characters, never inside a Latin word', () => {
    expect(pieces('Hello world, again')).toEqual(['Hello ', 'world, ', 'again']);
    expect(pieces('Hello 日本').length).toBe(2);
  });

  it('keeps a hyphenated word whole when a half would be too short to stand alone', () => {
    expect(pieces('Check the In-Stock Button')).toEqual(['Check ', 'the ', 'In-Stock ', 'Button']);
    expect(pieces('No Sign-In Required')).toEqual(['No ', 'Sign-In ', 'Required']);
    expect(pieces('Plan long-distance trips')).toEqual(['Plan ', 'long-', 'distance ', 'trips']);
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

describe('headline sizes across the set', () => {
  const long = 'A Much Longer Headline That Needs Several Lines To Fit On The Slide';
  const set = [
    slide(0, long, 'headline-top', {
      subheadline: 'With a subheadline that is long enough to wrap onto more than one line',
    }),
    slide(1, 'Medium length headline here', 'headline-top'),
    slide(2, 'Hi', 'hero-centered'),
    slide(3, 'Short one', 'headline-top'),
    slide(4, 'Tiny', 'text-only'),
  ];

  it.each(['iphone-69', 'ipad-13', 'android-phone'] as const)(
    '%s: one headline size for the set, the largest at which every headline fits',
    (device) => {
      const c = ctx();
      const m = fitSet(c, device, set);
      const sc = scaleOf(device);
      const { max, min, subMin } = typeScale(sc, undefined);
      expect(new Set(m.headlineSizes).size).toBe(1);
      const size = m.headlineSizes[0];
      expect(size).toBeGreaterThanOrEqual(min);
      expect(size).toBeLessThanOrEqual(max);
      const fitsAll = (px: number) =>
        set.every((s) => {
          const w = linesAt(c, s.headline, 700, px, sc.textWidth);
          return w.fits && w.lines.length <= MAX_LINES;
        });
      // A headline too long to fit in three lines even at the least size runs on at that size.
      expect(fitsAll(size) || size === min).toBe(true);
      // One pixel larger, some headline would not fit (unless the theme's size is reached).
      if (size < max) expect(fitsAll(size + 1)).toBe(false);
      expect(m.subSize).toBeGreaterThanOrEqual(subMin);
      expect(size / m.subSize).toBeGreaterThanOrEqual(MIN_HEADLINE_RATIO);
      expect(m.blockHeight).toBe(Math.max(...set.map((s, i) => textBlock(c, s, m.headlineSizes[i], m.subSize, sc).height)));
    },
  );

  it.each(DEVICE_IDS)('%s: no subheadline below 5 pt at the store’s search-result thumbnail', (device) => {
    const c = ctx();
    const sc = scaleOf(device);
    // A subheadline of the longest kind a user may write: it runs to more lines rather than shrink.
    const subheadline = 'Plan meals, share shopping lists with the whole family, track what is in the fridge and waste less food '
      .repeat(1)
      .slice(0, 140);
    const m = fitSet(c, device, [slide(0, 'Headline', 'headline-top', { subheadline })]);
    const thumbnailPt = (m.subSize * THUMBNAIL_PT) / sc.base;
    expect(thumbnailPt).toBeGreaterThanOrEqual(MIN_LEGIBLE_PT);
    expect(MIN_LEGIBLE_PT).toBe(5);
  });

  it('never lets a line run past the margins, even with a word longer than the box', () => {
    const c = ctx();
    const long = [slide(0, 'Supercalifragilisticexpialidocious-Internationalization', 'headline-top')];
    const m = fitSet(c, 'android-phone', long);
    const sc = scaleOf('android-phone');
    const block = textBlock(c, long[0], m.headlineSizes[0], m.subSize, sc);
    c.font = `bold ${m.headlineSizes[0]}px "sg-latin"`;
    for (const line of block.headline) expect(c.measureText(line).width).toBeLessThanOrEqual(sc.textWidth);
    expect(block.headline.join('').replace(/\s/g, '')).toBe(long[0].headline);
  });
});

describe('Korean keep-all and Japanese/Chinese kinsoku', () => {
  const measure = (s: string) => [...s].length;

  it('breaks Korean only between words, never inside one', () => {
    expect(pieces('영수증만 찍으면 가계부 끝')).toEqual(['영수증만 ', '찍으면 ', '가계부 ', '끝']);
    expect(wrap('영수증만 찍으면 가계부 끝', 6, measure).lines).toEqual(['영수증만', '찍으면', '가계부 끝']);
    // Even too narrow a box does not split a word in the greedy fill: the size shrinks instead.
    expect(wrap('영수증만 찍으면', 3, measure).fits).toBe(false);
  });

  it('opens no line with 、。」 and closes none with 「', () => {
    const text = '「今日の予定」を、すぐに確認。毎日「習慣」が続く。';
    for (const width of [3, 4, 5, 6, 7, 8]) {
      const { lines } = wrap(text, width, measure);
      expect(lines.join('')).toBe(text);
      for (const line of lines) {
        expect(NO_LINE_START.has([...line][0]), `${width}: ${lines.join(' / ')}`).toBe(false);
        expect(NO_LINE_END.has([...line].at(-1)!), `${width}: ${lines.join(' / ')}`).toBe(false);
      }
    }
  });

  it('keeps kinsoku even when a word is cut between characters', () => {
    const lines = wrapByGrapheme('あいう。えお「かき」', 3, measure);
    for (const line of lines) {
      expect(NO_LINE_START.has([...line][0])).toBe(false);
      expect(NO_LINE_END.has([...line].at(-1)!)).toBe(false);
    }
  });
});
