import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { checkStoreRules } from '../../src/rendering/index.ts';

const png = (width: number, height: number, opts: { channels?: 3 | 4; depth?: 8 | 16 } = {}) =>
  sharp({ create: { width, height, channels: opts.channels ?? 3, background: { r: 10, g: 20, b: 30, alpha: 1 } } })
    .png(opts.depth === 16 ? { palette: false } : {})
    .toColourspace(opts.depth === 16 ? 'rgb16' : 'srgb')
    .toBuffer();

/** The PNG with a private ancillary chunk of `bytes` added before IEND (valid, just large). */
function padded(file: Buffer, bytes: number): Buffer {
  const data = Buffer.alloc(bytes);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(bytes, 0);
  head.write('zzZz', 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])));
  const iend = file.length - 12;
  return Buffer.concat([file.subarray(0, iend), head, data, crc, file.subarray(iend)]);
}

describe('checkStoreRules', () => {
  it('passes an RGB PNG of the exact size', async () => {
    expect(checkStoreRules(await png(1320, 2868), 'iphone-69')).toEqual([]);
    expect(checkStoreRules(await png(2868, 1320), 'iphone-69')).toEqual([]);
    expect(checkStoreRules(await png(1080, 1920), 'android-phone')).toEqual([]);
  });

  it('accepts a 6.7" picture in the 6.9" slot and the other way round', async () => {
    expect(checkStoreRules(await png(1290, 2796), 'iphone-69')).toEqual([]);
    expect(checkStoreRules(await png(1320, 2868), 'iphone-67')).toEqual([]);
  });

  it('refuses a size the Apple slot does not take', async () => {
    expect(checkStoreRules(await png(1242, 2688), 'iphone-69')).toEqual([
      expect.stringContaining('not a size the App Store iPhone 6.9" slot accepts'),
    ]);
    expect(checkStoreRules(await png(1320, 2868), 'ipad-pro')).toHaveLength(1);
  });

  it('refuses an alpha channel and a bit depth other than 8', async () => {
    expect(checkStoreRules(await png(1080, 1920, { channels: 4 }), 'android-phone')).toEqual(['has an alpha channel']);
    expect(checkStoreRules(await png(1080, 1920, { depth: 16 }), 'android-phone')).toEqual(['bit depth 16, not 8']);
  });

  it("applies Google Play's side and ratio limits", async () => {
    expect(checkStoreRules(await png(1080, 2400), 'android-phone')).toEqual([expect.stringContaining('at most twice')]);
    expect(checkStoreRules(await png(300, 500), 'android-phone')).toEqual([expect.stringContaining('between 320 and 3840')]);
    expect(checkStoreRules(await png(3000, 4000), 'android-tablet')).toEqual([expect.stringContaining('between 320 and 3840')]);
  });

  it('refuses a file over 8 MB, a truncated file and something that is not a PNG', async () => {
    const ok = await png(1080, 1920);
    expect(checkStoreRules(padded(ok, 8 * 1024 * 1024), 'android-phone')).toEqual([expect.stringContaining('over the 8 MB limit')]);
    expect(checkStoreRules(ok.subarray(0, ok.length - 20), 'android-phone')).toHaveLength(1);
    expect(checkStoreRules(Buffer.from('GIF89a........................................'), 'android-phone')).toEqual(['not a PNG file']);
    const bad = Buffer.from(ok);
    bad[40] ^= 0xff;
    expect(checkStoreRules(bad, 'android-phone')).toEqual([expect.stringContaining('bad CRC')]);
  });
});
