/**
 * What the stores accept, checked on the PNG bytes themselves (the header and chunk list), so a
 * job can refuse to deliver a picture a store would reject.
 */
import { crc32 } from 'node:zlib';
import { DEVICES, type Device } from '../planning/types.ts';

export const MAX_BYTES = 8 * 1024 * 1024;
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

// App Store Connect's accepted sizes per slot (portrait; landscape is the same swapped). A 6.7"
// picture goes in the 6.9" slot, which takes all three sizes.
const SIX_NINE = [
  [1320, 2868],
  [1290, 2796],
  [1260, 2736],
];
const APPLE_SIZES: Partial<Record<Device, number[][]>> = {
  'iphone-69': SIX_NINE,
  'iphone-67': SIX_NINE,
  'iphone-65': [
    [1242, 2688],
    [1284, 2778],
  ],
  'ipad-pro': [
    [2064, 2752],
    [2048, 2732],
  ],
};

interface PngInfo {
  width: number;
  height: number;
  bitDepth: number;
  colourType: number;
  chunks: string[];
}

function readPng(png: Buffer): PngInfo | string {
  if (png.length < 33 || !png.subarray(0, 8).equals(SIGNATURE)) return 'not a PNG file';
  const chunks: string[] = [];
  let off = 8;
  while (off + 12 <= png.length) {
    const len = png.readUInt32BE(off);
    const type = png.toString('latin1', off + 4, off + 8);
    if (off + 12 + len > png.length) return `truncated ${type} chunk`;
    if (crc32(png.subarray(off + 4, off + 8 + len)) !== png.readUInt32BE(off + 8 + len)) return `bad CRC in ${type} chunk`;
    chunks.push(type);
    off += 12 + len;
    if (type === 'IEND') break;
  }
  if (chunks[0] !== 'IHDR') return 'the first chunk is not IHDR';
  if (chunks.at(-1) !== 'IEND') return 'no IEND chunk: the file is truncated';
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20), bitDepth: png[24], colourType: png[25], chunks };
}

/** The store rules a PNG breaks for a device; empty when it passes. */
export function checkStoreRules(png: Buffer, device: Device): string[] {
  const spec = DEVICES[device];
  if (!spec) return [`unknown device ${String(device)}`];
  const info = readPng(png);
  if (typeof info === 'string') return [info];
  const problems: string[] = [];
  if (png.length > MAX_BYTES) problems.push(`${png.length} bytes is over the 8 MB limit`);
  if (info.bitDepth !== 8) problems.push(`bit depth ${info.bitDepth}, not 8`);
  if (info.colourType === 4 || info.colourType === 6 || info.chunks.includes('tRNS')) problems.push('has an alpha channel');
  else if (info.colourType !== 2) problems.push(`colour type ${info.colourType}, not RGB`);
  const { width: w, height: h } = info;
  if (spec.store === 'app-store') {
    const sizes = APPLE_SIZES[device] ?? [[spec.width, spec.height]];
    if (!sizes.some(([a, b]) => (w === a && h === b) || (w === b && h === a))) {
      problems.push(
        `${w}×${h} is not a size the ${spec.slot} slot accepts (${sizes.map(([a, b]) => `${a}×${b}`).join(', ')}, or landscape)`,
      );
    }
  } else {
    const [short, long] = w < h ? [w, h] : [h, w];
    if (short < 320 || long > 3840) problems.push(`${w}×${h}: Google Play needs each side between 320 and 3840 px`);
    if (long > 2 * short) problems.push(`${w}×${h}: Google Play needs the long side at most twice the short one`);
  }
  return problems;
}
