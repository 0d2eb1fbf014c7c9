import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { APP_STORE_DISPLAY_TYPES, PLAY_IMAGE_TYPES } from '../../src/publishing/adapter.ts';
import { dimensionError, SCREENSHOT_DISPLAY_TYPES } from '../../src/fake-stores/asc-display-types.ts';
import { DEVICE_IDS, DEVICES } from '../../src/core/devices.ts';

const blank = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 1, g: 2, b: 3 } } })
    .png({ compressionLevel: 0 })
    .toBuffer();

describe('where each device publishes', () => {
  it('gives every App Store device a screenshotDisplayType that takes its sizes, and every Play device an image type', async () => {
    for (const device of DEVICE_IDS) {
      const d = DEVICES[device];
      if (d.store === 'google-play') {
        expect(PLAY_IMAGE_TYPES[device], device).toMatch(/Screenshots$/);
        continue;
      }
      const type = APP_STORE_DISPLAY_TYPES[device];
      expect(type, device).toBeDefined();
      expect(SCREENSHOT_DISPLAY_TYPES as readonly string[]).toContain(type);
      // The fake checks sizes as Apple's specifications give them: the device's own size and every
      // size it accepts must go in the slot it publishes to.
      for (const [w, h] of [[d.width, d.height], ...d.accepts])
        expect(dimensionError(type!, await blank(w, h)), `${device} ${w}x${h} in ${type}`).toBeNull();
    }
    expect(APP_STORE_DISPLAY_TYPES).toMatchObject({
      'iphone-69': 'APP_IPHONE_67',
      'iphone-67': 'APP_IPHONE_67',
      'iphone-65': 'APP_IPHONE_65',
      'iphone-63': 'APP_IPHONE_61',
      'ipad-13': 'APP_IPAD_PRO_3GEN_129',
      'ipad-pro': 'APP_IPAD_PRO_3GEN_129',
      mac: 'APP_DESKTOP',
    });
  });

  it('the fake refuses a size its display type does not take', async () => {
    expect(dimensionError('APP_IPHONE_61', await blank(1290, 2796))?.code).toBe('IMAGE_INCORRECT_DIMENSIONS');
    expect(dimensionError('APP_IPAD_PRO_3GEN_129', await blank(1206, 2622))?.code).toBe('IMAGE_INCORRECT_DIMENSIONS');
  });
});
