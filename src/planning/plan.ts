/** The built-in planner: listing(s) + request → a screenshot set. Pure and deterministic. */
import { validationFailed, type FieldError } from '../problem.ts';
import { writeCaptions } from './captions.ts';
import { layoutFor, paletteFor } from './look.ts';
import { defaultRoles, findNarrative } from './narratives.ts';
import { assignScreens, primaryListing, screensFor } from './screens.ts';
import { CAPTION_LENGTHS, CAPTION_STYLES, DEFAULT_COUNT, DEVICES, MAX_COUNT, type PlanInput, type ScreenshotSetResult } from './types.ts';
import { understand } from './understand.ts';

/** Google Play shows at most this many screenshots per device type, and needs at least two. */
const PLAY_MAX_SHOTS = 8;
const PLAY_MIN_SHOTS = 2;

function validate(input: PlanInput): void {
  const errors: FieldError[] = [];
  const r = input.request;
  if (!Array.isArray(input.listings) || input.listings.length === 0) errors.push({ field: 'listings', message: 'at least one listing is needed to plan from' });
  if (!(r.device in DEVICES)) errors.push({ field: 'device', message: `must be one of ${Object.keys(DEVICES).join(', ')}` });
  if (r.captionStyle !== undefined && !(r.captionStyle in CAPTION_STYLES)) errors.push({ field: 'captionStyle', message: `must be one of ${Object.keys(CAPTION_STYLES).join(', ')}` });
  if (r.captionLength !== undefined && !(r.captionLength in CAPTION_LENGTHS)) errors.push({ field: 'captionLength', message: 'must be short or long' });
  if (r.narrativeId) {
    if (!findNarrative(r.narrativeId)) errors.push({ field: 'narrativeId', message: `unknown narrative "${r.narrativeId}"` });
  } else if (r.count !== undefined && (!Number.isInteger(r.count) || r.count < 1 || r.count > MAX_COUNT)) {
    errors.push({ field: 'count', message: `must be an integer from 1 to ${MAX_COUNT}` });
  }
  if (errors.length) throw validationFailed(errors);
}

export function planScreenshotSet(input: PlanInput): ScreenshotSetResult {
  validate(input);
  const { request } = input;
  const device = request.device;
  const spec = DEVICES[device];
  const captionStyle = request.captionStyle ?? 'aso-expert';
  const captionLength = request.captionLength ?? 'short';
  const narrative = request.narrativeId ? findNarrative(request.narrativeId) : null;
  const roles = narrative ? [...narrative.roles] : defaultRoles(request.count ?? DEFAULT_COUNT);
  const primary = primaryListing(input.listings, device);
  const u = understand(input.listings, primary, input.extraContext);
  const warnings: string[] = [];

  if (!u.rating) {
    roles.forEach((role, i) => {
      if (role !== 'social-proof') return;
      roles[i] = 'feature';
      warnings.push(
        u.ratingTooLow
          ? `Slide ${i + 1} shows a feature instead of social proof: the listing's rating is below 3.5, which would not persuade.`
          : `Slide ${i + 1} shows a feature instead of social proof: the listing has no rating yet.`,
      );
    });
  }
  const captions = writeCaptions(u, roles, captionStyle, captionLength);
  const screens = screensFor(input.listings, device);
  warnings.push(...screens.warnings);
  const urls = assignScreens(roles, screens.urls);
  if (screens.urls.length > 0 && screens.urls.length < roles.length) {
    warnings.push(`The listing has ${screens.urls.length} screenshot${screens.urls.length === 1 ? '' : 's'} for ${roles.length} slides, so some screenshots appear twice.`);
  }
  if (spec.store === 'google-play' && roles.length > PLAY_MAX_SHOTS) {
    warnings.push(`Google Play shows at most ${PLAY_MAX_SHOTS} screenshots per device type; slides ${PLAY_MAX_SHOTS + 1}–${roles.length} will not be shown.`);
  }
  if (spec.store === 'google-play' && roles.length < PLAY_MIN_SHOTS) {
    warnings.push(`Google Play needs at least ${PLAY_MIN_SHOTS} screenshots to publish a listing; this set has ${roles.length}.`);
  }
  if (!u.english) {
    warnings.push(
      `The listing is in "${u.language}", not English: captions reuse the listing's own phrases, and the ${captionStyle} voice only sets their case and punctuation (its English wording is not used). Have a fluent speaker review them.`,
    );
  }
  if (u.descriptionEmpty) {
    const from = ["the app's name", 'category', ...(u.subtitle ? ['subtitle'] : []), ...(input.extraContext?.trim() ? ['your extra context'] : [])];
    warnings.push(`The listing has no description, so captions come from ${from.slice(0, -1).join(', ')} and ${from[from.length - 1]}.`);
  }

  const palette = paletteFor(primary.category, primary.name);
  return {
    device,
    width: spec.width,
    height: spec.height,
    narrativeId: narrative?.id ?? null,
    captionStyle,
    captionLength,
    slides: roles.map((role, i) => ({
      index: i + 1,
      role,
      headline: captions[i].headline,
      subheadline: captions[i].subheadline,
      keywords: captions[i].keywords,
      screenshotUrl: urls[i],
      layout: layoutFor(role, i, urls[i] !== null),
      background: { colors: [...palette.colors] },
      textColor: palette.textColor,
    })),
    warnings,
  };
}
