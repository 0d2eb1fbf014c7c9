/**
 * A screen shown on several slides of a set, scaled into its display and cut to its rounded
 * corners once per thread, then copied onto each slide that shows it. Drawing it scaled through
 * the display's anti-aliased clip cost ~10-12 ms of a 1320×2868 slide's CPU, the copy ~2; a set
 * of 10 slides framing one uploaded screen draws it once per thread instead of 10 times.
 *
 * Only a slide that the set says shares its screen (SlideTask.screenShared) is drawn this way,
 * whether the copy is already kept or not: a slide's pixels then depend on its set, never on what
 * its thread drew before. The copy differs from drawing in place by a rounding step (±1) on most
 * of the display's edge pixels and a few corner pixels more.
 */
import { createCanvas, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import type { ScreenImage } from './screen-image.ts';

/** Draws the screen into a box of the kept size whose top-left corner is at (x, y). */
export type PaintScreen = (ctx: SKRSContext2D, x: number, y: number) => void;

export class ScreenSprite {
  /** How many times the copy was drawn anew (a test's view of the cache). */
  painted = 0;
  #canvas: Canvas | null = null;
  #screen: ScreenImage | null = null;
  #key = '';

  /**
   * The screen drawn by `paint` into `box` on `ctx` (whose transform must be the identity): kept
   * for the same screen object and `key` (what else `paint` depends on) at the same fraction of a
   * pixel, so the copy lands on whole pixels and needs no resampling.
   */
  draw(
    ctx: SKRSContext2D,
    screen: ScreenImage,
    box: { x: number; y: number; width: number; height: number },
    key: string,
    paint: PaintScreen,
  ): void {
    const [ix, iy] = [Math.floor(box.x), Math.floor(box.y)];
    const [fx, fy] = [box.x - ix, box.y - iy];
    const [w, h] = [Math.ceil(fx + box.width), Math.ceil(fy + box.height)];
    const full = JSON.stringify([key, fx, fy, box.width, box.height]);
    if (!this.#canvas || this.#screen !== screen || this.#key !== full) {
      if (!this.#canvas || this.#canvas.width !== w || this.#canvas.height !== h) this.#canvas = createCanvas(w, h);
      const c = this.#canvas.getContext('2d');
      c.reset();
      paint(c, fx, fy);
      this.#screen = screen;
      this.#key = full;
      this.painted++;
    }
    ctx.drawImage(this.#canvas, ix, iy);
  }
}
