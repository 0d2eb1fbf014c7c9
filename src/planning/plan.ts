/** The built-in planner: listing(s) + request → a screenshot set. Pure and deterministic. */
import { validationFailed, type FieldError } from '../problem.ts';
import { writeCaptions } from './captions.ts';
import { layoutFor, paletteFor } from './look.ts';
import { defaultRoles, findNarrative } from './narratives.ts';
import { assignScreens, primaryListing, screensFor } from './screens.ts';
import { adaptRoles, sparseWarning } from './story.ts';
import { localesErrors } from './locales.ts';
import { planOwnSlides } from './own-slides.ts';
import {
  CAPTION_LENGTHS,
  CAPTION_STYLES,
  DEVICES,
  MAX_COUNT,
  planDefaults,
  OWN_SLIDE_LIMITS,
  type PlanInput,
  type ScreenshotSetResult,
} from './types.ts';
import { danglingWords, fitWords } from './text.ts';
import { understand } from './understand.ts';

/** Google Play shows at most this many screenshots per device type, and needs at least two. */
const PLAY_MAX_SHOTS = 8;
const PLAY_MIN_SHOTS = 2;

function validate(input: PlanInput): void {
  const errors: FieldError[] = [];
  const r = input.request;
  if (!Array.isArray(input.listings) || input.listings.length === 0)
    errors.push({ field: 'listings', message: 'at least one listing is needed to plan from' });
  if (!(r.device in DEVICES)) errors.push({ field: 'device', message: `must be one of ${Object.keys(DEVICES).join(', ')}` });
  if (r.captionStyle !== undefined && !(r.captionStyle in CAPTION_STYLES))
    errors.push({ field: 'captionStyle', message: `must be one of ${Object.keys(CAPTION_STYLES).join(', ')}` });
  if (r.captionLength !== undefined && !(r.captionLength in CAPTION_LENGTHS))
    errors.push({ field: 'captionLength', message: 'must be short or long' });
  if (r.slides) {
    if (r.slides.length < OWN_SLIDE_LIMITS.min || r.slides.length > OWN_SLIDE_LIMITS.max)
      errors.push({ field: 'slides', message: `must hold ${OWN_SLIDE_LIMITS.min} to ${OWN_SLIDE_LIMITS.max} slides` });
    r.slides.forEach((s, i) => {
      if (typeof s.headline !== 'string' || s.headline.trim().length < 1 || [...s.headline].length > OWN_SLIDE_LIMITS.headline)
        errors.push({ field: `slides/${i}/headline`, message: `must be 1 to ${OWN_SLIDE_LIMITS.headline} characters` });
      if (s.subheadline != null && [...s.subheadline].length > OWN_SLIDE_LIMITS.subheadline)
        errors.push({ field: `slides/${i}/subheadline`, message: `must be at most ${OWN_SLIDE_LIMITS.subheadline} characters` });
    });
  }
  errors.push(...localesErrors(r.locales, !!r.slides));
  if (r.narrativeId) {
    if (!findNarrative(r.narrativeId)) errors.push({ field: 'narrativeId', message: `unknown narrative "${r.narrativeId}"` });
  } else if (r.count !== undefined && (!Number.isInteger(r.count) || r.count < 1 || r.count > MAX_COUNT)) {
    errors.push({ field: 'count', message: `must be an integer from 1 to ${MAX_COUNT}` });
  }
  if (errors.length) throw validationFailed(errors);
}

export function planScreenshotSet(input: PlanInput): ScreenshotSetResult {
  validate(input);
  if (input.request.slides?.length) return planOwnSlides(input);
  const { request } = input;
  const device = request.device;
  const spec = DEVICES[device];
  const { captionStyle, captionLength, count } = planDefaults(request);
  const narrative = request.narrativeId ? findNarrative(request.narrativeId) : null;
  const asked = narrative ? [...narrative.roles] : defaultRoles(count);
  const primary = primaryListing(input.listings, device);
  const u = understand(input.listings, primary, input.extraContext);
  const warnings: string[] = [];
  // A Mac App Store listing is another platform's app: its rating and screens are not this set's.
  const otherPlatform = primary.platform === 'mac' && spec.store === 'app-store';
  if (otherPlatform) {
    warnings.push(
      `This is a Mac app's listing (${primary.name}, Mac App Store): a ${device} set cannot be submitted for it, and its Mac rating and screenshots are not used. Plan from the app's iPhone or iPad listing, or check that an iOS version exists.`,
    );
  }
  const roles = adaptRoles(asked, { ...u, rating: otherPlatform ? null : u.rating }, warnings, captionLength);

  const written = writeCaptions(otherPlatform ? { ...u, rating: null } : u, roles, captionStyle, captionLength);
  const kept = roles
    .map((role, i) => ({ role, caption: written[i] }))
    .filter((s): s is { role: string; caption: NonNullable<(typeof written)[number]> } => s.caption !== null);
  // Every set has a slide: a listing with nothing sayable still gets its name, said short.
  const max = CAPTION_LENGTHS[captionLength].headline;
  const said = [u.shortName, u.category].map((t) => fitWords(t, max, danglingWords(u.language))).find((t): t is string => !!t);
  if (kept.length === 0)
    kept.push({
      role: 'hero',
      caption: {
        headline: said ?? u.shortName.slice(0, max).trim(),
        subheadline: captionLength === 'long' ? u.category.slice(0, 100) || u.shortName.slice(0, 100) : null,
        keywords: u.keywords.slice(0, 3),
      },
    });
  // A set cut down to three slides spends them on what the app does, not on a call to action.
  const minimum = spec.store === 'google-play' ? PLAY_MIN_SHOTS : 1;
  const cta = kept.findIndex((s) => s.role === 'call-to-action');
  if (kept.length < asked.length && kept.length <= 3 && cta >= 0 && kept.length > minimum) kept.splice(cta, 1);
  if (kept.length < asked.length) {
    // Long captions can run out of subheadlines before short ones run out of ideas (a Japanese listing has no shorter forms to split).
    const madeShort =
      captionLength === 'long'
        ? writeCaptions(otherPlatform ? { ...u, rating: null } : u, roles, captionStyle, 'short').filter(Boolean).length
        : kept.length;
    warnings.push(sparseWarning(asked.length, kept.length, u.descriptionEmpty, Math.min(madeShort, asked.length)));
  }
  const finalRoles = kept.map((s) => s.role);
  const screens = otherPlatform ? { urls: [], warnings: [] } : screensFor(input.listings, device);
  warnings.push(...screens.warnings);
  const urls = assignScreens(finalRoles, screens.urls);
  if (screens.urls.length > 0 && screens.urls.length < finalRoles.length) {
    warnings.push(
      `The listing has ${screens.urls.length} screenshot${screens.urls.length === 1 ? '' : 's'} for ${finalRoles.length} slides, so some screenshots appear twice.`,
    );
  }
  if (spec.store === 'google-play' && finalRoles.length > PLAY_MAX_SHOTS) {
    warnings.push(
      `Google Play shows at most ${PLAY_MAX_SHOTS} screenshots per device type; slides ${PLAY_MAX_SHOTS + 1}–${finalRoles.length} will not be shown.`,
    );
  }
  if (spec.store === 'google-play' && finalRoles.length < PLAY_MIN_SHOTS) {
    warnings.push(`Google Play needs at least ${PLAY_MIN_SHOTS} screenshots to publish a listing; this set has ${finalRoles.length}.`);
  }
  if (!u.english) {
    warnings.push(
      `The listing is in "${u.language}", not English: captions reuse the listing's own phrases, and the ${captionStyle} voice only sets their case and punctuation (its English wording is not used). Have a fluent speaker review them.`,
    );
  }

  const palette = paletteFor(primary.category, primary.name);
  return {
    device,
    width: spec.width,
    height: spec.height,
    narrativeId: narrative?.id ?? null,
    captionStyle,
    captionLength,
    slides: kept.map(({ role, caption }, i) => ({
      index: i + 1,
      role,
      headline: caption.headline,
      subheadline: caption.subheadline,
      keywords: caption.keywords,
      screenshotUrl: urls[i],
      layout: layoutFor(role, i, urls[i] !== null),
      background: { colors: [...palette.colors] },
      textColor: palette.textColor,
    })),
    warnings,
  };
}
