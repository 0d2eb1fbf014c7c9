/**
 * The brand kit's icon badge: the app's icon as a sticker on the device's top-right corner, at one
 * size on every slide, large enough to be told apart where shoppers decide, or not at all. Earlier
 * it sat in the top margin at 60 % of the margin's height: 95 px on a 6.9" slide, under 8 pt in a
 * search result's 110 pt-wide thumbnail, a speck. At 12 % of the slide's base width it is ~13 pt
 * there and ~35 pt on a product page, where an app's icon is recognised. A slide without a device
 * (a text slide) shows the icon large already and gets no badge.
 */
import type { Canvas, Image, SKRSContext2D } from '@napi-rs/canvas';
import type { Scale } from './layout.ts';

/** The badge's side, per pixel of the slide's base width. */
export const BADGE_SHARE = 0.12;

/** The screen the badge sits beside: its rectangle and its top-right corner's radius. */
export interface BadgeAnchor {
  x: number;
  y: number;
  width: number;
  radius: number;
}

/**
 * The badge's square: its bottom-left corner just outside the screen's top-right rounded corner
 * (at the arc's 45° point), so it rides the device's corner without covering a pixel of the
 * screen (screens are shown whole). Null when that square would leave the slide (a full-bleed
 * screen as wide as the slide, a device against the top edge): then there is no badge rather
 * than a smaller one.
 */
export function badgeBox(sc: Scale, screen: BadgeAnchor): { x: number; y: number; size: number } | null {
  const size = Math.round(sc.base * BADGE_SHARE);
  const rim = Math.max(2, Math.round(size * 0.045));
  const gap = rim + Math.ceil(size * 0.03);
  const r = screen.radius;
  const px = screen.x + screen.width - r + r * Math.SQRT1_2;
  const py = screen.y + r - r * Math.SQRT1_2;
  const x = Math.round(px + gap);
  const y = Math.round(py - gap - size);
  const edge = Math.round(sc.margin * 0.25);
  if (x + size + rim > sc.width - edge || y - rim < edge) return null;
  return { x, y, size };
}

export function drawBadge(ctx: SKRSContext2D, icon: Image | Canvas, sc: Scale, screen: BadgeAnchor): void {
  const box = badgeBox(sc, screen);
  if (!box) return;
  const { x, y, size } = box;
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
