/**
 * How wide a slide is shown where shoppers decide: in the store's search results, before anyone
 * opens the product page. A headline must still read there (docs/typography.md has the sources).
 *
 * - App Store on iPhone: the first three portrait screenshots side by side across the result,
 *   (393 pt screen − 2 × 20 pt margins − 2 × 8 pt gaps) / 3 ≈ 112 pt each; a landscape one alone
 *   across the result, 353 pt.
 * - App Store on iPad: results in two columns of ~480 pt, three portrait shots each ≈ 150 pt; a
 *   landscape one ≈ 300 pt.
 * - Mac App Store: a landscape shot in a result tile ≈ 240 pt.
 * - Google Play on a phone (360 dp, the commonest width): portrait shots in a row,
 *   (360 − 2 × 16 − 2 × 8) / 3 ≈ 104 dp; a landscape one ≈ 240 dp.
 * - Google Play on a tablet: portrait ≈ 150 dp, landscape ≈ 300 dp.
 */
import { DEVICES, type Device } from '../core/devices.ts';

const PORTRAIT_PT: Record<string, { portrait: number; landscape: number }> = {
  iphone: { portrait: 112, landscape: 353 },
  ipad: { portrait: 150, landscape: 300 },
  mac: { portrait: 150, landscape: 240 },
  'android-phone': { portrait: 104, landscape: 240 },
  'android-tablet': { portrait: 150, landscape: 300 },
};

/** The least a headline may measure in search results: under it, a caption is a grey smear. */
export const MIN_HEADLINE_SEARCH_PT = 7;

/** The slide's width in search results, in points (dp on Android), for a slide `width` × `height`. */
export function searchWidthPt(device: Device, width: number = DEVICES[device].width, height: number = DEVICES[device].height): number {
  const sizes = PORTRAIT_PT[DEVICES[device].family] ?? PORTRAIT_PT.iphone;
  return width > height ? sizes.landscape : sizes.portrait;
}

/** A size in the pixels of a `size` slide (the device's own by default; a landscape one is shown wider) as points in search results, to a tenth. */
export function searchPt(device: Device, px: number, size: { width: number; height: number } = DEVICES[device]): number {
  return Math.round(((px * searchWidthPt(device, size.width, size.height)) / size.width) * 10) / 10;
}
