/**
 * An app's brand colours from its icon: the icon is where an app's designer already chose them.
 * sharp shrinks the icon to a few thousand pixels; they are counted in a 4-bit-per-channel
 * histogram and each bucket is scored by how many pixels it has and how colourful it is, so that
 * the white or grey plate many icons sit on does not win over the colour that is the brand. The
 * winner is the primary; the best bucket of another hue (or, for a one-colour icon, a neighbour
 * of the primary on the colour wheel) is the secondary. Both are then made readable (./palette.ts).
 * A vivid bucket of a hue far from the primary's is the accent.
 */
import sharp from 'sharp';
import { rgbToHsl, toHex, type Rgb } from '../core/colour.ts';
import { accessible, companion, type BrandPalette } from './palette.ts';

interface Bucket {
  count: number;
  sum: Rgb;
}

const SAMPLE = 64;
/** Hue difference (degrees) beyond which a second colour reads as a colour of its own. */
const OTHER_HUE = 28;
/**
 * And beyond which it no longer makes a gradient with the first: blue into orange passes through
 * grey. Such an icon's brand is its first colour and a neighbour of it.
 */
const GRADIENT_HUE = 75;

const hueDistance = (a: number, b: number) => Math.min(Math.abs(a - b), 360 - Math.abs(a - b));

/** The icon's pixels, counted: transparent pixels are no part of the brand. */
async function histogram(icon: Buffer | Uint8Array): Promise<Bucket[]> {
  const { data, info } = await sharp(icon, { limitInputPixels: 40_000_000 })
    .resize(SAMPLE, SAMPLE, { fit: 'inside' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const buckets = new Map<number, Bucket>();
  for (let i = 0; i < data.length; i += info.channels) {
    if (data[i + 3] < 128) continue;
    const key = ((data[i] >> 4) << 8) | ((data[i + 1] >> 4) << 4) | (data[i + 2] >> 4);
    const b = buckets.get(key) ?? { count: 0, sum: [0, 0, 0] };
    b.count++;
    b.sum[0] += data[i];
    b.sum[1] += data[i + 1];
    b.sum[2] += data[i + 2];
    buckets.set(key, b);
  }
  return [...buckets.values()];
}

interface Candidate {
  rgb: Rgb;
  hsl: [number, number, number];
  count: number;
  score: number;
}

/** Colourfulness that counts: saturation is meaningless near black and white. */
function vividness([, s, l]: [number, number, number]): number {
  return s * (1 - Math.abs(2 * l - 1));
}

function candidates(buckets: Bucket[]): Candidate[] {
  const total = buckets.reduce((n, b) => n + b.count, 0) || 1;
  return buckets
    .map((b) => {
      const rgb = b.sum.map((c) => c / b.count) as Rgb;
      const hsl = rgbToHsl(rgb);
      // A grey plate covering most of the icon still loses to a colour covering a fifth of it.
      const score = (b.count / total) * (0.08 + vividness(hsl));
      return { rgb, hsl, count: b.count, score };
    })
    .sort((a, b) => b.score - a.score);
}

/** The brand colours of an icon (PNG, JPEG or WebP bytes). Throws when the bytes are not an image. */
export async function paletteFromIcon(icon: Buffer | Uint8Array): Promise<BrandPalette> {
  const ranked = candidates(await histogram(icon));
  if (ranked.length === 0) throw new Error('the icon has no opaque pixels');
  const first = ranked[0];
  const colourful = vividness(first.hsl) > 0.12;
  const second = ranked.find(
    (c) =>
      c !== first &&
      c.count >= first.count * 0.05 &&
      (colourful
        ? vividness(c.hsl) > 0.12 && hueDistance(c.hsl[0], first.hsl[0]) >= OTHER_HUE && hueDistance(c.hsl[0], first.hsl[0]) <= GRADIENT_HUE
        : Math.abs(c.hsl[2] - first.hsl[2]) > 0.15),
  );
  // A vivid colour of its own hue, too far from the first for a gradient (an orange detail on a
  // blue icon): the icon's accent. Without one the renderer derives it from the primary.
  const accent = ranked.find(
    (c) => c !== first && c.count >= first.count * 0.03 && vividness(c.hsl) > 0.25 && hueDistance(c.hsl[0], first.hsl[0]) > GRADIENT_HUE,
  );
  const palette = accessible(toHex(first.rgb), second ? toHex(second.rgb) : companion(toHex(first.rgb)));
  return accent ? { ...palette, accent: toHex(accent.rgb) } : palette;
}
