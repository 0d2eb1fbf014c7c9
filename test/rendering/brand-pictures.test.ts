/** The feature graphic and the store preview on their own: sizes, no alpha, every case drawn. */
import { writeFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { fallbackPalette } from '../../src/brand/palette.ts';
import { renderFeatureGraphic } from '../../src/rendering/feature-graphic.ts';
import { renderStorePreview, thumbnailWidth } from '../../src/rendering/store-preview.ts';

const palette = fallbackPalette('Pantry Planner');
const keep = (name: string, png: Buffer) => process.env.PICTURES_OUT && writeFileSync(`${process.env.PICTURES_OUT}/${name}`, png);

async function rgb(png: Buffer) {
  const m = await sharp(png).metadata();
  return { width: m.width, height: m.height, channels: m.channels, hasAlpha: m.hasAlpha };
}

describe('feature graphic', () => {
  it('is 1024×500 RGB whatever the text and without an icon: a long headline, Korean, a broken icon', async () => {
    const cases = [
      {
        name: 'Pantry Planner',
        headline: 'Plan every meal of the week, build the shopping list and share it with your whole family',
        icon: null,
      },
      { name: '가계부 - 영수증 스캔', headline: '영수증만 찍으면 가계부 끝', icon: Buffer.from('not an image') },
      {
        name: 'دفتر الميزانية',
        headline: 'خطط لميزانيتك في دقائق',
        icon: await sharp({ create: { width: 64, height: 64, channels: 4, background: '#ff000080' } })
          .png()
          .toBuffer(),
      },
    ];
    for (const [i, c] of cases.entries()) {
      const png = await renderFeatureGraphic({ ...c, palette });
      keep(`feature-graphic-${i}.png`, png);
      expect(await rgb(png)).toEqual({ width: 1024, height: 500, channels: 3, hasAlpha: false });
    }
  });
});

describe('store preview', () => {
  const slide = (w: number, h: number) =>
    sharp({ create: { width: w, height: h, channels: 3, background: '#335' } })
      .png()
      .toBuffer();

  it('shows three portrait slides at their thumbnail width, or one landscape slide across the row', async () => {
    const portrait = await renderStorePreview({
      store: 'app-store',
      name: 'Pantry Planner',
      subtitle: 'Meal plans',
      palette,
      icon: null,
      slides: await Promise.all([1, 2, 3, 4].map(() => slide(1320, 2868))),
    });
    expect(await rgb(portrait)).toEqual({
      width: 1179,
      height: 60 + 192 + 42 + Math.round((337 * 2868) / 1320) + 60,
      channels: 3,
      hasAlpha: false,
    });
    const landscape = await renderStorePreview({
      store: 'google-play',
      name: 'Pantry Planner',
      subtitle: 'Pantry Labs',
      palette,
      icon: null,
      slides: [await slide(1920, 1080), await slide(1920, 1080)],
    });
    keep('store-preview-landscape.png', landscape);
    const w = thumbnailWidth('google-play', true);
    expect(w).toBe(Math.round((412 - 32) * 2.625));
    const m = await rgb(landscape);
    expect(m.width).toBe(1082);
    expect(m.height).toBe(Math.round(42 + 147 + 36.75 + Math.round((w * 1080) / 1920) + 42));
  });
});
