/** Which store screenshots a set frames, and in what order. */
import type { Listing, Screenshot, ScreenshotFamily } from '../core/listing.ts';
import { DEVICES, type Device } from '../core/devices.ts';
import type { Role } from '../core/narratives.ts';

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
  urls: string[];
  warnings: string[];
}

const landscape = (s: Screenshot) => s.width !== null && s.height !== null && s.width > s.height;

/** Portrait shots for portrait slides: a landscape shot squeezed into a portrait frame is unusable. */
function portraitOnly(shots: Screenshot[], label: string, device: Device, warnings: string[]): string[] {
  const upright = shots.filter((s) => !landscape(s));
  const skipped = shots.length - upright.length;
  if (skipped > 0 && upright.length > 0)
    warnings.push(`${skipped} of the listing's ${label} screenshots are landscape and are left out: the ${device} slides are portrait.`);
  if (skipped > 0 && upright.length === 0)
    warnings.push(
      `The listing has no portrait ${label} screenshots (its ${skipped} are landscape), so the ${device} slides use the text-only layout; upload portrait screens for this set.`,
    );
  return upright.map((s) => s.url);
}

/** The shots a device's slides can show: a Mac's slides and windows are landscape, the others portrait. */
function usable(shots: Screenshot[], label: string, device: Device, warnings: string[]): string[] {
  if (DEVICES[device].width > DEVICES[device].height) return shots.map((s) => s.url);
  return portraitOnly(shots, label, device, warnings);
}

export function screensFor(listings: Listing[], device: Device): Screens {
  const { family, store } = DEVICES[device];
  // An app's own listing has no screenshots by design: its sets frame uploaded screens, and there is nothing to warn about.
  if (listings.every((l) => l.own)) return { urls: [], warnings: [] };
  const ordered = [...listings.filter((l) => l.store === store), ...listings.filter((l) => l.store !== store)];
  const warnings: string[] = [];
  if (!listings.some((l) => l.store === store)) {
    warnings.push(
      `The app has no ${STORE_LABEL[store]} listing; this ${device} set is planned from its ${STORE_LABEL[listings[0].store]} listing.`,
    );
  }
  const own = ordered.find((l) => l.screenshots[family].length > 0);
  if (own) return { urls: usable(own.screenshots[family], FAMILY_LABEL[family], device, warnings), warnings };
  const fallback = FALLBACK[family];
  const other = fallback ? ordered.find((l) => l.screenshots[fallback].length > 0) : undefined;
  if (fallback && other) {
    warnings.push(
      `The listing has no ${FAMILY_LABEL[family]} screenshots; its ${FAMILY_LABEL[fallback]} screenshots are used instead, so check that they suit the ${device} frame.`,
    );
    return { urls: usable(other.screenshots[fallback], FAMILY_LABEL[fallback], device, warnings), warnings };
  }
  warnings.push(
    `The listing has no ${FAMILY_LABEL[family]} screenshots, so the ${device} slides have no screenshot and use the text-only layout.`,
  );
  return { urls: [], warnings };
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
