/** The screenshotDisplayType values App Store Connect accepts for app screenshot sets. */
export const SCREENSHOT_DISPLAY_TYPES = [
  'APP_IPHONE_67',
  'APP_IPHONE_61',
  'APP_IPHONE_65',
  'APP_IPHONE_58',
  'APP_IPHONE_55',
  'APP_IPHONE_47',
  'APP_IPHONE_40',
  'APP_IPHONE_35',
  'APP_IPAD_PRO_3GEN_129',
  'APP_IPAD_PRO_3GEN_11',
  'APP_IPAD_PRO_129',
  'APP_IPAD_105',
  'APP_IPAD_97',
  'APP_DESKTOP',
  'APP_WATCH_ULTRA',
  'APP_WATCH_SERIES_10',
  'APP_WATCH_SERIES_7',
  'APP_WATCH_SERIES_4',
  'APP_WATCH_SERIES_3',
  'APP_APPLE_TV',
  'APP_APPLE_VISION_PRO',
] as const;

export type AppScreenshotDisplayType = (typeof SCREENSHOT_DISPLAY_TYPES)[number];

/** App Store versions' platforms the fake holds (Apple's `platform` attribute). */
export const ASC_PLATFORMS = ['IOS', 'MAC_OS'] as const;
export type AscPlatform = (typeof ASC_PLATFORMS)[number];

/**
 * The platform whose version a display type's screenshot set belongs to: Mac screenshots only in
 * the MAC_OS version, iPhone, iPad and watch ones only in the IOS version (tvOS and visionOS are
 * their own platforms, which the fake does not hold).
 */
export function platformOfDisplayType(displayType: string): string {
  if (displayType === 'APP_DESKTOP') return 'MAC_OS';
  if (displayType === 'APP_APPLE_TV') return 'TV_OS';
  if (displayType === 'APP_APPLE_VISION_PRO') return 'VISION_OS';
  return 'IOS';
}

/**
 * The portrait sizes Apple's screenshot specifications accept for the display types shotgen
 * publishes to (landscape is the same swapped); the 6.9" sizes go in APP_IPHONE_67, the 6.3" and
 * 6.1" ones in APP_IPHONE_61, the 13" iPad's in APP_IPAD_PRO_3GEN_129, the Mac's in APP_DESKTOP. Other types
 * are not checked.
 */
const ACCEPTED_SIZES: Partial<Record<AppScreenshotDisplayType, [number, number][]>> = {
  APP_IPHONE_67: [
    [1320, 2868],
    [1290, 2796],
    [1260, 2736],
  ],
  APP_IPHONE_61: [
    [1206, 2622],
    [1179, 2556],
    [1170, 2532],
    [1125, 2436],
    [1080, 2340],
  ],
  APP_IPHONE_65: [
    [1242, 2688],
    [1284, 2778],
  ],
  APP_IPAD_PRO_3GEN_129: [
    [2064, 2752],
    [2048, 2732],
  ],
  // The Mac's 16:10 sizes, landscape.
  APP_DESKTOP: [
    [2880, 1800],
    [2560, 1600],
    [1440, 900],
    [1280, 800],
  ],
};

/** Width and height from a PNG's IHDR chunk, or null for anything that is not a PNG. */
export function pngSize(bytes: Buffer): { width: number; height: number } | null {
  const isPng = bytes.length >= 24 && bytes.readUInt32BE(0) === 0x89504e47 && bytes.toString('latin1', 12, 16) === 'IHDR';
  return isPng ? { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) } : null;
}

/** The processing error App Store Connect gives a screenshot of the wrong size for its set, or null. */
export function dimensionError(displayType: string, bytes: Buffer): { code: string; description: string } | null {
  const sizes = ACCEPTED_SIZES[displayType as AppScreenshotDisplayType];
  if (!sizes) return null;
  const size = pngSize(bytes);
  if (size && sizes.some(([w, h]) => (size.width === w && size.height === h) || (size.width === h && size.height === w))) return null;
  const got = size ? `${size.width}x${size.height}` : 'not a PNG';
  return {
    code: 'IMAGE_INCORRECT_DIMENSIONS',
    description: `The dimensions of ${got} are not allowed for ${displayType}: ${sizes.map(([w, h]) => `${w}x${h}`).join(', ')} (or landscape).`,
  };
}
