/**
 * Every device a set can be made for, with its store facts: the public `device` values, their
 * sizes, family, store slot and frame. The API schemas and the OpenAPI enums are built from these
 * constants, so they cannot drift.
 */
import type { ScreenshotFamily } from './listing.ts';

/**
 * Every device a set can be made for, as data: a new device is one entry here. `frame` names the
 * renderer's frame model (src/rendering/frames.ts); `accepts` lists every size the store slot takes
 * (in the device's own orientation, portrait but for the Mac; turned is the same swapped), the device's own size first.
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
  // The Mac App Store's 16:10 slot: 2880×1800 by default, the smaller sizes on request (`size`).
  mac: {
    width: 2880,
    height: 1800,
    family: 'mac',
    store: 'app-store',
    slot: 'Mac App Store, 16:10',
    label: 'Mac',
    frame: 'mac-window',
    accepts: [
      [2880, 1800],
      [2560, 1600],
      [1440, 900],
      [1280, 800],
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

export interface Size {
  width: number;
  height: number;
}

export const sizeName = (s: Size): string => `${s.width}x${s.height}`;

/**
 * The sizes a request's `size` may ask for: the slot's accepted sizes of the device's own shape
 * (within 0.1 %), so a slide drawn at the device's size is scaled to it, never stretched. Only the
 * Mac has more than its own today; a phone's other sizes differ in shape.
 */
export function outputSizes(device: Device): Size[] {
  const { width, height, accepts } = DEVICES[device];
  const own = [{ width, height }];
  const others = accepts
    .map(([a, b]) => (width > height === a > b ? { width: a, height: b } : { width: b, height: a }))
    .filter((s) => (s.width !== width || s.height !== height) && Math.abs(s.width / s.height / (width / height) - 1) < 0.001);
  return [...own, ...others];
}

/** The slide size a request asks for: its `size` ("2560x1600") when the device offers it, else the device's own; null when it does not. */
export function sizeFor(device: Device, size: string | null | undefined): Size | null {
  const sizes = outputSizes(device);
  if (!size) return sizes[0];
  return sizes.find((s) => sizeName(s) === size) ?? null;
}
