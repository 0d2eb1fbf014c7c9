/** Which device family an uploaded screen belongs to, when the uploader does not say. */
import type { ScreenshotFamily } from './listing.ts';

export const SCREEN_FAMILIES = ['iphone', 'ipad', 'mac', 'android-phone', 'android-tablet'] as const satisfies readonly ScreenshotFamily[];

// Phones are 16:9 or taller (1.78 to 2.2); tablets 4:3 to 16:10 (1.33 to 1.6). The same cut as
// the Play reader uses for the listing's own screenshots.
const TABLET_MAX_ASPECT = 1.62;
// A Mac's screenshots are 16:10 and landscape (2880×1800 to 1280×800): an iPad's landscape
// screens are 4:3 (1.33), so a landscape screen of 3:2 or wider is a Mac app's.
const MAC_MIN_ASPECT = 1.5;

/**
 * By the aspect ratio, and by the app's stores for the platform: an app with an App Store listing
 * gets iPhone or iPad, an Android-only app Android phone or tablet. An app in both stores whose
 * screens are for Android says so with `?family=`. A landscape screen of 3:2 to 16:10 for an App
 * Store app is a Mac's (an iPad's landscape screen is 4:3).
 */
export function inferFamily(width: number, height: number, platforms: { ios: boolean; android: boolean }): ScreenshotFamily {
  const tablet = Math.max(width, height) / Math.min(width, height) < TABLET_MAX_ASPECT;
  const apple = platforms.ios || !platforms.android;
  if (apple && width > height && width / height >= MAC_MIN_ASPECT && tablet) return 'mac';
  if (apple) return tablet ? 'ipad' : 'iphone';
  return tablet ? 'android-tablet' : 'android-phone';
}
