/**
 * Set level: what only a planned set shows. A caption cannot be judged on it, so the writers do not
 * ask it; the corpus report and anything holding a finished set does (./check.ts, `checkSet`).
 */
import { primaryListing } from '../../core/listing.ts';
import { type PlanInput, type ScreenshotSetResult } from '../../core/set.ts';
import { DEVICES } from '../../core/devices.ts';
import type { Finding } from './findings.ts';

/** The screens findings of a planned set, per slide. */
export function screensFindings(input: PlanInput, result: ScreenshotSetResult): Finding[][] {
  const device = DEVICES[result.device];
  const primary = primaryListing(input.listings, result.device);
  // A shot of the slides' orientation (landscape slides: a game's, a Mac's) fits them best; one of the
  // other orientation is shown (turned device) only once those run out, before any repeats.
  const wide = result.width > result.height;
  const fits = (s: { width?: number | null; height?: number | null }) => !(s.width && s.height) || s.width > s.height === wide;
  const family = input.listings.flatMap((l) => l.screenshots[device.family]);
  const usable = new Set(family.map((s) => s.url));
  const fitting = new Set(family.filter(fits).map((s) => s.url));
  const shots = new Map(input.listings.flatMap((l) => Object.values(l.screenshots).flat()).map((s) => [s.url, s]));
  const used = new Set(result.slides.map((s) => s.screenshotUrl));
  const unwarnedMac =
    primary.platform === 'mac' &&
    device.store === 'app-store' &&
    device.family !== 'mac' &&
    !result.warnings.some((w) => /\bMac\b/.test(w));
  return result.slides.map((s, i) => {
    const out: Finding[] = [];
    const add = (message: string) => out.push({ id: 'screens', field: 'screenshot', message });
    if (s.screenshotUrl) {
      const earlier = result.slides.slice(0, i).some((p) => p.screenshotUrl === s.screenshotUrl);
      if (earlier && [...usable].some((u) => !used.has(u))) add('the screenshot is framed again while others go unused');
      const shot = shots.get(s.screenshotUrl);
      if (shot && !fits(shot) && [...fitting].some((u) => !used.has(u)))
        add(`a ${wide ? 'portrait' : 'landscape'} screenshot on a ${wide ? 'landscape' : 'portrait'} slide while ones that fit go unused`);
    }
    if (unwarnedMac) add(`a Mac app planned for ${result.device} without a warning`);
    return out;
  });
}
