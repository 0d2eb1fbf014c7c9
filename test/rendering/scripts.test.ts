/**
 * Every script draws real glyphs: each grapheme of a sample, drawn with the renderer's font list,
 * must differ from the .notdef box (tofu) and leave ink; emoji must be in colour; right-to-left
 * text must come out in visual order.
 */
import { createCanvas } from '@napi-rs/canvas';
import pixelmatch from 'pixelmatch';
import { beforeAll, describe, expect, it } from 'vitest';
import { composeRaw } from '../../src/rendering/compose.ts';
import { familiesFor, FONT_SOURCES, fontFiles, fontString, registerFonts } from '../../src/rendering/fonts.ts';
import { coverage } from '../../src/rendering/cmap.ts';
import { fitSet, posterBlock, scaleOf } from '../../src/rendering/layout.ts';
import { slide } from './support.ts';

export const SAMPLES: Record<string, string> = {
  Latin: 'Quick brown fox, déjà vu · Straße',
  Cyrillic: 'Привет, мир! Ёжик',
  Greek: 'Γειά σου κόσμε',
  Japanese: '日本語のテキスト、カタカナ',
  Korean: '한국어 텍스트입니다',
  'Simplified Chinese': '简体中文测试这个应用',
  'Traditional Chinese': '繁體中文測試這個應用',
  Arabic: 'مرحبا بالعالم',
  Hebrew: 'שלום עולם',
  Devanagari: 'नमस्ते दुनिया क्षत्रिय',
  Thai: 'สวัสดีชาวโลก',
  Emoji: '😀🚀👍🏽❤️🇫🇷👩‍💻',
};

const SIZE = 64;
const BOX = 160;

function draw(text: string, font: string): Uint8ClampedArray {
  const c = createCanvas(BOX, BOX);
  const ctx = c.getContext('2d');
  ctx.fillStyle = '#FFFFFF';
  ctx.fillRect(0, 0, BOX, BOX);
  ctx.fillStyle = '#000000';
  ctx.font = font;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(text, BOX / 2, BOX / 2);
  return ctx.getImageData(0, 0, BOX, BOX).data;
}

const ink = (px: Uint8ClampedArray) => {
  let n = 0;
  for (let i = 0; i < px.length; i += 4) if (px[i] < 128 || px[i + 1] < 128 || px[i + 2] < 128) n++;
  return n;
};

let maps: ((cp: number) => boolean)[] = [];
beforeAll(() => {
  registerFonts();
  maps = FONT_SOURCES.flatMap((src) => fontFiles(src).map(coverage));
});

describe('no tofu in any script', () => {
  it.each(Object.entries(SAMPLES))('%s draws a real glyph for every grapheme', (_, sample) => {
    const font = fontString(700, SIZE, sample);
    // A private-use code point no font here maps: what a missing glyph looks like (.notdef).
    const tofu = draw('\u{F0000}', font);
    expect(ink(tofu)).toBeGreaterThan(0);
    const graphemes = [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(sample)]
      .map((s) => s.segment)
      .filter((g) => /\S/u.test(g) && !/^[,.!·、]$/u.test(g));
    const bad = graphemes.filter((g) => {
      const px = draw(g, font);
      return ink(px) === 0 || pixelmatch(px, tofu, undefined, BOX, BOX, { threshold: 0.05 }) < 20;
    });
    expect(bad).toEqual([]);
  });

  it.each(Object.entries(SAMPLES))("%s is covered by the renderer's own fonts, not by a system font", (_, sample) => {
    // Joiners, variation selectors and tag characters have no glyph of their own.
    const noGlyph = (cp: number) => cp === 0x200d || cp === 0xfe0f || (cp >= 0xe0020 && cp <= 0xe007f);
    const missing = [...sample].filter(
      (ch) => /\S/u.test(ch) && !noGlyph(ch.codePointAt(0)!) && !maps.some((has) => has(ch.codePointAt(0)!)),
    );
    expect(missing).toEqual([]);
  });

  it('the coverage check sees a code point no font maps', () => {
    expect(maps.some((has) => has(0xf0000))).toBe(false);
    expect(maps.some((has) => has('ส'.codePointAt(0)!))).toBe(true);
  });

  it('draws emoji in colour (COLRv1), not as black outlines', () => {
    const px = draw('😀🚀', fontString(700, SIZE, '😀🚀'));
    let coloured = 0;
    for (let i = 0; i < px.length; i += 4)
      if (Math.max(px[i], px[i + 1], px[i + 2]) - Math.min(px[i], px[i + 1], px[i + 2]) > 80) coloured++;
    expect(coloured).toBeGreaterThan(500);
  });

  it('draws a Latin caption’s ★ ✓ → from the symbols fonts whatever CJK fonts a thread has registered', () => {
    // The CJK fonts map these symbols too; listed for every text, they drew a rating slide's ★ from
    // Noto Sans JP on a thread that had drawn Japanese before, from Noto Sans Symbols elsewhere.
    const latin = familiesFor('Rated 4.8★ ✓ No ads → Just habits');
    expect(latin.filter((f) => ['sg-jp', 'sg-kr', 'sg-sc', 'sg-tc'].includes(f))).toEqual([]);
    expect(latin).toContain('sg-symbols2');
    expect(familiesFor('「今日」★')).toContain('sg-jp');
    expect(familiesFor('全角！')).toContain('sg-sc');
  });

  it('draws Han characters in the variant their text is written in', () => {
    expect(familiesFor('日本語のテキスト').indexOf('sg-jp')).toBeLessThan(familiesFor('日本語のテキスト').indexOf('sg-sc'));
    expect(familiesFor('繁體中文測試').indexOf('sg-tc')).toBeLessThan(familiesFor('繁體中文測試').indexOf('sg-sc'));
    expect(familiesFor('简体中文测试').indexOf('sg-sc')).toBeLessThan(familiesFor('简体中文测试').indexOf('sg-tc'));
    expect(familiesFor('한국어 漢字').indexOf('sg-kr')).toBeLessThan(familiesFor('한국어 漢字').indexOf('sg-sc'));
    // 直 differs visibly between the Japanese and the Chinese designs of the glyph.
    expect(
      pixelmatch(draw('直', fontString(700, SIZE, 'かな直')), draw('直', fontString(700, SIZE, '直')), undefined, BOX, BOX, {
        threshold: 0.05,
      }),
    ).toBeGreaterThan(20);
  });
});

/** Dark pixels per column of a region: where glyphs sit along the line, whatever their height. */
function columns(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number, x0: number, n: number): number[] {
  const out = new Array<number>(n).fill(0);
  for (let y = 0; y < height; y++) for (let x = 0; x < n; x++) if (rgba[(y * width + x0 + x) * 4] < 128) out[x]++;
  return out;
}

/** 0 for the same ink profile, 1 for nothing in common. */
function profileDistance(a: number[], b: number[]): number {
  const sum = (xs: number[]) => xs.reduce((s, v) => s + v, 0);
  return a.reduce((s, v, i) => s + Math.abs(v - b[i]), 0) / (sum(a) + sum(b));
}

describe('right-to-left headlines', () => {
  it('puts the first (Hebrew) word at the right and the Latin word at the left of the line', async () => {
    const device = 'android-phone';
    const s = slide(0, 'שלום Hello', 'text-only', { background: { colors: ['#FFFFFF', '#FFFFFF'] }, textColor: '#000000' });
    const metrics = fitSet(createCanvas(1, 1).getContext('2d'), device, [s]);
    const raw = await composeRaw({ kind: 'slide', index: 0, device, slide: s, screen: null, metrics, panorama: null });
    const { width } = scaleOf(device);
    // A slide without a screen is a poster, in the set's type.
    const size = posterBlock(createCanvas(1, 1).getContext('2d'), s, metrics, scaleOf(device)).headlineSize;
    const font = fontString(700, size, s.headline);
    const m = createCanvas(1, 1).getContext('2d');
    m.font = font;
    const total = m.measureText(s.headline).width;
    const left = Math.round(width / 2 - total / 2);
    const wordAlone = (word: string, w: number) => {
      const c = createCanvas(w, size * 2);
      const ctx = c.getContext('2d');
      ctx.fillStyle = '#FFFFFF';
      ctx.fillRect(0, 0, w, c.height);
      ctx.fillStyle = '#000000';
      ctx.font = font;
      ctx.direction = /\p{Script=Hebrew}/u.test(word) ? 'rtl' : 'ltr';
      ctx.textAlign = 'left';
      ctx.textBaseline = 'middle';
      ctx.fillText(word, 0, size);
      return columns(ctx.getImageData(0, 0, w, c.height).data, w, c.height, 0, w);
    };
    const hello = Math.ceil(m.measureText('Hello').width);
    const shalom = Math.ceil(m.measureText('שלום').width);
    const atLeft = columns(raw.data, raw.width, raw.height, left, hello);
    const atRight = columns(raw.data, raw.width, raw.height, left + Math.round(total) - shalom, shalom);
    expect(profileDistance(atLeft, wordAlone('Hello', hello))).toBeLessThan(0.15);
    expect(profileDistance(atRight, wordAlone('שלום', shalom))).toBeLessThan(0.15);
    // The check can fail: the Latin word's profile does not match what the right end holds.
    expect(
      profileDistance(columns(raw.data, raw.width, raw.height, left + Math.round(total) - hello, hello), wordAlone('Hello', hello)),
    ).toBeGreaterThan(0.3);
  });
});
