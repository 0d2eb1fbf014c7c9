/**
 * A slide's plate: the background and the device under the screen. They are the same on every
 * slide of a set that shares a layout (devices sit at the same height: SetMetrics.blockHeight), so
 * a thread paints each once and copies it: the gradient, the blurred shadow scaled up and the rim
 * cost ~17 ms a slide, the copy ~1 ms. A panorama's background differs on every slide: drawn
 * directly.
 */
import { createCanvas, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import { drawFrameBody, type FrameBox, type TitleBarTone } from './frames.ts';
import { scaleOf, type Bleed } from './layout.ts';
import { drawBackground, type Look } from './themes.ts';
import type { SlideTask } from './types.ts';

/**
 * Plates kept per thread, the least recently used dropped first: ~15-22 MB each. A planned set
 * shows three (the hero's leaning device, the device under the text, the device over it), and its
 * slides reach a thread in any order: with two kept, a thread painted every one of them again on
 * each set (the third evicted the first), ~6 plates a 10-slide set on two threads.
 */
export const MAX_PLATES = 3;

/** Plates by key, at most `max`, the least recently used dropped first; `painted` counts the misses. */
export class PlateCache {
  readonly #kept = new Map<string, Canvas>();
  painted = 0;

  constructor(readonly max: number) {}

  /** The plate of `key`, painted by `paint` on a new `width`×`height` canvas when not kept. */
  get(key: string, width: number, height: number, paint: (ctx: SKRSContext2D) => void): Canvas {
    let plate = this.#kept.get(key);
    if (plate) this.#kept.delete(key);
    else {
      plate = createCanvas(width, height);
      paint(plate.getContext('2d', { alpha: false }));
      this.painted++;
      if (this.#kept.size >= this.max) this.#kept.delete(this.#kept.keys().next().value!);
    }
    // Last in the map's order: the most recently used.
    this.#kept.set(key, plate);
    return plate;
  }
}

/** This thread's plates. */
export const plates = new PlateCache(MAX_PLATES);

/** Turns what is drawn next by `tilt` about the box's centre. */
export function rotateAbout(ctx: SKRSContext2D, box: { x: number; y: number; width: number; height: number }, tilt: number): void {
  if (!tilt) return;
  const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
  ctx.translate(cx, cy);
  ctx.rotate(tilt);
  ctx.translate(-cx, -cy);
}

export function drawPlate(
  ctx: SKRSContext2D,
  task: SlideTask,
  look: Look,
  frame: FrameBox | null,
  bleed: Bleed | null,
  tilt: number,
  bar: TitleBarTone,
): void {
  const sc = scaleOf(task.device, task.orientation);
  const paint = (c: SKRSContext2D) => {
    drawBackground(c, sc, look, task.panorama);
    c.save();
    if (frame) rotateAbout(c, frame, tilt);
    else if (bleed) rotateAbout(c, bleed, tilt);
    if (frame) drawFrameBody(c, task.device, frame, bar);
    if (bleed) drawBleedShadow(c, bleed);
    c.restore();
  };
  if (task.panorama) return paint(ctx);
  const key = JSON.stringify([task.device, task.orientation, look, frame, bleed, tilt, bar]);
  ctx.drawImage(plates.get(key, sc.width, sc.height, paint), 0, 0);
}

/**
 * A soft shadow under a frameless screen, so a light screen stands off a light background. Blurred
 * at a quarter of the size and scaled up (a full-size blur costs ~50 ms); drawn into the plate, so
 * once per set.
 */
function drawBleedShadow(ctx: SKRSContext2D, b: Bleed): void {
  const k = 4;
  const pad = Math.ceil(Math.min(b.width, b.height) * 0.12);
  const small = createCanvas(Math.ceil((b.width + 2 * pad) / k), Math.ceil((b.height + 2 * pad) / k));
  const s = small.getContext('2d');
  s.scale(1 / k, 1 / k);
  s.shadowColor = 'rgba(0, 0, 0, 0.28)';
  s.shadowBlur = (pad * 0.5) / k;
  s.fillStyle = '#000000';
  s.beginPath();
  s.roundRect(pad, pad, b.width, b.height, b.radii);
  s.fill();
  ctx.drawImage(small, b.x - pad, b.y - pad, small.width * k, small.height * k);
}
