/**
 * Marketing compositions told from app screens, on pictures drawn here at a phone's real size and
 * read the way the renderer reads them (decodeScreen's probe): captioned and framed listings are
 * found, and app screens that share one of their features (a dark header with a title, a tall
 * coloured header with big figures, dark mode, inset cards) are not.
 */
import { createCanvas, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { registerFonts } from '../../src/rendering/fonts.ts';
import { suspicion } from '../../src/rendering/marketing.ts';
import { renderPool } from '../support/render-pool.ts';
import { decodeScreen } from '../../src/rendering/screen-image.ts';
import { markedScreen, marketingPicture } from './golden-cases.ts';
import { slide } from './support.ts';

const [W, H] = [1206, 2622];
registerFonts();

function picture(draw: (ctx: SKRSContext2D) => void): Promise<Buffer> {
  const canvas = createCanvas(W, H);
  const ctx = canvas.getContext('2d');
  draw(ctx);
  return png(canvas, W, H);
}

/**
 * The canvas's pixels as a PNG, through sharp at level 1: the very pixels of skia's own PNG (its
 * straight, not premultiplied, RGBA: a fractional edge leaves a row part transparent), at half the
 * CPU or less (~30 ms against ~75 ms a phone-sized picture).
 */
function png(canvas: Canvas, width: number, height: number): Promise<Buffer> {
  const { data } = canvas.getContext('2d').getImageData(0, 0, width, height);
  return sharp(Buffer.from(data.buffer, data.byteOffset, data.byteLength), { raw: { width, height, channels: 4 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

function gradient(ctx: SKRSContext2D, from: string, to: string): void {
  const g = ctx.createLinearGradient(0, 0, W, H);
  g.addColorStop(0, from);
  g.addColorStop(1, to);
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, W, H);
}

function text(ctx: SKRSContext2D, lines: string[], size: number, top: number, colour: string, align: 'center' | 'left' = 'center'): void {
  ctx.font = `700 ${size}px "Noto Sans"`;
  ctx.fillStyle = colour;
  ctx.textAlign = align;
  ctx.textBaseline = 'top';
  lines.forEach((l, i) => ctx.fillText(l, align === 'center' ? W / 2 : 60, top + i * size * 1.2));
}

/** An app's list: rows with a title, a grey line of detail and a separator, edge to edge. */
function list(ctx: SKRSContext2D, top: number, bg: string, ink: string): void {
  ctx.fillStyle = bg;
  ctx.fillRect(0, top, W, H - top);
  for (let y = top + 40, i = 0; y < H - 160; y += 190, i++) {
    text(ctx, [`Message ${i + 1} from a friend`], 46, y, ink, 'left');
    ctx.fillStyle = '#9CA3AF';
    ctx.fillRect(60, y + 80, 600 + ((i * 97) % 400), 30);
    ctx.fillRect(0, y + 170, W, 2);
  }
}

/** A screen inside the picture (the app's, already composed), inset from the sides. */
function insetScreen(ctx: SKRSContext2D, top: number, bottom: number): void {
  ctx.fillStyle = '#FFFFFF';
  ctx.beginPath();
  ctx.roundRect(W * 0.12, top, W * 0.76, bottom - top, 60);
  ctx.fill();
  ctx.fillStyle = '#3B82F6';
  ctx.fillRect(W * 0.12 + 40, top + 80, W * 0.76 - 80, 200);
}

const POSITIVES: Record<string, () => Promise<Buffer> | Buffer> = {
  'a caption above an inset screen, on a gradient': () =>
    picture((ctx) => {
      gradient(ctx, '#7C3AED', '#DB2777');
      text(ctx, ['Plan Every Trip', 'in Minutes'], 120, 180, '#FFFFFF');
      insetScreen(ctx, 700, H + 80);
    }),
  'a caption below an inset screen, on a flat colour': () =>
    picture((ctx) => {
      ctx.fillStyle = '#FDE68A';
      ctx.fillRect(0, 0, W, H);
      insetScreen(ctx, -80, H - 700);
      text(ctx, ['Budgets That', 'Add Up'], 120, H - 520, '#111827');
    }),
  'a silver device on a pale gradient, no caption': () =>
    picture((ctx) => {
      gradient(ctx, '#E0F2FE', '#F0FDF4');
      ctx.fillStyle = '#9CA3AF';
      ctx.beginPath();
      ctx.roundRect(W * 0.15, H * 0.1, W * 0.7, H * 0.8, 120);
      ctx.fill();
      ctx.fillStyle = '#FFFFFF';
      ctx.beginPath();
      ctx.roundRect(W * 0.17, H * 0.11, W * 0.66, H * 0.78, 100);
      ctx.fill();
    }),
  'a black-bezelled phone under a caption bar': () => marketingPicture(W, H),
};

const NEGATIVES: Record<string, () => Promise<Buffer> | Buffer> = {
  'a dark header with a title over a white list': () =>
    picture((ctx) => {
      ctx.fillStyle = '#111827';
      ctx.fillRect(0, 0, W, 300);
      text(ctx, ['9:41'], 40, 40, '#FFFFFF', 'left');
      text(ctx, ['Inbox'], 56, 170, '#FFFFFF');
      list(ctx, 300, '#FFFFFF', '#111827');
    }),
  'a tall coloured header with a big balance over content reaching the edges': () =>
    picture((ctx) => {
      ctx.fillStyle = '#1D4ED8';
      ctx.fillRect(0, 0, W, H * 0.3);
      text(ctx, ['Total balance'], 48, 200, '#BFDBFE');
      text(ctx, ['$12,480.00'], 130, 300, '#FFFFFF');
      list(ctx, H * 0.3, '#F9FAFB', '#111827');
    }),
  'a dark-mode list with a large title': () =>
    picture((ctx) => {
      ctx.fillStyle = '#000000';
      ctx.fillRect(0, 0, W, H);
      text(ctx, ['Settings'], 100, 200, '#FFFFFF', 'left');
      list(ctx, 420, '#000000', '#F9FAFB');
    }),
  'a dark header with a title over inset grouped cards': () =>
    picture((ctx) => {
      ctx.fillStyle = '#0F172A';
      ctx.fillRect(0, 0, W, H * 0.2);
      text(ctx, ['Account'], 110, 220, '#FFFFFF');
      ctx.fillStyle = '#F2F2F7';
      ctx.fillRect(0, H * 0.2, W, H);
      for (let y = H * 0.23; y < H - 300; y += 520) {
        ctx.fillStyle = '#FFFFFF';
        ctx.beginPath();
        ctx.roundRect(48, y, W - 96, 440, 30);
        ctx.fill();
      }
    }),
  'the goldens’ screen with cards and corner marks': () => markedScreen(W, H),
};

async function read(png: Buffer) {
  const p = (await decodeScreen(png)).probe();
  return suspicion(p.data, p.width, p.height);
}

/**
 * Each named picture drawn and read once: several tests look at the same ones (which end a
 * caption is at, the set that frames one and not another), and only read them.
 */
const drawn = new Map<string, Promise<Buffer>>();
function once(key: string, draw: () => Promise<Buffer> | Buffer): Promise<Buffer> {
  let p = drawn.get(key);
  if (!p) drawn.set(key, (p = Promise.resolve(draw())));
  return p;
}
const pictureOf = (name: string) => once(name, POSITIVES[name] ?? NEGATIVES[name]);
const reads = new Map<string, ReturnType<typeof read>>();
const readOf = (name: string): ReturnType<typeof read> => {
  let r = reads.get(name);
  if (!r) reads.set(name, (r = pictureOf(name).then(read)));
  return r;
};
// The module stays loaded for the worker's later files: let the pictures go.
afterAll(() => {
  drawn.clear();
  reads.clear();
});

describe('marketing compositions', () => {
  it.each(Object.keys(POSITIVES))('%s is one', async (name) => {
    const s = await readOf(name);
    expect(s.framed || s.caption !== null, JSON.stringify(s)).toBe(true);
  });

  it.each(Object.keys(NEGATIVES))('%s is an app screen', async (name) => {
    const s = await readOf(name);
    expect(s, JSON.stringify(s)).toMatchObject({ framed: false, caption: null });
  });

  it('says which end a caption is at', async () => {
    expect((await readOf('a caption above an inset screen, on a gradient')).caption).toBe('top');
    expect((await readOf('a caption below an inset screen, on a flat colour')).caption).toBe('bottom');
  });
});

/**
 * A Mac picture, 2880 × 1800: a window (title bar with the traffic lights, a sidebar, a list)
 * at `box` (shares of the picture) on a wallpaper gradient under a menu bar; `bezel`: inside a
 * drawn laptop's black bezel instead, as a listing's marketing picture shows one.
 */
function macPicture(box: [number, number, number, number], bezel = false): Promise<Buffer> {
  // The window at [0.14, 0.12, 0.72, 0.76] is read alone and then framed on a slide: drawn once.
  return once(`mac ${box.join(' ')}${bezel ? ' bezel' : ''}`, () => drawMac(box, bezel));
}

function drawMac(box: [number, number, number, number], bezel: boolean): Promise<Buffer> {
  const [MW, MH] = [2880, 1800];
  const canvas = createCanvas(MW, MH);
  const ctx = canvas.getContext('2d');
  const g = ctx.createLinearGradient(0, 0, MW, MH);
  g.addColorStop(0, bezel ? '#F5F3FF' : '#3A6EA5');
  g.addColorStop(1, bezel ? '#EDE9FE' : '#8E5BB5');
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, MW, MH);
  let [x, y, w, h] = [box[0] * MW, box[1] * MH, box[2] * MW, box[3] * MH];
  if (bezel) {
    ctx.fillStyle = '#111111';
    ctx.beginPath();
    ctx.roundRect(x, y, w, h, 40);
    ctx.fill();
    [x, y, w, h] = [x + 60, y + 60, w - 120, h - 120];
    ctx.fillStyle = '#DBEAFE';
    ctx.fillRect(x, y, w, h);
    [x, y, w, h] = [x + 160, y + 100, w - 320, h - 200];
  } else {
    ctx.fillStyle = 'rgba(255, 255, 255, 0.6)';
    ctx.fillRect(0, 0, MW, 48);
  }
  ctx.fillStyle = '#FFFFFF';
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, 20);
  ctx.fill();
  ctx.fillStyle = '#ECECEE';
  ctx.beginPath();
  ctx.roundRect(x, y, w, 56, [20, 20, 0, 0]);
  ctx.fill();
  ['#FF5F57', '#FEBC2E', '#28C840'].forEach((c, i) => {
    ctx.fillStyle = c;
    ctx.beginPath();
    ctx.arc(x + 40 + i * 40, y + 28, 12, 0, 2 * Math.PI);
    ctx.fill();
  });
  ctx.fillStyle = '#F3F4F6';
  ctx.fillRect(x, y + 56, w * 0.22, h - 56);
  ctx.fillStyle = '#6B7280';
  for (let i = 0; i < 6; i++) ctx.fillRect(x + w * 0.26, y + 120 + i * (h / 7), w * 0.68, h / 14);
  return png(canvas, MW, MH);
}

// Design read 2026-11-29: a Mac screenshot of a window centred on a desktop was taken for a
// device frame on a background (its edges ran 76 % of the height at one distance from both
// sides, flat wallpaper outside), and so shown unframed as a marketing picture.
describe('a Mac window on a desktop', () => {
  it('is an app screen, centred or not quite', async () => {
    for (const box of [
      [0.14, 0.12, 0.72, 0.76],
      [0.2, 0.2, 0.6, 0.7],
    ] as [number, number, number, number][]) {
      const s = await read(await macPicture(box));
      expect(s, JSON.stringify(s)).toMatchObject({ framed: false, caption: null });
    }
  });

  it('inside a drawn laptop is still a marketing picture', async () => {
    const s = await read(await macPicture([0.12, 0.1, 0.76, 0.8], true));
    expect(s.framed, JSON.stringify(s)).toBe(true);
  });

  it('is framed in a Mac window on its slide, not shown as a card', async () => {
    const [shot] = await renderPool().renderSlides({
      device: 'mac',
      slides: [slide(0, 'Your Notes, Sorted', 'headline-top')],
      screens: [await macPicture([0.14, 0.12, 0.72, 0.76])],
    });
    expect(shot.lint.marketingImage).toBeNull();
  });
});

describe('in a set', () => {
  const pool = renderPool();

  it('a captioned listing picture is shown whole and unframed, with a warning; an app screen with a dark header is framed', async () => {
    const [captioned, app] = await pool.renderSlides({
      device: 'iphone-63',
      slides: [slide(0, 'Plan Every Trip', 'headline-top'), slide(1, 'Your Inbox, Sorted', 'headline-top')],
      screens: [
        await pictureOf('a caption above an inset screen, on a gradient'),
        await pictureOf('a dark header with a title over a white list'),
      ],
    });
    expect(captioned.lint.marketingImage).toMatch(/caption band above/);
    // The product is on the slide: the picture, whole (nothing cut), not a text slide.
    expect(captioned.lint.screenCroppedPct).toBeLessThanOrEqual(0.5);
    expect(app.lint.marketingImage).toBeNull();
    expect(app.lint.screenCroppedPct).not.toBeNull();
  });
});
