/**
 * A set from the user's own captions: their words exactly as written, one slide each; the planner
 * only picks the colours, the layout and, where no screenId is given, the listing's screenshot.
 */
import { primaryListing } from '../core/listing.ts';
import { slideKeywords } from '../captions/rules/writer.ts';
import { layoutFor, paletteFor } from './look.ts';
import { assignScreens, orientationFor, screensFor } from './screens.ts';
import { askedOrientation, slideSize, slideSizeFor } from '../core/orientation.ts';
import { planDefaults, type PlanInput, type ScreenshotSetResult } from '../core/set.ts';
import { understand } from '../captions/understand.ts';

export function planOwnSlides(input: PlanInput): ScreenshotSetResult {
  const { request } = input;
  const own = request.slides ?? [];
  const primary = primaryListing(input.listings, request.device);
  const u = understand(input.listings, primary, input.extraContext);
  const roles = own.map((_, i) => (i === 0 ? 'hero' : 'feature'));
  // Slides with their own screen keep it; the others share the listing's shots among themselves.
  const open = own.map((s, i) => (s.screenId ? -1 : i)).filter((i) => i >= 0);
  const screens = screensFor(input.listings, request.device, askedOrientation(request.device, request.orientation, request.size));
  const orientation = input.uploadedScreens
    ? orientationFor(request.device, askedOrientation(request.device, request.orientation, request.size), !!input.uploadedLandscape)
    : screens.orientation;
  const shots = assignScreens(
    open.map((i) => roles[i]),
    screens.urls,
  );
  const urlFor = new Map(open.map((i, k) => [i, shots[k]]));
  const palette = paletteFor(input.brand, primary.name);
  const { captionStyle, captionLength } = planDefaults(request);
  return {
    device: request.device,
    // The size asked for (validated at the API), else the device's own, turned for a landscape set.
    ...(slideSizeFor(request.device, request.size, orientation) ?? slideSize(request.device, orientation)),
    narrativeId: null,
    captionStyle,
    captionLength,
    slides: own.map((s, i) => {
      const url = urlFor.get(i) ?? null;
      return {
        index: i + 1,
        role: roles[i],
        captionSource: 'user' as const,
        headline: s.headline,
        subheadline: s.subheadline ?? null,
        keywords: slideKeywords(u, `${s.headline} ${s.subheadline ?? ''}`, 3),
        screenshotUrl: url,
        layout: layoutFor(roles[i], i, url !== null || s.screenId !== undefined),
        background: { colors: [...palette.colors] },
        textColor: palette.textColor,
        ...(s.screenId ? { screenId: s.screenId } : {}),
        ...(s.focus ? { focus: { ...s.focus } } : {}),
      };
    }),
    warnings: open.length > 0 ? screens.warnings : [],
  };
}
