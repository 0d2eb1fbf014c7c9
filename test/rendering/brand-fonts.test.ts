/**
 * The brand kit's font is the one drawn: a headline's ink matches the family drawn directly and not
 * Noto Sans; other scripts keep their Noto family; the set's fit measures with it, so no headline
 * takes more lines than the renderer allows.
 */
import { createCanvas } from '@napi-rs/canvas';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { BRAND_FONT_IDS, BRAND_FONTS, type BrandFontId } from '../../src/core/themes.ts';
import { fallbackPalette } from '../../src/brand/palette.ts';
import { composeRaw } from '../../src/rendering/compose.ts';
import { renderFeatureGraphic } from '../../src/rendering/feature-graphic.ts';
import { registerFontsFor, setFont, useBrandFont } from '../../src/rendering/fonts.ts';
import { fitSet, scaleOf } from '../../src/rendering/layout.ts';
import { RenderPool } from '../../src/rendering/pool.ts';
import { HEADLINE_LINE_HEIGHT, MAX_LINES, measurer } from '../../src/rendering/text.ts';
import type { SetMetrics, SlideLook } from '../../src/rendering/types.ts';
import { DEVICES, type Device } from '../../src/core/devices.ts';
import { captionFit } from '../../src/sets/revisions/caption-fit.ts';
import { slide } from './support.ts';

const DEVICE: Device = 'iphone-69';
const NEW_FONTS = BRAND_FONT_IDS.filter((f) => f !== 'noto-sans');
const look = (headline: string): SlideLook => ({
  headline,
  subheadline: null,
  layout: 'headline-top',
  background: { colors: ['#1E1B4B', '#1E1B4B'] },
  textColor: '#FFFFFF',
});

async function raw(headline: string, metrics: SetMetrics, font?: BrandFontId) {
  registerFontsFor([headline]);
  return composeRaw({ kind: 'slide', index: 0, device: DEVICE, slide: look(headline), screen: null, metrics, panorama: null, font });
}

/** The headline's ink: where the slide differs from the same slide without a headline; and the slide. */
async function ink(headline: string, metrics: SetMetrics, font?: BrandFontId) {
  const a = await raw(headline, metrics, font);
  const b = await raw(' ', metrics, font);
  const mask = new Uint8Array(a.width * a.height);
  for (let i = 0; i < mask.length; i++) {
    const d = Math.abs(a.data[4 * i] - b.data[4 * i]) + Math.abs(a.data[4 * i + 1] - b.data[4 * i + 1]);
    mask[i] = d > 150 ? 1 : 0;
  }
  return { mask, lines: a.lint.lines.headline, drawn: a };
}

/** The same lines drawn directly with one family, where drawLines puts a headline-top slide's. */
function reference(lines: string[], family: string, size: number): Uint8Array {
  const { width, height } = DEVICES[DEVICE];
  const ctx = createCanvas(width, height).getContext('2d');
  ctx.fillStyle = '#000000';
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = '#FFFFFF';
  ctx.font = `bold ${size}px "${family}"`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  const top = scaleOf(DEVICE).padTop;
  lines.forEach((line, k) => ctx.fillText(line, width / 2, top + size * HEADLINE_LINE_HEIGHT * (k + 0.5)));
  const data = ctx.getImageData(0, 0, width, height).data;
  const mask = new Uint8Array(width * height);
  for (let i = 0; i < mask.length; i++) mask[i] = data[4 * i] > 75 ? 1 : 0;
  return mask;
}

const iou = (a: Uint8Array, b: Uint8Array) => {
  let both = 0;
  let either = 0;
  for (let i = 0; i < a.length; i++) {
    both += a[i] & b[i];
    either += a[i] | b[i];
  }
  return both / either;
};

const metricsFor = (headline: string, font?: BrandFontId): SetMetrics => {
  const ctx = createCanvas(1, 1).getContext('2d');
  useBrandFont(ctx, font);
  return fitSet(ctx, DEVICE, [look(headline)]);
};

describe('a brand font draws the headline', () => {
  const headline = 'Budget Every Week Gracefully';
  it.each(NEW_FONTS)('%s: the ink is that family drawn directly, not Noto Sans', async (font) => {
    registerFontsFor([headline]);
    const m = metricsFor(headline, font);
    const { mask, lines } = await ink(headline, m, font);
    const own = iou(mask, reference(lines, BRAND_FONTS[font].family, m.headlineSizes[0]));
    const noto = iou(mask, reference(lines, 'sg-latin', m.headlineSizes[0]));
    expect(own).toBeGreaterThan(0.85);
    expect(noto).toBeLessThan(own - 0.15);
  });

  it('noto-sans, and no font, draw what the renderer drew before brand fonts: Noto Sans', async () => {
    const m = metricsFor(headline);
    const none = await ink(headline, m);
    expect(iou(none.mask, reference(none.lines, 'sg-latin', m.headlineSizes[0]))).toBeGreaterThan(0.85);
    const named = await raw(headline, m, 'noto-sans');
    expect(Buffer.compare(named.data, none.drawn.data)).toBe(0);
  });

  it('Playfair Display is a display face: regular text stays in Noto Sans, bold text is Playfair', () => {
    const ctx = createCanvas(1, 1).getContext('2d');
    useBrandFont(ctx, 'playfair-display');
    setFont(ctx, 400, 40, 'Sub');
    expect(ctx.font).not.toContain('sg-brand-playfair');
    setFont(ctx, 700, 40, 'Head');
    expect(ctx.font).toContain('"sg-brand-playfair", "sg-latin"');
    useBrandFont(ctx, 'inter');
    setFont(ctx, 400, 40, 'Sub');
    expect(ctx.font).toContain('"sg-brand-inter", "sg-latin"');
  });
});

describe('other scripts keep their Noto family under a brand font', () => {
  // Every font's Korean slide is compared with the same one without a brand font: drawn once,
  // and let go after the file (the module stays loaded for the worker's later files).
  const word = '가계부정리';
  let withoutBrand: ReturnType<typeof raw> | null = null;
  afterAll(() => {
    withoutBrand = null;
  });
  it.each(NEW_FONTS)('%s: a Korean word is drawn by Noto Sans KR, pixel for pixel as without a brand font', async (font) => {
    const m = metricsFor(word);
    withoutBrand ??= raw(word, m);
    expect(Buffer.compare((await raw(word, m, font)).data, (await withoutBrand).data)).toBe(0);
  });

  it('Korean breaks only between words, every glyph drawn', async () => {
    const text = '영수증만 찍으면 가계부 끝 지출 분석까지 자동으로 정리';
    const m = metricsFor(text, 'poppins');
    const r = await raw(text, m, 'poppins');
    expect(r.lint.lines.headline.length).toBeGreaterThan(1);
    expect(r.lint.lines.headline.join(' ')).toBe(text);
    expect(r.lint.missingGlyphs).toEqual([]);
  });

  it('Hindi under Poppins (which has Devanagari) is drawn by Noto Sans Devanagari, as without a brand font', async () => {
    const text = 'हर आदत एक टैप में';
    const m = metricsFor(text);
    expect(Buffer.compare((await raw(text, m, 'poppins')).data, (await raw(text, m)).data)).toBe(0);
  });

  it('refuses a font the kit cannot name', () => {
    expect(() => useBrandFont(createCanvas(1, 1).getContext('2d'), 'comic-sans' as BrandFontId)).toThrow(/unknown brand font/);
  });
});

describe("the set's fit measures with the brand font", () => {
  const pool = new RenderPool({ threads: 1 });
  afterAll(() => pool.close());
  // Headlines nearly as long as the renderer takes at its largest size in Noto Sans: three lines
  // four-fifths full (on an iPad the largest size is also the least, 8 % of the width: a wider
  // brand font has no smaller size to go to).
  const longest = (device: Device): string[] => {
    const words = 'Plan your meals with a weekly menu and shopping list made for your family'.split(' ');
    const ctx = createCanvas(1, 1).getContext('2d');
    const sc = scaleOf(device);
    const size = fitSet(ctx, device, [look('Hi')]).headlineSizes[0];
    const width = measurer(ctx, 700, size, words.join(' '));
    const out: string[] = [];
    for (let start = 0; start < 4; start++) {
      let text = words[start];
      for (const w of [...words.slice(start + 1), ...words]) {
        if (width(`${text} ${w}`) > sc.textWidth * MAX_LINES * 0.8) break;
        text = `${text} ${w}`;
      }
      out.push(text);
    }
    return out;
  };

  it.each(['iphone-69', 'android-phone', 'ipad-13'] as Device[])(
    '%s: no headline over MAX_LINES lines in any brand font',
    async (device) => {
      const headlines = longest(device);
      const slides = headlines.map((h, i) => slide(i, h, 'headline-top', { screenshotUrl: null }));
      for (const font of BRAND_FONT_IDS) {
        // The files a quarter of the device's size: the slides are still laid out and drawn at its
        // size (the lint's lines are those), only the PNGs are small; encoding full-size ones was
        // half of this test's time.
        const { width, height } = DEVICES[device];
        const size = { width: Math.round(width / 4), height: Math.round(height / 4) };
        const set = await pool.renderSlides({ device, slides, screens: slides.map(() => null), font, size });
        for (const [i, s] of set.entries()) {
          const lines = s.lint.lines.headline;
          expect(lines.length, `${font}: ${headlines[i]}`).toBeLessThanOrEqual(MAX_LINES);
          expect(lines.join(' ')).toBe(headlines[i]);
        }
      }
    },
    120_000,
  );
});

describe('the feature graphic', () => {
  it.each(NEW_FONTS)('%s: draws the name and headline in the brand font', async (font) => {
    const input = { name: 'Leaf Budget', headline: 'See Where Your Money Grows', palette: fallbackPalette('Leaf Budget'), icon: null };
    const [plain, noto, branded] = await Promise.all([
      renderFeatureGraphic(input),
      renderFeatureGraphic({ ...input, font: 'noto-sans' }),
      renderFeatureGraphic({ ...input, font }),
    ]);
    const pixels = (png: Buffer) => sharp(png).raw().toBuffer();
    expect(Buffer.compare(await pixels(noto), await pixels(plain))).toBe(0);
    expect(Buffer.compare(await pixels(branded), await pixels(plain))).not.toBe(0);
  });
});

describe("the editor's fit check", () => {
  it('measures with the set’s brand font: a headline that just fits in Noto Sans does not in Poppins', () => {
    const words = 'Plan your meals with a weekly menu and shopping list made for your whole family'.split(' ');
    let text = '';
    for (const w of [...words, ...words, ...words, ...words]) {
      const next = text ? `${text} ${w}` : w;
      if (!captionFit(DEVICE, next, null).headline.fits) break;
      text = next;
    }
    expect(captionFit(DEVICE, text, null).headline.fits).toBe(true);
    expect(captionFit(DEVICE, text, null, 'noto-sans').headline.fits).toBe(true);
    expect(captionFit(DEVICE, text, null, 'poppins').headline.fits).toBe(false);
  });
});
