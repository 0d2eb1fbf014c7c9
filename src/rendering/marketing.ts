/**
 * Is a screen already a marketing picture? Store listings mostly show such pictures, and framing
 * one again puts a phone inside a phone. Read from a small RGBA copy (screen-image.ts probe, at
 * most 400 px wide; about a millisecond). Three signs:
 * - a device frame: at the same distance from both sides, flat background gives way to a strong
 *   edge (a dark bezel anywhere, any other silhouette only beyond a margin no app's own cards
 *   keep), unbroken over more than half the height; an app's cards have gaps between them;
 * - a caption: a band of flat colour (or a gentle gradient) at the top or bottom holding rows of
 *   big high-contrast "ink", whose colour then runs on down both sides of an inset screen. An
 *   app's own coloured header (a title bar, a balance) is followed by content reaching the edges,
 *   and a dark-mode app's black runs past half the height: neither is a caption;
 * - the aspect: no display of the family has it (see frames.ts displayFor; checked by the caller).
 * A Mac screenshot of a window centred on a desktop has the first sign's shape (the window's edge
 * at one distance from both sides, flat wallpaper outside): a wide picture whose edge pair holds
 * the three traffic lights just inside its top-left corner is a window, the app's own screen.
 */

export interface Suspicion {
  /** 0..1: the longest unbroken share of the height that a mirrored pair of frame edges runs. */
  frameEdges: number;
  framed: boolean;
  /** Where a caption band sits, if the picture has one. */
  caption: 'top' | 'bottom' | null;
}

/** A pair of edges running this share of the height or more is a drawn device. */
export const FRAMED_SHARE = 0.55;

const ROWS = 160;
/** A bezel is near black (luma 0..255). */
const BEZEL = 60;
/** A silhouette that is not dark counts only this far in: apps inset their cards by ~4 %. */
const SILHOUETTE_MARGIN = 0.07;
/** A caption band's share of the height. */
const BAND = { min: 0.14, max: 0.5 };
/** Caption type: a run of ink rows at least this share of the height (a nav bar's title is ~1.3 %). */
const BIG_TEXT = 0.02;
/** How far the band's colour must run on down both sides of the screen. */
const INSET_RUN = 0.25;

interface Pixels {
  data: Uint8Array | Uint8ClampedArray;
  width: number;
  height: number;
}

type Rgb = [number, number, number];

const rgbAt = (p: Pixels, x: number, y: number): Rgb => {
  const i = (y * p.width + x) * 4;
  return [p.data[i], p.data[i + 1], p.data[i + 2]];
};
const lumaOf = (c: Rgb) => c[0] * 0.299 + c[1] * 0.587 + c[2] * 0.114;
const dist = (a: Rgb, b: Rgb) => Math.max(Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1]), Math.abs(a[2] - b[2]));
// The same on byte offsets, for the loops that visit ~10^5 pixels a screen: an array per pixel
// read cost ~4 ms a screen in allocation and scavenges.
const lumaAt = (d: Pixels['data'], i: number) => d[i] * 0.299 + d[i + 1] * 0.587 + d[i + 2] * 0.114;
const distAt = (d: Pixels['data'], i: number, c: Rgb) =>
  Math.max(Math.abs(d[i] - c[0]), Math.abs(d[i + 1] - c[1]), Math.abs(d[i + 2] - c[2]));
const mean = (cs: Rgb[]): Rgb => [0, 1, 2].map((k) => cs.reduce((s, c) => s + c[k], 0) / cs.length) as Rgb;

export function suspicion(data: Uint8Array | Uint8ClampedArray, width: number, height: number): Suspicion {
  if (width < 40 || height < 40) return { frameEdges: 0, framed: false, caption: null };
  const p = { data, width, height };
  const run = edgeRun(p);
  const frameEdges = Math.round(run.share * 100) / 100;
  const caption = captioned(p, true) ? 'top' : captioned(p, false) ? 'bottom' : null;
  return { frameEdges, framed: frameEdges >= FRAMED_SHARE && !macWindow(p, run), caption };
}

interface EdgeRun {
  /** The longest unbroken share of the height. */
  share: number;
  /** Its distance from the left border, and its first row. */
  x: number;
  top: number;
}

/** macOS's traffic lights: close, minimise, zoom. */
const LIGHTS: Rgb[] = [
  [255, 95, 87],
  [254, 188, 46],
  [40, 200, 64],
];

/**
 * Whether the edge pair is a window's: on a wide picture, the three traffic lights (in their
 * order, left to right) within the corner just inside its left edge at its top (a title bar is
 * 28 pt of a 900 pt window; the lights sit 8-60 pt in). A drawn laptop's bezel keeps its screen,
 * and any window in it, further in than that.
 */
function macWindow(p: Pixels, run: EdgeRun): boolean {
  if (p.width <= p.height || run.share < FRAMED_SHARE) return false;
  const [x0, x1] = [run.x, Math.min(p.width, run.x + Math.ceil(p.width * 0.06))];
  const [y0, y1] = [Math.max(0, run.top - Math.ceil(p.height * 0.02)), Math.min(p.height, run.top + Math.ceil(p.height * 0.06))];
  const first = LIGHTS.map(() => Infinity);
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) {
      const i = (y * p.width + x) * 4;
      LIGHTS.forEach((c, k) => {
        if (distAt(p.data, i, c) < 48) first[k] = Math.min(first[k], x);
      });
    }
  return first.every(Number.isFinite) && first[0] < first[1] && first[1] < first[2];
}

/** The longest unbroken run of rows over which both sides show a frame edge at one distance. */
function edgeRun(p: Pixels): EdgeRun {
  const { width, height } = p;
  const { data } = p;
  const luma = (x: number, y: number) => lumaAt(data, (y * width + x) * 4);
  const rows = Array.from({ length: ROWS }, (_, i) => Math.floor(((i + 0.5) * height) / ROWS));
  const step = Math.max(1, Math.floor(width / 400));
  const reach = Math.floor(width * 0.22);
  const margin = width * SILHOUETTE_MARGIN;
  // For each distance from the edge: on how many rows both sides have a strong edge there, with
  // flat background between it and the picture's border.
  const edge = (x: number, out: number, y: number) => {
    const [here, outside] = [(y * width + x) * 4, (y * width + out) * 4];
    const l = lumaAt(data, here);
    if (l < BEZEL && lumaAt(data, outside) - l > 40) return true;
    return (
      x >= margin &&
      Math.max(
        Math.abs(data[here] - data[outside]),
        Math.abs(data[here + 1] - data[outside + 1]),
        Math.abs(data[here + 2] - data[outside + 2]),
      ) > 60
    );
  };
  const best: EdgeRun = { share: 0, x: 0, top: 0 };
  for (let x = 2 * step; x < reach; x += step) {
    let run = 0;
    for (const [r, y] of rows.entries()) {
      const right = width - 1 - x;
      const both = edge(x, x - 2 * step, y) && edge(right, right + 2 * step, y);
      if (both && flat(luma, y, 0, x - 2 * step) && flat(luma, y, right + 2 * step, width - 1)) {
        run++;
        if (run / ROWS > best.share) Object.assign(best, { share: run / ROWS, x, top: rows[r - run + 1] });
      } else run = 0;
    }
  }
  return best;
}

/** Whether a row is nearly one colour (a background) between two columns. */
function flat(luma: (x: number, y: number) => number, y: number, from: number, to: number): boolean {
  if (to - from < 2) return false;
  const a = luma(from, y);
  const mid = luma(Math.floor((from + to) / 2), y);
  return Math.abs(a - mid) < 24 && Math.abs(a - luma(to, y)) < 24;
}

/** Ink columns that read as a centred line of type: a third of the width or more, mostly covered. */
function lineOfType(inked: Uint8Array): boolean {
  const first = inked.indexOf(1);
  const last = inked.lastIndexOf(1);
  if (first < 0) return false;
  const span = last - first + 1;
  const covered = inked.reduce((n, v) => n + v, 0);
  const offCentre = Math.abs(first - (inked.length - 1 - last)) / inked.length;
  return span >= inked.length / 3 && covered >= span * 0.5 && offCentre < 0.15;
}

/** The colour at a row's two borders, or null when they differ (no background spans the row). */
function borderColour(p: Pixels, y: number): Rgb | null {
  const l = mean([1, 2, 3].map((x) => rgbAt(p, x, y)));
  const r = mean([2, 3, 4].map((x) => rgbAt(p, p.width - x, y)));
  return dist(l, r) > 24 ? null : mean([l, r]);
}

/**
 * A caption band at one end: rows of one background colour (drifting slowly, for gradients) with
 * only that colour and high-contrast ink on them, as tall as a caption, holding a line of big
 * type, and then the same background running on down both sides of an inset screen.
 */
function captioned(p: Pixels, fromTop: boolean): boolean {
  const { width, height } = p;
  const rowAt = (i: number) => (fromTop ? i : height - 1 - i);
  const xs = Array.from({ length: Math.min(200, width - 8) }, (_, k) => 4 + Math.floor((k * (width - 8)) / Math.min(200, width - 8)));
  let prev = borderColour(p, rowAt(0));
  if (!prev) return false;
  let rows = 0;
  let inkRun = 0;
  let bigText = false;
  // Columns with ink in the current run of ink rows: a line of type covers most of its span,
  // centred; icons or marks in the corners do not.
  let inked = new Uint8Array(xs.length);
  const bandMax = height * BAND.max;
  for (let i = 0; i < height; i++) {
    // Already taller than any caption band: whatever follows, this end has none.
    if (i > bandMax) return false;
    const bg = borderColour(p, rowAt(i));
    if (!bg || dist(bg, prev) > 10) break;
    const bgLuma = lumaOf(bg);
    const row = rowAt(i) * width * 4;
    let [ink, other] = [0, 0];
    for (let k = 0; k < xs.length; k++) {
      const at = row + xs[k] * 4;
      const d = distAt(p.data, at, bg);
      if (d < 30) continue;
      if (d > 90 || Math.abs(lumaAt(p.data, at) - bgLuma) > 60) {
        ink++;
        inked[k] = 1;
      } else other++;
    }
    if (other > xs.length * 0.2 || ink > xs.length * 0.45) break;
    inkRun = ink > 0 ? inkRun + 1 : 0;
    if (inkRun >= height * BIG_TEXT && lineOfType(inked)) bigText = true;
    if (!ink) inked = new Uint8Array(xs.length);
    prev = bg;
    rows = i + 1;
  }
  if (!bigText || rows < height * BAND.min || rows > height * BAND.max) return false;
  // Past the band: both side strips stay flat, in the band's colour drifting as slowly as before.
  const strip = Math.max(3, Math.round(width * (SILHOUETTE_MARGIN - 0.005)));
  let side = prev;
  let run = 0;
  for (let i = rows; i < height && run < height * INSET_RUN; i++) {
    const y = rowAt(i);
    const l = mean([1, Math.floor(strip / 2), strip].map((x) => rgbAt(p, x, y)));
    const r = mean([2, Math.floor(strip / 2), strip].map((x) => rgbAt(p, width - x, y)));
    const flatSides = [1, strip].every((x) => dist(rgbAt(p, x, y), l) < 16 && dist(rgbAt(p, width - 1 - x, y), r) < 16);
    if (!flatSides || dist(l, r) > 24 || dist(mean([l, r]), side) > 10) break;
    side = mean([l, r]);
    run++;
  }
  return run >= height * INSET_RUN;
}
