/**
 * Device frames drawn in code (no product artwork): a metal rim, a black bezel, the screen with
 * the display's real corner radius, the cut-out of the family and side buttons, on a soft shadow.
 * Every measure is a fraction of the screen's width, so a frame scales to any size.
 */
import type { Canvas, SKRSContext2D } from '@napi-rs/canvas';
import { skia } from './canvas.ts';
import { luminance, toHex } from '../core/colour.ts';
import { DEVICES, type Device } from '../core/devices.ts';
import { FRAMES, type Display, type FrameId, type FrameSpec } from '../core/displays.ts';

/** The bezel's black, also painted over the square corners of the screen image. */
export const BEZEL = '#050506';

export { displayFor, FRAMES, frameOf, MAX_CROP, type Display, type FrameId } from '../core/displays.ts';

export interface FrameBox {
  /** Outer top-left and size of the frame body (buttons stick out beyond it). */
  x: number;
  y: number;
  width: number;
  height: number;
  landscape: boolean;
  /** The frame model drawn (the device's own, or another for a screen of another shape: displays.ts). */
  frame: FrameId;
  /** The screen rectangle, in whole pixels so the screen image is never resampled twice. */
  screen: { x: number; y: number; width: number; height: number; radius: number };
}

const specOf = (frame: FrameId): FrameSpec => FRAMES[frame];

/** Whether the frame is a window with a title bar above its content (whose top corners are then square). */
export const hasTitleBar = (frame: FrameId): boolean => (specOf(frame).titleBar ?? 0) > 0;

/** Outer width and height per pixel of the screen's short side; a Home-button phone's chin lengthens the long side. */
function outerPerShort(d: Display): { w: number; h: number } {
  const f = specOf(d.frame);
  const edge = 2 * (f.bezel + f.rim);
  const long = d.aspect + edge + 2 * (f.chin ?? 0);
  // A window's title bar is along its top, whichever way it is turned.
  const bar = f.titleBar ?? 0;
  return d.landscape ? { w: long, h: 1 + edge + bar } : { w: 1 + edge, h: long + bar };
}

/** The outer width of the frame with the largest screen that fits maxW × maxH. */
export function frameWidthFor(device: Device, d: Display, maxW: number, maxH: number): number {
  const o = outerPerShort(d);
  // Never vanish: text that ran past three lines (only possible below the smallest size) squeezes
  // the device, down to a fifth of the slide's width.
  return Math.max(DEVICES[device].width * 0.2, Math.min(maxW, (maxH * o.w) / o.h));
}

/** A frame of the given outer width, its top centre at (cx, top). */
export function frameBox(_device: Device, d: Display, cx: number, top: number, outerWidth: number): FrameBox {
  const f = specOf(d.frame);
  const o = outerPerShort(d);
  const short = Math.round(outerWidth / o.w);
  const long = Math.round(short * d.aspect);
  const [sw, sh] = d.landscape ? [long, short] : [short, long];
  const edge = Math.round(short * (f.bezel + f.rim));
  const chin = Math.round(short * (f.chin ?? 0));
  const [ex, ey] = d.landscape ? [edge + chin, edge] : [edge, edge + chin];
  const bar = Math.round(short * (f.titleBar ?? 0));
  const width = sw + 2 * ex;
  const x = Math.round(cx - width / 2);
  const y = Math.round(top);
  return {
    x,
    y,
    width,
    height: sh + 2 * ey + bar,
    landscape: d.landscape,
    frame: d.frame,
    screen: { x: x + ex, y: y + ey + bar, width: sw, height: sh, radius: short * f.radius },
  };
}

const shortSide = (box: FrameBox) => Math.min(box.screen.width, box.screen.height);

function roundRect(ctx: SKRSContext2D, x: number, y: number, w: number, h: number, r: number): void {
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, r);
}

function buttons(ctx: SKRSContext2D, box: FrameBox): void {
  const kind = specOf(box.frame).buttons;
  // On a landscape device the buttons are on its top and bottom edges, too thin to see there.
  if (kind === 'none' || box.landscape) return;
  const sw = box.screen.width;
  const depth = sw * 0.011;
  const side = (left: boolean, at: number, len: number) => {
    roundRect(
      ctx,
      left ? box.x - depth : box.x + box.width - depth * 0.5,
      box.y + box.height * at,
      depth * 1.5,
      box.height * len,
      depth * 0.6,
    );
    ctx.fill();
  };
  ctx.fillStyle = '#2B2B2E';
  if (kind === 'iphone') {
    side(true, 0.17, 0.045);
    side(true, 0.25, 0.085);
    side(true, 0.35, 0.085);
    side(false, 0.28, 0.13);
  } else {
    side(false, 0.2, 0.07);
    side(false, 0.31, 0.14);
  }
}

// Blurring a phone-sized shape at full size costs ~50 ms; the blur is smooth, so it is drawn at a
// quarter of the size and scaled up, and kept for the next slide with the same frame.
const SHADOW_SCALE = 4;
const shadows = new Map<string, Canvas>();

function shadowFor(box: FrameBox, outerR: number): { image: Canvas; pad: number } {
  const sw = shortSide(box);
  const pad = Math.ceil(sw * 0.25);
  const key = `${box.frame}:${box.width}x${box.height}`;
  let image = shadows.get(key);
  if (!image) {
    const k = 1 / SHADOW_SCALE;
    image = skia().createCanvas(Math.ceil((box.width + 2 * pad) * k), Math.ceil((box.height + 2 * pad) * k));
    const ctx = image.getContext('2d');
    ctx.scale(k, k);
    ctx.fillStyle = '#000000';
    // A wide soft shadow for depth and a tight one that seats the device on the background.
    for (const [alpha, blur, dy] of [
      [0.3, 0.09, 0.04],
      [0.28, 0.015, 0.006],
    ]) {
      ctx.shadowColor = `rgba(0, 0, 0, ${alpha})`;
      ctx.shadowBlur = sw * blur * k;
      ctx.shadowOffsetY = sw * dy * k;
      roundRect(ctx, pad, pad, box.width, box.height, outerR);
      ctx.fill();
    }
    if (shadows.size >= 8) shadows.delete(shadows.keys().next().value!);
    shadows.set(key, image);
  }
  return { image, pad };
}

/** Shadow, buttons, rim and bezel: everything under the screen; a window's title bar in `bar`'s appearance. */
export function drawFrameBody(ctx: SKRSContext2D, _device: Device, box: FrameBox, bar: TitleBarTone = 'light'): void {
  const f = specOf(box.frame);
  const sw = shortSide(box);
  const outerR = f.corner !== undefined ? sw * f.corner : box.screen.radius + sw * (f.bezel + f.rim);
  const { image, pad } = shadowFor(box, outerR);
  ctx.drawImage(image, box.x - pad, box.y - pad, image.width * SHADOW_SCALE, image.height * SHADOW_SCALE);

  if (f.body === 'window') {
    // A macOS window's edge: a hairline of dark glass around the content, no metal or bezel.
    ctx.fillStyle = 'rgba(0, 0, 0, 0.32)';
    roundRect(ctx, box.x, box.y, box.width, box.height, outerR);
    ctx.fill();
    if (f.titleBar) drawTitleBar(ctx, box, outerR - sw * f.rim, TITLE_BARS[bar]);
    return;
  }

  buttons(ctx, box);

  // The rim: a brushed-metal gradient, then the bezel inset by the rim's width.
  const rim = ctx.createLinearGradient(box.x, box.y, box.x + box.width, box.y + box.height);
  rim.addColorStop(0, '#5A5A5F');
  rim.addColorStop(0.5, '#2C2C30');
  rim.addColorStop(1, '#4A4A4F');
  ctx.fillStyle = rim;
  roundRect(ctx, box.x, box.y, box.width, box.height, outerR);
  ctx.fill();
  const r = sw * f.rim;
  ctx.fillStyle = BEZEL;
  roundRect(ctx, box.x + r, box.y + r, box.width - 2 * r, box.height - 2 * r, outerR - r);
  ctx.fill();

  if (f.cutout === 'bezel-camera') {
    const cam = sw * 0.008;
    ctx.fillStyle = '#1A1C22';
    ctx.beginPath();
    // In landscape the camera is in the left bezel (the device's top, turned).
    const mid = (box.screen.y - box.y) / 2 + r / 2;
    if (box.landscape) ctx.arc(box.x + mid, box.y + box.height / 2, cam, 0, Math.PI * 2);
    else ctx.arc(box.x + box.width / 2, box.y + mid, cam, 0, Math.PI * 2);
    ctx.fill();
  }
  if (f.cutout === 'home-button') drawHomeButton(ctx, box);
}

/** The macOS traffic lights: close, minimise, zoom. */
export const TRAFFIC_LIGHTS = ['#FF5F57', '#FEBC2E', '#28C840'] as const;

/** macOS's two window appearances: the title bar's fill and the hairline under it. */
export const TITLE_BARS = {
  light: { fill: '#ECECEE', line: 'rgba(0, 0, 0, 0.14)' },
  dark: { fill: '#2B2B2E', line: 'rgba(0, 0, 0, 0.6)' },
} as const;
export type TitleBarTone = keyof typeof TITLE_BARS;

/** A screen's top strip darker than this (WCAG relative luminance; #595959 grey) is a dark app's. */
export const DARK_TOP = 0.1;

/**
 * The appearance of a window showing `screen` (RGBA pixels, as screen-image.ts `probe` gives them):
 * dark when the screen's top strip is dark, as macOS draws a dark app's title bar; a light grey bar
 * over a dark app's toolbar read as pasted on (design read 2026-11-28). A coloured toolbar (a
 * brand's blue or purple) keeps the light bar: taken by nearness, a purple window's bar went dark
 * beside four light ones in the same set. Without a screen, the window shows dark glass: dark.
 */
export function titleBarTone(screen: { data: Uint8Array | Uint8ClampedArray; width: number; height: number } | null): TitleBarTone {
  if (!screen) return 'dark';
  const rows = Math.max(1, Math.round(screen.height * 0.03));
  const sum = [0, 0, 0];
  for (let i = 0; i < rows * screen.width * 4; i += 4) for (let k = 0; k < 3; k++) sum[k] += screen.data[i + k];
  return luminance(toHex(sum.map((v) => v / (rows * screen.width)) as [number, number, number])) < DARK_TOP ? 'dark' : 'light';
}

/**
 * A window's title bar, inside its hairline edge above the content, with a hairline under it and
 * the three traffic lights at its left, at macOS's proportions (12 pt buttons, 20 pt apart, the
 * first 20 pt in, on a 28 pt bar). Drawn into the set's plate: once per set and appearance.
 */
function drawTitleBar(ctx: SKRSContext2D, box: FrameBox, r: number, look: (typeof TITLE_BARS)[TitleBarTone]): void {
  const inset = box.screen.x - box.x;
  const [x, y, w, h] = [box.x + inset, box.y + inset, box.width - 2 * inset, box.screen.y - box.y - inset];
  ctx.fillStyle = look.fill;
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, [r, r, 0, 0]);
  ctx.fill();
  ctx.fillStyle = look.line;
  ctx.fillRect(x, y + h - Math.max(1, h / 28), w, Math.max(1, h / 28));
  const step = (h * 20) / 28;
  TRAFFIC_LIGHTS.forEach((colour, i) => {
    ctx.fillStyle = colour;
    ctx.beginPath();
    ctx.arc(x + step * (i + 1), y + h / 2, (h * 6) / 28, 0, Math.PI * 2);
    ctx.fill();
  });
}

/**
 * A Home-button iPhone's face: the round button in the chin, the earpiece slot and the camera in
 * the forehead, in the device's own (portrait) coordinates, turned left for a landscape device.
 */
function drawHomeButton(ctx: SKRSContext2D, box: FrameBox): void {
  const s = box.screen;
  const sw = shortSide(box);
  // The forehead's and chin's depth, along the device's long axis.
  const band = box.landscape ? s.x - box.x : s.y - box.y;
  ctx.save();
  if (box.landscape) {
    ctx.translate(box.x, box.y + box.height);
    ctx.rotate(-Math.PI / 2);
  } else ctx.translate(box.x, box.y);
  const [w, h] = box.landscape ? [box.height, box.width] : [box.width, box.height];
  const cx = w / 2;
  // The button: a ring of dark metal around a slightly lighter face, 0.16 of the screen's width.
  const r = sw * 0.08;
  const cy = h - band / 2;
  ctx.fillStyle = '#2A2A2E';
  ctx.beginPath();
  ctx.arc(cx, cy, r, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = '#111113';
  ctx.beginPath();
  ctx.arc(cx, cy, r * 0.86, 0, Math.PI * 2);
  ctx.fill();
  // The earpiece, a rounded slot, and the front camera to its left.
  const slot = { w: sw * 0.16, h: sw * 0.014 };
  const ey = band / 2;
  ctx.fillStyle = '#1E1F24';
  roundRect(ctx, cx - slot.w / 2, ey - slot.h / 2, slot.w, slot.h, slot.h / 2);
  ctx.fill();
  ctx.beginPath();
  ctx.arc(cx - slot.w / 2 - sw * 0.07, ey, sw * 0.016, 0, Math.PI * 2);
  ctx.fill();
  ctx.restore();
}

/** Clips to the screen's rounded rectangle; the caller draws the screen and then restores. */
export function clipScreen(ctx: SKRSContext2D, box: FrameBox): void {
  const s = box.screen;
  ctx.save();
  roundRect(ctx, s.x, s.y, s.width, s.height, s.radius);
  ctx.clip();
}

/**
 * The Dynamic Island, the notch or the camera hole, drawn over the screen. They are drawn in the
 * device's own (portrait) coordinates: a landscape device is the portrait one turned left, so its
 * cut-out sits at the left edge.
 */
export function drawCutout(ctx: SKRSContext2D, _device: Device, box: FrameBox): void {
  const b = box.screen;
  ctx.save();
  if (box.landscape) {
    ctx.translate(b.x, b.y + b.height);
    ctx.rotate(-Math.PI / 2);
  } else ctx.translate(b.x, b.y);
  const s = { x: 0, y: 0, width: Math.min(b.width, b.height) };
  const cx = s.width / 2;
  ctx.fillStyle = '#000000';
  switch (specOf(box.frame).cutout) {
    case 'island': {
      // 126 × 37 pt, 11 pt from the top of a 440 pt wide screen.
      const w = s.width * (126 / 440);
      const h = s.width * (37 / 440);
      roundRect(ctx, cx - w / 2, s.y + s.width * (11 / 440), w, h, h / 2);
      ctx.fill();
      break;
    }
    case 'notch': {
      // 209 × 30 pt of a 414 pt screen, rounded below, with small fillets where it meets the edge.
      const w = s.width * (209 / 414);
      const h = s.width * (30 / 414);
      const fillet = s.width * (6 / 414);
      const r = s.width * (20 / 414);
      const l = cx - w / 2;
      ctx.beginPath();
      ctx.moveTo(l - fillet, s.y);
      ctx.arcTo(l, s.y, l, s.y + fillet, fillet);
      ctx.arcTo(l, s.y + h, l + r, s.y + h, r);
      ctx.arcTo(l + w, s.y + h, l + w, s.y + h - r, r);
      ctx.arcTo(l + w, s.y, l + w + fillet, s.y, fillet);
      ctx.closePath();
      ctx.fill();
      break;
    }
    case 'hole': {
      const d = s.width * 0.038;
      ctx.beginPath();
      ctx.arc(cx, s.y + s.width * 0.045, d / 2, 0, Math.PI * 2);
      ctx.fill();
      ctx.strokeStyle = 'rgba(60, 60, 70, 0.9)';
      ctx.lineWidth = d * 0.12;
      ctx.stroke();
      break;
    }
    case 'bezel-camera':
    case 'home-button':
      break;
  }
  ctx.restore();
}
