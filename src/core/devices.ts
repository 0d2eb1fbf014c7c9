/**
 * Every device a set can be made for, with its store facts: the public `device` values, their
 * sizes, family, store slot and frame. The API schemas and the OpenAPI enums are built from these
 * constants, so they cannot drift.
 */
import type { ScreenshotFamily } from './listing.ts';

/**
 * Every device a set can be made for, as data: a new device is one entry here. `frame` names the
 * renderer's frame model (src/rendering/frames.ts); `accepts` lists every size the store slot takes
 * (portrait; landscape is the same swapped), the device's own size first.
 */
export const DEVICES = {
  'iphone-69': {
    width: 1320,
    height: 2868,
    family: 'iphone',
    store: 'app-store',
    slot: 'App Store iPhone 6.9"',
    label: 'iPhone 6.9″',
    frame: 'iphone-island-69',
    accepts: [
      [1320, 2868],
      [1290, 2796],
      [1260, 2736],
    ],
  },
  'iphone-67': {
    width: 1290,
    height: 2796,
    family: 'iphone',
    store: 'app-store',
    slot: 'App Store iPhone 6.7"',
    label: 'iPhone 6.7″',
    frame: 'iphone-island-67',
    accepts: [
      [1290, 2796],
      [1320, 2868],
      [1260, 2736],
    ],
  },
  'iphone-63': {
    width: 1206,
    height: 2622,
    family: 'iphone',
    store: 'app-store',
    slot: 'App Store iPhone 6.3"',
    label: 'iPhone 6.3″',
    frame: 'iphone-island-63',
    accepts: [
      [1206, 2622],
      [1179, 2556],
    ],
  },
  'iphone-65': {
    width: 1242,
    height: 2688,
    family: 'iphone',
    store: 'app-store',
    slot: 'App Store iPhone 6.5"',
    label: 'iPhone 6.5″',
    frame: 'iphone-notch',
    accepts: [
      [1242, 2688],
      [1284, 2778],
    ],
  },
  'ipad-13': {
    width: 2064,
    height: 2752,
    family: 'ipad',
    store: 'app-store',
    slot: 'App Store iPad 13"',
    label: 'iPad 13″',
    frame: 'ipad',
    accepts: [
      [2064, 2752],
      [2048, 2732],
    ],
  },
  'ipad-pro': {
    width: 2064,
    height: 2752,
    family: 'ipad',
    store: 'app-store',
    slot: 'App Store iPad 13" (earlier name of ipad-13)',
    label: 'iPad Pro 13″',
    frame: 'ipad',
    accepts: [
      [2064, 2752],
      [2048, 2732],
    ],
  },
  'android-phone': {
    width: 1080,
    height: 1920,
    family: 'android-phone',
    store: 'google-play',
    slot: 'Google Play phone, 9:16',
    label: 'Android phone',
    frame: 'android-phone',
    accepts: [],
  },
  'android-tablet': {
    width: 1440,
    height: 2560,
    family: 'android-tablet',
    store: 'google-play',
    slot: 'Google Play tablet, 9:16',
    label: 'Android tablet',
    frame: 'android-tablet',
    accepts: [],
  },
} as const satisfies Record<
  string,
  {
    width: number;
    height: number;
    family: ScreenshotFamily;
    store: string;
    slot: string;
    label: string;
    frame: string;
    accepts: readonly (readonly [number, number])[];
  }
>;

export type Device = keyof typeof DEVICES;
export const DEVICE_IDS = Object.keys(DEVICES) as Device[];
