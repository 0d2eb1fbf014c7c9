/**
 * The set as a shopper first meets it: one search result of the App Store (or Google Play) on a
 * phone, drawn at the phone's real pixel size, so the slides appear at the size the store shows
 * them and a headline that cannot be read there is seen not to be readable.
 *
 * Sizes, in points of a 393 pt wide iPhone (drawn at 3×, 1179 px): a 20 pt margin, a 64 pt icon
 * beside the name and subtitle, and under them three portrait screenshots side by side with an
 * 8 pt gap (~112 pt wide each), corner radius 10 pt. Google Play's result on a 412 dp phone (at
 * 2.625×, 1081 px) shows the icon, name and developer, and three screenshots the same way. A
 * landscape slide takes the whole row alone, as both stores show it.
 */
import type { Image, SKRSContext2D } from '@napi-rs/canvas';
import { skia } from './canvas.ts';
import sharp from 'sharp';
import type { BrandPalette } from '../brand/palette.ts';
import { canvasFor, drawIcon, encodeRgb, iconImage, roundRect, wrapLines } from './brand-draw.ts';
import type { BrandFontId } from '../core/themes.ts';
import { fontString, useBrandFont } from './fonts.ts';

export type PreviewStore = 'app-store' | 'google-play';

/** The slides a search result shows: the first three portrait ones (a landscape one alone). */
export const PREVIEW_SLIDES = 3;

export const PREVIEW_SCREENS: Record<
  PreviewStore,
  { widthPt: number; scale: number; margin: number; icon: number; gap: number; radius: number }
> = {
  'app-store': { widthPt: 393, scale: 3, margin: 20, icon: 64, gap: 8, radius: 10 },
  'google-play': { widthPt: 412, scale: 2.625, margin: 16, icon: 56, gap: 8, radius: 8 },
};

export interface StorePreviewInput {
  store: PreviewStore;
  name: string;
  /** The line under the name: the App Store subtitle or category, Play's developer. */
  subtitle: string;
  palette: BrandPalette;
  icon: Buffer | null;
  /** The set's rendered slides, in order: the first three are shown. */
  slides: Buffer[];
  /** The brand kit's font: the initial of an app without an icon; absent: Noto Sans. */
  font?: BrandFontId;
}

/** The pixel width of a slide in the store's search result: what the preview draws it at. */
export function thumbnailWidth(store: PreviewStore, landscape: boolean): number {
  const s = PREVIEW_SCREENS[store];
  const row = s.widthPt - 2 * s.margin;
  return Math.round((landscape ? row : (row - 2 * s.gap) / 3) * s.scale);
}

async function thumbnails(slides: Buffer[], width: number): Promise<{ image: Image; width: number; height: number }[]> {
  return Promise.all(
    slides.map(async (png) => {
      // sharp's Lanczos shrink: what the store's image service does, not canvas's bilinear draw.
      const { data, info } = await sharp(png).resize({ width }).png({ compressionLevel: 1 }).toBuffer({ resolveWithObject: true });
      return { image: await skia().loadImage(data), width: info.width, height: info.height };
    }),
  );
}

function button(ctx: SKRSContext2D, store: PreviewStore, right: number, midY: number, k: number): void {
  const label = store === 'app-store' ? 'Get' : 'Install';
  ctx.font = fontString(700, 15 * k, label);
  const w = Math.max(74 * k, ctx.measureText(label).width + 32 * k);
  const h = 30 * k;
  ctx.fillStyle = store === 'app-store' ? '#EEF0F4' : '#01875F';
  roundRect(ctx, right - w, midY - h / 2, w, h, h / 2);
  ctx.fill();
  ctx.fillStyle = store === 'app-store' ? '#0A7AFF' : '#FFFFFF';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(label, right - w / 2, midY);
}

export async function renderStorePreview(input: StorePreviewInput): Promise<Buffer> {
  const s = PREVIEW_SCREENS[input.store];
  const k = s.scale;
  const W = Math.round(s.widthPt * k);
  const margin = s.margin * k;
  const first = await sharp(input.slides[0]).metadata();
  const landscape = (first.width ?? 1) > (first.height ?? 1);
  const shown = input.slides.slice(0, landscape ? 1 : PREVIEW_SLIDES);
  const thumbs = await thumbnails(shown, thumbnailWidth(input.store, landscape));
  const rowHeight = Math.max(...thumbs.map((t) => t.height));
  const headHeight = s.icon * k;
  const H = Math.round(margin + headHeight + 14 * k + rowHeight + margin);
  const { canvas, ctx } = canvasFor(W, H, [input.name, input.subtitle]);

  ctx.fillStyle = '#FFFFFF';
  ctx.fillRect(0, 0, W, H);
  const iconSize = s.icon * k;
  // A hairline around the icon, as both stores draw one on a white page.
  ctx.fillStyle = '#0000001A';
  roundRect(ctx, margin - k / 2, margin - k / 2, iconSize + k, iconSize + k, iconSize * 0.225);
  ctx.fill();
  // The store's own words (name, subtitle, button) stay in its system sans; only the app's mark is the brand's.
  useBrandFont(ctx, input.font);
  drawIcon(ctx, await iconImage(input.icon), margin, margin, iconSize, {
    name: input.name,
    color: input.palette.primary,
    textColor: input.palette.textColor,
  });
  useBrandFont(ctx, null);

  const textX = margin + iconSize + 12 * k;
  const buttonRoom = 92 * k;
  const maxWidth = W - margin - buttonRoom - textX;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'alphabetic';
  ctx.fillStyle = '#111111';
  ctx.font = fontString(700, 17 * k, input.name);
  const nameLines = wrapLines(ctx, input.name, maxWidth, 2);
  let y = margin + (headHeight - (nameLines.length * 21 + 18) * k) / 2;
  for (const line of nameLines) {
    y += 21 * k;
    ctx.fillText(line, textX, y - 4 * k);
  }
  ctx.fillStyle = '#6B7280';
  ctx.font = fontString(400, 13 * k, input.subtitle);
  ctx.fillText(wrapLines(ctx, input.subtitle, maxWidth, 1)[0] ?? '', textX, y + 14 * k);
  button(ctx, input.store, W - margin, margin + headHeight / 2, k);

  let x = margin;
  const top = margin + headHeight + 14 * k;
  for (const t of thumbs) {
    ctx.save();
    roundRect(ctx, x, top, t.width, t.height, s.radius * k);
    ctx.clip();
    ctx.drawImage(t.image, x, top, t.width, t.height);
    ctx.restore();
    ctx.strokeStyle = '#0000001F';
    ctx.lineWidth = k / 2;
    roundRect(ctx, x, top, t.width, t.height, s.radius * k);
    ctx.stroke();
    x += t.width + s.gap * k;
  }
  return encodeRgb(canvas.data(), W, H);
}
