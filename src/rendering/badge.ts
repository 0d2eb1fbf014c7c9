/**
 * The brand kit's icon badge: the app's icon as a sticker on the device's top corner, at one size
 * on every slide, large enough to be told apart where shoppers decide. Earlier it sat in the top
 * margin at 60 % of the margin's height: 95 px on a 6.9" slide, under 8 pt in a search result's
 * 110 pt-wide thumbnail, a speck. At 14 % of the slide's base width it is ~15 pt there and ~40 pt
 * on a product page, where an app's icon is recognised. A slide without a device (a text slide)
 * shows the icon large already and gets no badge.
 */
import type { Canvas, Image, SKRSContext2D } from '@napi-rs/canvas';
import type { Scale } from './layout.ts';

/** The badge's side, per pixel of the slide's base width. */
export const BADGE_SHARE = 0.14;

/** The badge's square on the slide, for the box of the device (frame or frameless screen) it sits on. */
export function badgeBox(sc: Scale, device: { x: number; y: number; width: number }): { x: number; y: number; size: number } {
  const size = Math.round(sc.base * BADGE_SHARE);
  const inset = Math.round(sc.margin * 0.5);
  // Over the device's top-right corner, a little more inside it than out; never past the slide's edge.
  const x = Math.min(Math.round(device.x + device.width - size * 0.72), sc.width - inset - size);
  const y = Math.max(Math.round(device.y - size * 0.28), inset);
  return { x, y, size };
}

export function drawBadge(ctx: SKRSContext2D, icon: Image | Canvas, sc: Scale, device: { x: number; y: number; width: number }): void {
  const { x, y, size } = badgeBox(sc, device);
  const radius = size * 0.225;
  const rim = Math.max(2, Math.round(size * 0.045));
  ctx.save();
  // Shadows ignore the transform: a preview's scale applies by hand.
  const k = ctx.getTransform().a;
  ctx.shadowColor = 'rgba(0, 0, 0, 0.30)';
  ctx.shadowBlur = size * 0.16 * k;
  ctx.shadowOffsetY = size * 0.05 * k;
  // A white rim lifts the icon off both the device and the background, whatever their colours.
  ctx.fillStyle = '#FFFFFF';
  ctx.beginPath();
  ctx.roundRect(x - rim, y - rim, size + 2 * rim, size + 2 * rim, radius + rim);
  ctx.fill();
  ctx.restore();
  ctx.save();
  ctx.beginPath();
  ctx.roundRect(x, y, size, size, radius);
  ctx.clip();
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(icon, x, y, size, size);
  ctx.restore();
}
