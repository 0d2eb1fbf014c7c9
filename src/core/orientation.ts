/**
 * A set's orientation: its slides upright (a phone's or a tablet's own) or turned. A landscape-first
 * app (a game, a video player) shows its landscape screens on landscape slides, as the stores
 * display them; a portrait slide would show a wide screen as a strip. CONTRACT, fourth milestone:
 * `orientation`, and a listing or upload whose screens are all landscape plans landscape slides.
 */
import { DEVICES, outputSizes, sizeName, type Device, type Size } from './devices.ts';

export const ORIENTATIONS = ['portrait', 'landscape'] as const;
export type Orientation = (typeof ORIENTATIONS)[number];

/** The device's own orientation: the Mac's is landscape, every other device's portrait. */
export const ownOrientation = (device: Device): Orientation => (DEVICES[device].width > DEVICES[device].height ? 'landscape' : 'portrait');

/**
 * Turned sizes that are not the upright one swapped: Google Play's tablet slot is 9:16 upright,
 * but tablets are 16:10 when held sideways, and 2560×1600 is the size Play's own guidance names.
 */
const TURNED: Partial<Record<Device, Size>> = { 'android-tablet': { width: 2560, height: 1600 } };

/** The slides' size in an orientation: the device's own, or turned (App Store 2868×1320; Play never past 2:1). */
export function slideSize(device: Device, orientation: Orientation = ownOrientation(device)): Size {
  const { width, height } = DEVICES[device];
  if (orientation === ownOrientation(device)) return { width, height };
  return TURNED[device] ?? { width: height, height: width };
}

/** The slides' size for a request's `size` in an orientation; null when the device offers no such size. */
export function slideSizeFor(device: Device, size: string | null | undefined, orientation: Orientation | null | undefined): Size | null {
  const o = orientation ?? ownOrientation(device);
  if (o === ownOrientation(device)) {
    const sizes = outputSizes(device);
    return size ? (sizes.find((s) => sizeName(s) === size) ?? null) : sizes[0];
  }
  const turned = slideSize(device, o);
  return !size || size === sizeName(turned) ? turned : null;
}

/** Which orientation a set's slides of this size are in. */
export const orientationOf = (size: Size): Orientation => (size.width > size.height ? 'landscape' : 'portrait');

/** Why a device cannot take an orientation, or null when it can: a Mac's window has no upright slot. */
export function orientationError(device: Device, orientation: Orientation | null | undefined): string | null {
  if (orientation === 'portrait' && DEVICES[device].family === 'mac')
    return 'must be landscape for mac (the Mac App Store takes 16:10 only)';
  return null;
}

/** The orientation a request names: `orientation`, else the one its `size` is in; null when it leaves it to the screens. */
export function askedOrientation(
  device: Device,
  orientation: Orientation | null | undefined,
  size: string | null | undefined,
): Orientation | null {
  if (orientation) return orientation;
  if (!size) return null;
  return ORIENTATIONS.find((o) => slideSizeFor(device, size, o) !== null) ?? null;
}
