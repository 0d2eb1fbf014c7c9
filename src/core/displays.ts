/**
 * The frame models as data: per kind of device, the display's corner radius, the bezel and rim,
 * the cut-out, the buttons and the aspect range of the family's current displays; and the display
 * a given screen is shown in. A device (core/set.ts DEVICES) names its model.
 */
import { DEVICES, type Device } from './devices.ts';

type Cutout = 'island' | 'notch' | 'hole' | 'bezel-camera' | 'home-button' | 'none';

export interface FrameSpec {
  /** Display corner radius / screen width (Apple's _displayCornerRadius in points / width in points). */
  radius: number;
  /** Black border around the screen. */
  bezel: number;
  /** Metal edge outside the bezel. */
  rim: number;
  cutout: Cutout;
  buttons: 'iphone' | 'android' | 'none';
  /**
   * Height / width of the displays this frame stands for (portrait), narrowest to tallest: a screen
   * whose aspect is in the range is shown whole, in a display of its own aspect.
   */
  aspects: readonly [number, number];
  /** The display drawn when the slide has no screen. */
  aspect: number;
  /**
   * Extra border at both ends of the long side, per pixel of the screen's short side: the
   * forehead and chin of a phone with a home button. Absent: none.
   */
  chin?: number;
  /** The body's corner radius per pixel of the screen's short side, when it does not follow the display's (square-cornered displays). */
  corner?: number;
  /**
   * `window`: a Mac app's window, frameless: rounded corners, a hairline edge and a soft, deep
   * shadow, no bezel or rim (the Mac App Store shows apps as windows, not as a laptop). Its
   * displays are landscape. Absent: a device.
   */
  body?: 'window';
  /**
   * A window's title bar above its content, per pixel of the screen's short side (macOS: 28 pt on
   * a 900 pt high window), with the three traffic-light buttons: what makes a frameless rectangle
   * read as a Mac app's window. Absent: none.
   */
  titleBar?: number;
}

const IPHONE = [2.16, 2.18] as const;

// iPhone 16 Pro Max 62 pt of 440, 16 Pro 62 of 402; 14/15 Pro Max 55 of 430; XS/11 Pro Max 39 of
// 414 (a notch); iPad Pro 13" 18 of 1032. Android phones from 16:9 to 21:9 (a Pixel or Galaxy
// is 20:9), tablets from 4:3 to 16:9 (16:10 the most common).
export const FRAMES = {
  'iphone-island-69': {
    radius: 62 / 440,
    bezel: 0.032,
    rim: 0.012,
    cutout: 'island',
    buttons: 'iphone',
    aspects: IPHONE,
    aspect: 2868 / 1320,
  },
  'iphone-island-67': {
    radius: 55 / 430,
    bezel: 0.036,
    rim: 0.012,
    cutout: 'island',
    buttons: 'iphone',
    aspects: IPHONE,
    aspect: 2796 / 1290,
  },
  'iphone-island-63': {
    radius: 62 / 402,
    bezel: 0.034,
    rim: 0.012,
    cutout: 'island',
    buttons: 'iphone',
    aspects: IPHONE,
    aspect: 2622 / 1206,
  },
  // An iPhone with a Home button (6 Plus to 8 Plus, and the 4.7" ones): a 16:9 display with square
  // corners; 78.1 × 158.4 mm around a 68.5 × 121.8 mm screen, so 4.8 mm at the sides and 18.3 mm
  // above and below (0.07 and 0.27 of the screen's width), corners of ~10 mm.
  'iphone-home': {
    radius: 0,
    bezel: 0.058,
    rim: 0.012,
    chin: 0.197,
    corner: 0.15,
    cutout: 'home-button',
    buttons: 'iphone',
    aspects: [1.74, 1.8],
    aspect: 2208 / 1242,
  },
  'iphone-notch': { radius: 39 / 414, bezel: 0.04, rim: 0.012, cutout: 'notch', buttons: 'iphone', aspects: IPHONE, aspect: 2688 / 1242 },
  ipad: {
    radius: 18 / 1032,
    bezel: 0.028,
    rim: 0.007,
    cutout: 'bezel-camera',
    buttons: 'none',
    aspects: [1.33, 1.44],
    aspect: 2752 / 2064,
  },
  'android-phone': { radius: 0.075, bezel: 0.03, rim: 0.01, cutout: 'hole', buttons: 'android', aspects: [16 / 9, 21 / 9], aspect: 20 / 9 },
  'android-tablet': {
    radius: 0.03,
    bezel: 0.045,
    rim: 0.008,
    cutout: 'bezel-camera',
    buttons: 'none',
    aspects: [4 / 3, 16 / 9],
    aspect: 16 / 10,
  },
  // A macOS window: 10 pt corners on a 1440 pt wide window, a hairline edge. 16:10 is the Mac's
  // screenshot shape; windows from 3:2 to 16:9 are shown whole.
  'mac-window': {
    radius: 10 / 900,
    bezel: 0,
    rim: 0.0012,
    cutout: 'none',
    buttons: 'none',
    aspects: [1.5, 16 / 9],
    aspect: 16 / 10,
    body: 'window',
    titleBar: 28 / 900,
  },
} as const satisfies Record<(typeof DEVICES)[Device]['frame'] | 'iphone-home', FrameSpec>;

export type FrameId = keyof typeof FRAMES;

export const frameOf = (device: Device): FrameSpec => FRAMES[DEVICES[device].frame];

/**
 * The other frames a device's slides may draw, for screens of a shape its own frame has no
 * display for: an older iPhone's 16:9 screen in a phone with a Home button (listings still carry
 * 1242×2208 shots), a phone's screen on a Play tablet slot in a phone (a tablet stretched to a
 * phone's shape is no device at all), a tablet's on a phone slot in a tablet.
 */
const ALTERNATES: Partial<Record<Device, FrameId[]>> = {
  'iphone-69': ['iphone-home'],
  'iphone-67': ['iphone-home'],
  'iphone-63': ['iphone-home'],
  'iphone-65': ['iphone-home'],
  'android-tablet': ['android-phone'],
  'android-phone': ['android-tablet'],
};

/** How much cropping is still "the screen, whole": beyond it the screen is not this family's. */
export const MAX_CROP = 0.05;

/** The display a screen is shown in: its orientation, aspect (long / short side) and what is cut. */
export interface Display {
  /** The frame drawn around it: the device's own, or one of its ALTERNATES for a screen of another shape. */
  frame: FrameId;
  landscape: boolean;
  /** Long side / short side of the drawn display. */
  aspect: number;
  /** Share of the screen's area cut off to fill the display (0 when its aspect is in range). */
  crop: number;
}

/**
 * The display for a screen of w × h px: the screen's own aspect when a real display of the family
 * has it, else the nearest one (the screen is cropped to it). Null size: the family's default.
 */
export function displayFor(device: Device, size: { width: number; height: number } | null): Display {
  const frame = DEVICES[device].frame;
  const f: FrameSpec = FRAMES[frame];
  // A window is landscape whatever the screen; its default display too.
  if (!size || size.width <= 0 || size.height <= 0) return { frame, landscape: f.body === 'window', aspect: f.aspect, crop: 0 };
  const landscape = size.width > size.height;
  const own = landscape ? size.width / size.height : size.height / size.width;
  const fit = (id: FrameId): Display => {
    const aspect = Math.min(FRAMES[id].aspects[1], Math.max(FRAMES[id].aspects[0], own));
    return { frame: id, landscape, aspect, crop: 1 - Math.min(own, aspect) / Math.max(own, aspect) };
  };
  const mine = fit(frame);
  if (mine.crop <= MAX_CROP) return mine;
  return (ALTERNATES[device] ?? []).map(fit).find((d) => d.crop <= MAX_CROP) ?? mine;
}
