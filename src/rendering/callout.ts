/**
 * A focus callout (slides[].focus): one region of the screen pulled out of the device and drawn
 * enlarged over it, on a white edge and a soft shadow, so one UI element reads at thumbnail size.
 * It stays where the region is, as far as the slide allows, and never covers the text.
 */
import { createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import type { Focus } from '../core/set.ts';
import type { Scale } from './layout.ts';
import type { ScreenImage } from './screen-image.ts';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Where the callout goes: `free` is the band of the slide it may use (between the text and the edge). */
export function calloutBox(region: Rect, sc: Scale, free: { top: number; bottom: number }): Rect | null {
  const { width: W } = sc;
  const edge = Math.round(W * 0.04);
  const room = free.bottom - free.top;
  if (region.width <= 0 || region.height <= 0 || room <= 0) return null;
  // Enlarged up to twice, never past 88 % of the width or 40 % of the free band's height; at least
  // a little larger than the region, so it lifts off the screen.
  let m = Math.min(2, (W * 0.88) / region.width, (room * 0.4) / region.height);
  m = Math.max(m, Math.min(1.12, (W - 2 * edge) / region.width, room / region.height));
  const width = Math.round(region.width * m);
  const height = Math.round(region.height * m);
  const cx = region.x + region.width / 2;
  const cy = region.y + region.height / 2;
  const x = Math.round(Math.min(W - edge - width, Math.max(edge, cx - width / 2)));
  const y = Math.round(Math.min(free.bottom - height, Math.max(free.top, cy - height / 2)));
  return { x, y, width, height };
}

/** The region of the screen image on the slide, for a screen drawn covering `s` anchored at its top. */
export function regionOnSlide(f: Focus, s: Rect, image: { width: number; height: number }): Rect {
  const k = Math.max(s.width / image.width, s.height / image.height);
  const offX = (image.width - s.width / k) / 2;
  return { x: s.x + (f.x - offX) * k, y: s.y + f.y * k, width: f.w * k, height: f.h * k };
}

/** Draws the region `f` of the screen into `box`: shadow (blurred small, scaled up), white edge, rounded clip. */
export function drawCallout(ctx: SKRSContext2D, screen: ScreenImage, f: Focus, box: Rect): void {
  const radius = Math.round(Math.min(box.width, box.height) * 0.08);
  const border = Math.max(3, Math.round(Math.min(box.width, box.height) * 0.025));
  // A full-size blur of a shape this size costs tens of ms: drawn at a quarter and scaled up.
  const q = 4;
  const pad = Math.round(Math.min(box.width, box.height) * 0.3);
  const shadow = createCanvas(Math.ceil((box.width + 2 * pad) / q), Math.ceil((box.height + 2 * pad) / q));
  const s = shadow.getContext('2d');
  s.scale(1 / q, 1 / q);
  s.shadowColor = 'rgba(0, 0, 0, 0.38)';
  s.shadowBlur = (pad * 0.45) / q;
  s.shadowOffsetY = pad * 0.12;
  s.fillStyle = '#000000';
  s.beginPath();
  s.roundRect(pad, pad, box.width, box.height, radius);
  s.fill();
  ctx.drawImage(shadow, box.x - pad, box.y - pad, shadow.width * q, shadow.height * q);
  ctx.fillStyle = '#FFFFFF';
  ctx.beginPath();
  ctx.roundRect(box.x - border, box.y - border, box.width + 2 * border, box.height + 2 * border, radius + border);
  ctx.fill();
  ctx.save();
  ctx.beginPath();
  ctx.roundRect(box.x, box.y, box.width, box.height, radius);
  ctx.clip();
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(screen.image, f.x, f.y, f.w, f.h, box.x, box.y, box.width, box.height);
  ctx.restore();
}
