/**
 * A renderer for tests that care about what is asked to be drawn, not the drawing: it answers
 * each slide with the picture `draw` gives and the lint a plain store-valid PNG has.
 */
import sharp from 'sharp';
import type { RenderInput, RenderPool, RenderedSlide } from '../../src/rendering/index.ts';

export function fakeRenderer(draw: (input: RenderInput) => Buffer[]): Pick<RenderPool, 'renderSlides' | 'renderSome'> {
  const renderSlides = async (input: RenderInput): Promise<RenderedSlide[]> =>
    Promise.all(
      draw(input).map(async (bytes) => {
        const meta = await sharp(bytes).metadata();
        return {
          bytes,
          format: 'png' as const,
          lint: {
            width: meta.width ?? 0,
            height: meta.height ?? 0,
            alpha: meta.hasAlpha ?? false,
            bytes: bytes.length,
            format: 'png' as const,
            lines: { headline: [], subheadline: [] },
            missingGlyphs: [],
            minFontPx: 0,
            minFontThumbnailPt: 5,
            contrast: 21,
            screenCroppedPct: null,
            screenUpscaledPct: null,
            marketingImage: null,
            problems: [],
          },
        };
      }),
    );
  return {
    renderSlides,
    renderSome: async (input: RenderInput, indices: number[]) => {
      const all = await renderSlides(input);
      return new Map(indices.map((i) => [i, all[i]]));
    },
  };
}
