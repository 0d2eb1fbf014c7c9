/** Which store screenshots a set frames, and in what order. */
import type { Listing, Screenshot, ScreenshotFamily } from '../core/listing.ts';
import { DEVICES, type Device } from '../core/devices.ts';
import type { Role } from '../core/narratives.ts';
import { ownOrientation, type Orientation } from '../core/orientation.ts';

const FAMILY_LABEL: Record<ScreenshotFamily, string> = {
  iphone: 'iPhone',
  ipad: 'iPad',
  mac: 'Mac',
  'android-phone': 'Android phone',
  'android-tablet': 'Android tablet',
};
const STORE_LABEL = { 'app-store': 'App Store', 'google-play': 'Google Play' } as const;

/**
 * Android phone and tablet shots stand in for each other (both are "Android" in the store's sense);
 * iPhone and iPad do not, because App Review rejects iPad slots that show stretched iPhone screens.
 */
const FALLBACK: Partial<Record<ScreenshotFamily, ScreenshotFamily>> = {
  'android-phone': 'android-tablet',
  'android-tablet': 'android-phone',
};

export interface Screens {
  /** The screens the slides show: those of the set's orientation first, the others only after them (before any repeats). */
  urls: string[];
  warnings: string[];
  /** The slides' orientation: the one asked for, else landscape when every shot is, else the device's own. */
  orientation: Orientation;
}

const landscape = (s: Screenshot) => s.width !== null && s.height !== null && s.width > s.height;

/**
 * The slides' orientation when the request names none: a set whose screens are all landscape (a
 * game, a video app) is landscape, as the stores show such screens; any upright screen keeps the
 * device's own. A Mac's slides are landscape whatever its windows.
 */
export function orientationFor(device: Device, asked: Orientation | null | undefined, allLandscape: boolean): Orientation {
  if (asked) return asked;
  if (ownOrientation(device) === 'landscape') return 'landscape';
  return allLandscape ? 'landscape' : 'portrait';
}

/**
 * The shots in the order the slides take them: those of the slides' orientation, then the others,
 * so a screen of the other shape is shown (in its own orientation, whole) only where the matching
 * ones run out, before any of them repeats. Leaving one out would refuse a landscape game.
 */
function usable(shots: Screenshot[], label: string, device: Device, orientation: Orientation, warnings: string[]): string[] {
  const matches = (s: Screenshot) => landscape(s) === (orientation === 'landscape');
  const [fit, other] = [shots.filter(matches), shots.filter((s) => !matches(s))];
  const turn = orientation === 'landscape' ? 'portrait' : 'landscape';
  if (other.length > 0 && fit.length > 0)
    warnings.push(
      `${other.length} of the listing's ${label} screenshots are ${turn} and the ${device} slides ${orientation}: they are shown, in a ${turn} frame, only where the ${orientation} ones run out.`,
    );
  if (other.length > 0 && fit.length === 0)
    warnings.push(
      `The listing's ${label} screenshots are all ${turn} and the ${device} slides ${orientation} (as asked): each is shown in a ${turn} frame across the slide's width; leave orientation out for ${turn} slides.`,
    );
  return [...fit, ...other].map((s) => s.url);
}

export function screensFor(listings: Listing[], device: Device, asked: Orientation | null = null): Screens {
  const { family, store } = DEVICES[device];
  // An app's own listing has no screenshots by design: its sets frame uploaded screens, and there is nothing to warn about.
  if (listings.every((l) => l.own)) return { urls: [], warnings: [], orientation: orientationFor(device, asked, false) };
  const ordered = [...listings.filter((l) => l.store === store), ...listings.filter((l) => l.store !== store)];
  const warnings: string[] = [];
  if (!listings.some((l) => l.store === store)) {
    warnings.push(
      `The app has no ${STORE_LABEL[store]} listing; this ${device} set is planned from its ${STORE_LABEL[listings[0].store]} listing.`,
    );
  }
  const framed = (shots: Screenshot[], label: string): Screens => {
    const orientation = orientationFor(device, asked, shots.length > 0 && shots.every(landscape));
    return { urls: usable(shots, label, device, orientation, warnings), warnings, orientation };
  };
  const own = ordered.find((l) => l.screenshots[family].length > 0);
  if (own) return framed(own.screenshots[family], FAMILY_LABEL[family]);
  const fallback = FALLBACK[family];
  const other = fallback ? ordered.find((l) => l.screenshots[fallback].length > 0) : undefined;
  if (fallback && other) {
    warnings.push(
      `The listing has no ${FAMILY_LABEL[family]} screenshots; its ${FAMILY_LABEL[fallback]} screenshots are used instead, each in its own device's frame.`,
    );
    return framed(other.screenshots[fallback], FAMILY_LABEL[fallback]);
  }
  warnings.push(
    `The listing has no ${FAMILY_LABEL[family]} screenshots, so the ${device} slides have no screenshot and use the text-only layout.`,
  );
  return { urls: [], warnings, orientation: orientationFor(device, asked, false) };
}

// The slides that show the product get distinct screens first; proof and the call to action reuse.
const SCREEN_PRIORITY: Record<string, number> = {
  hero: 0,
  feature: 1,
  benefit: 1,
  'how-it-works': 1,
  solution: 1,
  problem: 2,
  'social-proof': 3,
  'call-to-action': 4,
};

/** Each slide its own screen, in the listing's order by slide priority; a screen repeats only when all are used. */
export function assignScreens(roles: readonly Role[], urls: string[]): (string | null)[] {
  if (urls.length === 0) return roles.map(() => null);
  const order = roles
    .map((role, i) => ({ role, i }))
    .sort((a, b) => (SCREEN_PRIORITY[a.role] ?? 1) - (SCREEN_PRIORITY[b.role] ?? 1) || a.i - b.i);
  const out: (string | null)[] = roles.map(() => null);
  order.forEach(({ i }, k) => {
    out[i] = urls[k % urls.length];
  });
  return out;
}
