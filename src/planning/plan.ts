/** The built-in planner: listing(s) + request → a screenshot set. Pure and deterministic. */
import { primaryListing } from '../core/listing.ts';
import { layoutFor, paletteFor } from './look.ts';
import { defaultRoles, findNarrative } from '../core/narratives.ts';
import { assignScreens, orientationFor, screensFor } from './screens.ts';
import { groundingOf, listingSentences, matchScreens, shownPhrases, type ScreenWithText } from './screen-match.ts';
import { adaptRoles, insteadOfFeatureWarning, nearMissWarning } from './story.ts';
import { validate } from './validate.ts';
import { planOwnSlides } from './own-slides.ts';
import {
  CAPTION_LENGTHS,
  DEFAULT_COUNT,
  type CaptionLength,
  type CaptionStyle,
  planDefaults,
  type PlanInput,
  type ScreenshotSetResult,
} from '../core/set.ts';
import { DEVICES } from '../core/devices.ts';
import { askedOrientation, slideSize, slideSizeFor } from '../core/orientation.ts';
import { memoPerUnderstanding, understand, type Phrase, type Understanding } from '../captions/understand.ts';
import { CaptionWriter, FEATURE_ROLES, slideKeywords, type Caption } from '../captions/rules/writer.ts';
import {
  CaptionChecker,
  checkCaptions,
  nearMiss,
  type CaptionToCheck,
  type CheckContext,
  type Finding,
} from '../captions/checker/check.ts';
import { nothingToFrame } from '../core/refusal.ts';
import { refusalOf, saysNothing, unsaidFeatures } from './refuse.ts';
import { bareWarnings, setSays } from './left-out.ts';
import { screenSubheadlines } from './screen-subs.ts';
import type { Role } from '../core/narratives.ts';
import type { CaptionDraft, Written } from '../captions/draft.ts';

/** Google Play shows at most this many screenshots per device type, and needs at least two. */
const PLAY_MAX_SHOTS = 8;
const PLAY_MIN_SHOTS = 2;
/** Ideas the rule writer may try for one slide before it gives the slide up. */
const RULE_ATTEMPTS = 4;

/**
 * The set before its words are final: roles (the narrative's, adapted to what the listing can
 * prove), screens, look, and the rule writer's caption for each slide, or null where the listing has
 * nothing for it that passes the checker. The model writer (captions/model/writer.ts) fills and replaces
 * from here; `finish` makes the result.
 */
export interface Draft extends CaptionDraft {
  warnings: string[];
  /** The listing's screenshots for the device family (after the landscape filter). */
  screenCount: number;
  /** The hero's words when every caption only praised or named the app (its slide is then empty). */
  praiseOnly?: string | null;
  /** Lines only a slide saying the hero again or a purpose alone would say, dropped in a set over five slides. */
  echoed?: string[];
  finish(captions: Written[]): ScreenshotSetResult;
}

/** The listing's screenshots as screens to match, by URL, when any of them has been read. */
function storeShots(urls: string[], read: Record<string, string[]> | undefined): ScreenWithText[] | null {
  if (!read || !urls.some((u) => Object.hasOwn(read, u))) return null;
  return urls.map((url) => ({ screenId: url, text: Object.hasOwn(read, url) ? read[url] : null }));
}

/** The rule writer's captions, each one the checker passes; a slide it cannot fill so is null. */
function writeRules(
  u: Understanding,
  roles: Role[],
  style: CaptionStyle,
  length: CaptionLength,
  ctx: CheckContext,
  subheadlines: 'all' | 'hero',
  shown: ReadonlySet<Phrase>,
  purposesUnder = true,
): (Caption | null)[] {
  const writer = new CaptionWriter(u, style, length, !roles.includes('how-it-works'), subheadlines, shown);
  writer.purposesUnder = purposesUnder;
  const checker = new CaptionChecker(ctx);
  // A set is mostly whole captions: near misses on fewer than half of the slides after the hero.
  let nearLeft = Math.max(1, Math.floor((roles.length - 1) / 2));
  return roles.map((role, i) => {
    const featuresAfter = roles.slice(i + 1).filter((r) => FEATURE_ROLES.has(r)).length;
    // What the slide falls back to when no idea passes whole: its headline alone, where only the
    // subheadline failed (a long slide may stand on its headline); else a near miss, a caption
    // whose every finding is soft (checker/check.ts, `softFinding`), shipped with its weakness named.
    type Kept = { caption: Caption; candidate: CaptionToCheck; restore: () => void; spent: Caption };
    let alone: Kept | null = null;
    let near: Kept | null = null;
    // The writer moves on to its next idea each time it is asked: a failed caption spends its phrase.
    // A step the checker refuses is not passed over for the next one: "Step 2:" would say step 3.
    for (let attempt = 0; attempt < (role === 'how-it-works' ? 1 : RULE_ATTEMPTS); attempt++) {
      const c = writer.caption(role, i + 1, featuresAfter);
      if (!c) break;
      const candidate = { headline: c.headline, subheadline: c.subheadline, role, index: i + 1 };
      const found = checker.check(candidate);
      if (found.length === 0) {
        // What the slide's weaker ideas spent is a later slide's to say.
        for (const kept of [alone, near]) if (kept) writer.release(kept.spent);
        checker.accept(candidate);
        return c;
      }
      if (!alone && c.subheadline !== null && role !== 'hero' && found.every((f) => f.field === 'subheadline')) {
        const bare = { ...candidate, subheadline: null };
        if (checker.check(bare).length === 0)
          alone = { caption: { ...c, subheadline: null }, candidate: bare, restore: writer.snapshot(), spent: c };
      }
      // One that says the hero again is the last resort: any other near miss first.
      if (
        (!near || near.caption.restates) &&
        (nearLeft > 0 || role === 'social-proof') &&
        nearMiss(found, candidate) &&
        !(near && restates(found))
      )
        near = {
          caption: {
            ...c,
            weak: weakness(found),
            ...(restates(found) ? { restates: true as const } : {}),
            ...(heroAgain(found) ? { again: true as const } : {}),
          },
          candidate,
          restore: writer.snapshot(),
          spent: c,
        };
    }
    const fallback = alone ?? near;
    if (!fallback) return null;
    // A weak rating's proof slide takes no feature slide's share of near misses (it is one only for its figure).
    if (fallback === near && role !== 'social-proof') nearLeft--;
    // The ideas tried after the one kept are not spent: a later slide may still say them.
    fallback.restore();
    checker.accept(fallback.candidate);
    return fallback.caption;
  });
}

/** A near miss that says the hero again (checker/check.ts: a soft `echo`, a stock verb and the hero's words). */
const restates = (found: Finding[]): boolean => found.some((f) => f.id === 'echo' && f.soft === true);
/** Any near miss that says the hero again: a stock verb before its words, or a part of its line (a soft `repeat`). */
const heroAgain = (found: Finding[]): boolean => found.some((f) => (f.id === 'echo' || f.id === 'repeat') && f.soft === true);

/** A near miss's findings as the warning names them: a narrowed hero says what "feature again" would. */
const weakness = (found: Finding[]): string[] => [
  ...new Set(
    found
      .filter((f) => !(f.id === 'one-feature' && found.some((g) => g.soft)))
      // The hero said again names the narrowing it is.
      .filter((f) => !(f.id === 'repeat' && restates(found)))
      .map((f) => f.message),
  ),
];

const filledCount = (rs: (Caption | null)[]) => rs.filter((c) => c !== null).length;
/** Slides with a caption that passes whole: a near miss fills a slide, but a whole caption beats it. */
const strongCount = (rs: (Caption | null)[]) => rs.filter((c) => c !== null && !c.weak).length;

/**
 * The rule writer's set. A long set's subheadlines may say what a later slide would have headlined
 * (a sentence listing three features under the first): when that leaves slides empty, the features
 * are headlined first, subheadlines only on the hero, and each slide then gets back the first
 * pass's caption, or its subheadline under the new headline, wherever the whole set still passes.
 */
function ruleCaptions(
  u: Understanding,
  roles: Role[],
  style: CaptionStyle,
  length: CaptionLength,
  ctx: CheckContext,
  shown: ReadonlySet<Phrase>,
): (Caption | null)[] {
  const write = () => ruleCaptionsOnce(u, roles, style, length, ctx, shown);
  const ideas = [...u.phrases, ...u.steps];
  const shownAt = [...shown].map((p) => ideas.indexOf(p));
  // A shown phrase that is none of the understanding's: no key names it.
  if (shownAt.includes(-1)) return write();
  const key = JSON.stringify([
    roles,
    style,
    length,
    u.rating,
    ctx.listings.length,
    ctx.extraContext,
    ctx.device,
    ctx.captionLength,
    ctx.captionStyle,
    ctx.locale ?? null,
    ctx.screenText ?? null,
    shownAt,
  ]);
  // The understanding for another platform's listing is a copy without its rating: kept under the
  // one it was copied from, keyed with the rating it has. A copy: the kept set is never handed out.
  return [...knownRuleSets(understandingOf.get(u) ?? u, key, write)];
}

/**
 * The rule writer's sets already written. A refusal plans the default story again at every smaller
 * count, a story's swaps plan its roles again, and the plans of one listing in other stories and
 * counts ask for the same roles: the writer is pure (its inputs are the understanding, these and
 * the check context), so a set written once is the set. At most 256 sets per understanding (the
 * understanding cache keeps 64 listings); a repeat comes soon after its first, and one device's
 * voices × lengths × counts fit.
 */
const knownRuleSets = memoPerUnderstanding<(Caption | null)[]>(256);

/** An understanding without its rating (another platform's listing), to the one it was copied from. */
const understandingOf = new WeakMap<Understanding, Understanding>();

function ruleCaptionsOnce(
  u: Understanding,
  roles: Role[],
  style: CaptionStyle,
  length: CaptionLength,
  ctx: CheckContext,
  shown: ReadonlySet<Phrase>,
): (Caption | null)[] {
  const said = ruleCaptionsWith(u, roles, style, length, ctx, shown, true);
  // A purpose said under its action's headline (rules/writer.ts, `purposesUnder`) is not a slide of
  // its own; where the set then runs a slide short, the set written without it is kept: a purpose
  // on its own slide, warned, beats a set refused (issue 33: refusing cost more sets than it saved).
  if (length !== 'long' || !u.phrases.some((p) => p.purposeOf) || filledCount(said) === roles.length) return said;
  const alone = ruleCaptionsWith(u, roles, style, length, ctx, shown, false);
  return filledCount(alone) > filledCount(said) ? alone : said;
}

function ruleCaptionsWith(
  u: Understanding,
  roles: Role[],
  style: CaptionStyle,
  length: CaptionLength,
  ctx: CheckContext,
  shown: ReadonlySet<Phrase>,
  purposesUnder: boolean,
): (Caption | null)[] {
  const full = writeRules(u, roles, style, length, ctx, 'all', shown, purposesUnder);
  if (length !== 'long' || strongCount(full) === roles.length) return full;
  const lean = writeRules(u, roles, style, length, ctx, 'hero', shown, purposesUnder);
  // The lean pass when it fills more slides, or as many with fewer near misses.
  const more = filledCount(lean) - filledCount(full);
  if (more < 0 || (more === 0 && strongCount(lean) <= strongCount(full))) return full;
  // Every slide passes, or, where the slide is a near miss already, misses only soft rules.
  const passes = (set: (Caption | null)[]) => {
    const slides = set.flatMap((c, i) =>
      c ? [{ c, at: { headline: c.headline, subheadline: c.subheadline, role: roles[i], index: i + 1 } }] : [],
    );
    return checkCaptions(
      slides.map((s) => s.at),
      ctx,
    ).every((f, k) => f.length === 0 || (slides[k].c.weak !== undefined && nearMiss(f, slides[k].at)));
  };
  const out = [...lean];
  out.forEach((c, i) => {
    const first = full[i];
    // A near miss of the first pass never replaces a whole caption of this one.
    if (!c || c.subheadline !== null || !first?.subheadline || (first.weak && !c.weak)) return;
    // The first pass's whole caption where the set still passes with it, else its subheadline under this headline.
    for (const slide of [first, { ...c, subheadline: first.subheadline }]) {
      const trial = out.map((x, j) => (j === i ? slide : x));
      if (passes(trial)) {
        out[i] = slide;
        return;
      }
    }
  });
  return out;
}

export function draftScreenshotSet(input: PlanInput): Draft {
  validate(input);
  const { request } = input;
  const device = request.device;
  const spec = DEVICES[device];
  const { captionStyle, captionLength, count } = planDefaults(request);
  const narrative = request.narrativeId ? findNarrative(request.narrativeId) : null;
  const asked = narrative ? [...narrative.roles] : defaultRoles(count);
  const primary = primaryListing(input.listings, device);
  const understood = understand(input.listings, primary, input.extraContext);
  const warnings: string[] = [];
  // A Mac App Store listing is another platform's app for an iPhone or iPad set: its rating and
  // screens are not this set's. For a `mac` set they are its own. With nothing uploaded it is
  // refused as a Mac app (below, before the charge); uploaded screens of the family are the user's
  // word that an iOS version exists, so the warning says where the set goes, never that it cannot.
  const otherPlatform = primary.platform === 'mac' && spec.store === 'app-store' && spec.family !== 'mac';
  const u = otherPlatform ? { ...understood, rating: null } : understood;
  if (u !== understood) understandingOf.set(u, understood);
  if (otherPlatform) {
    warnings.push(
      `This is a Mac app's listing (${primary.name}, Mac App Store): the set frames your uploaded ${spec.family === 'ipad' ? 'iPad' : 'iPhone'} screens under captions from it, and its Mac rating and screenshots are not used. Submit it to the app's iOS version; for the Mac App Store, use the \`mac\` device.`,
    );
  }
  let roles = adaptRoles(asked, u, warnings, captionLength);
  // A caption may claim what a screen shows: the screens' text grounds it as the listing's does.
  // The listing's own screenshots (their text, once read) are the app maker's words as its description is.
  const screenText = [...(input.screenTexts ?? []).flatMap((s) => s.text ?? []), ...Object.values(input.storeScreenTexts ?? {}).flat()];
  const check: CheckContext = {
    listings: input.listings,
    extraContext: input.extraContext,
    device,
    captionLength,
    captionStyle,
    screenText,
  };
  // Uploaded screens already read, framed by what they show (not in the order the request named):
  // the features they show are the ones the rule writer says first, so each sits over its screen.
  const readScreens = !input.screensInOrder && input.screenTexts?.some((s) => s.text !== null) ? input.screenTexts : null;
  const shown = new Set(readScreens ? shownPhrases([...u.phrases, ...u.steps], readScreens, u.language) : []);
  let rules = ruleCaptions(u, roles, captionStyle, captionLength, check, shown);
  // The default story (no narrative named) may show the listing's rating where it has run out of
  // features: proof a store visitor reads, from the listing itself, instead of a slide refused.
  // In a long set a feature slide standing on its headline alone counts as run out too: the rating
  // slide says something whole where that slide would have said half.
  // Not a feature a screen shows, though: on its headline alone it still speaks of its screen.
  const shownText = new Set([...shown].map((p) => p.text));
  // A near miss that says the hero again, or only what another line is for, counts as run out as
  // well: the rating says something new.
  const echo = (c: Caption | null) => c?.restates === true || c?.again === true || c?.aside === true;
  const bare = (c: Caption | null) =>
    c === null || echo(c) || (captionLength === 'long' && c.subheadline === null && !(c.phrase && shownText.has(c.phrase)));
  const filled = (rs: (Caption | null)[]) => rs.filter((c) => c !== null).length;
  const whole = (rs: (Caption | null)[]) => rs.filter((c) => !bare(c)).length;
  const spare = roles.map((r, i) => (FEATURE_ROLES.has(r) && bare(rules[i]) ? i : -1)).reduce((a, b) => Math.max(a, b), -1);
  let proofSwapped = false;
  // The feature the rating replaces, when the writer could say it only on a headline alone: the warning says so, not "none could be said".
  // Or only as the hero's words again (a stock verb before them): the warning says that.
  const spareSaid = spare >= 0 ? (rules[spare]?.phrase ?? rules[spare]?.headline ?? null) : null;
  // Where the line was said shorter ("Download Charts" of a line too long for the headline), the warning
  // names that form too: length stopped the line, the form's echo stopped the form (ninth read).
  const spareHead = spare >= 0 ? rules[spare]?.headline : undefined;
  const shorter =
    spareSaid && spareHead && spareSaid.length > CAPTION_LENGTHS[captionLength].headline ? { form: spareHead, tooLong: captionLength } : {};
  const why =
    rules[spare]?.restates || rules[spare]?.again ? ('hero' as const) : rules[spare]?.aside ? ('aside' as const) : ('sub' as const);
  const whyNot = spareSaid ? { phrase: spareSaid, why, ...shorter } : null;
  // A named story keeps its roles, except where the slide would say the hero again with a stock verb
  // ("Download offline maps" under "Offline trail maps") or only what another line's action is for
  // ("Keep the memory" after "Add photos to each walk"): the rating says something true and new there
  // (issue 33, sixth held-out read: D and T slides a copywriter would not ship).
  const echoOnly = spare >= 0 && echo(rules[spare]);
  // Such a slide ships, warned, only in a set of the default five or fewer: a longer set is refused
  // down to the count the listing fills (held-out seventh read: T ×5, D ×2 at counts 7 and 8).
  const keep = (rs: (Caption | null)[]) => (roles.length <= DEFAULT_COUNT ? rs : rs.map((c) => (echo(c) ? null : c)));
  // A rating under 4.0 (`ratingWeak`) only as a warned last resort, in a set of the default five or fewer.
  let rated = u.rating && (!u.ratingWeak || roles.length <= DEFAULT_COUNT);
  // And after the ask: a short set that ends on the download where it ran out shows no weak rating.
  if (rated && u.ratingWeak && !narrative && spare >= 0 && !roles.includes('call-to-action')) {
    const askRoles: Role[] = [...roles.filter((_, i) => i !== spare), 'call-to-action'];
    const askRules = ruleCaptions(u, askRoles, captionStyle, captionLength, check, shown);
    if (filled(askRules) === askRoles.length && strongCount(askRules) >= strongCount(rules)) {
      [roles, rules, rated] = [askRoles, askRules, null];
      warnings.push(insteadOfFeatureWarning(askRoles.length, 'ask', unsaidFeatures(u, rules)));
    }
  }
  if ((!narrative || echoOnly) && spare >= 0 && rated && !roles.includes('social-proof')) {
    const proofRoles = roles.filter((_, i) => i !== spare);
    const cta = proofRoles.indexOf('call-to-action');
    proofRoles.splice(cta < 0 ? proofRoles.length : cta, 0, 'social-proof');
    const proofRules = ruleCaptions(u, proofRoles, captionStyle, captionLength, check, shown);
    const [a, b] = [proofRules, rules].map(keep).map((rs) => [filled(rs), strongCount(rs), whole(rs)]);
    if (a[0] > b[0] || (a[0] === b[0] && (a[1] > b[1] || (a[1] === b[1] && a[2] > b[2])))) {
      proofSwapped = true;
      roles = proofRoles;
      rules = proofRules;
    }
  }
  // Still a feature slide the listing has nothing for, and no ask yet: the set ends on one, as a
  // copywriter ends a short listing's set ("Download Framewise Today"), instead of being refused.
  // Only where that fills a slide that was empty: a feature standing on its headline stays.
  const empty = roles.map((r, i) => (FEATURE_ROLES.has(r) && rules[i] === null ? i : -1)).reduce((a, b) => Math.max(a, b), -1);
  if (!narrative && empty >= 0 && !roles.includes('call-to-action')) {
    const askRoles: Role[] = [...roles.filter((_, i) => i !== empty), 'call-to-action'];
    const askRules = ruleCaptions(u, askRoles, captionStyle, captionLength, check, shown);
    if (filled(keep(askRules)) > filled(keep(rules))) {
      roles = askRoles;
      rules = askRules;
      warnings.push(insteadOfFeatureWarning(askRoles.length, 'ask', unsaidFeatures(u, rules)));
    }
  }
  // What was dropped so, for the refusal to name (planning/refuse.ts): the listing has that, but only so.
  const echoed = roles.length > DEFAULT_COUNT ? rules.flatMap((c) => (c && echo(c) ? [c.phrase ?? c.headline] : [])) : [];
  rules = keep(rules);
  let praiseOnly: string | null = null;
  // A set whose every caption only praises or names the app ("The Best Free App", its rating, the
  // ask) says nothing a visitor learns: its hero counts as empty, so it is refused, never delivered.
  const said = rules.filter((c): c is Caption => c !== null);
  if (said.length > 0 && saysNothing(said, input.listings, u.language)) praiseOnly = said[0].headline;
  if (praiseOnly) rules = rules.map((c, i) => (i === 0 ? null : c));
  // The feature the rating replaced was judged on the draft before the swap: a set written again
  // may say it on another slide ("Wayfarer builds your itinerary" as slide 2's subheadline), and
  // then it is no line the set left out (fifth read, untrue warnings).
  // Nor one a slide says over its two lines ("The fastest way to capture ideas. // On iPhone and iPad.").
  // Except the hero's words again: the warning says that is why it is not said, and calls it no more.
  const leftOut = whyNot && (whyNot.why !== 'sub' || !setSays(rules, whyNot.phrase, u)) ? whyNot : null;
  if (proofSwapped) warnings.push(insteadOfFeatureWarning(roles.indexOf('social-proof') + 1, 'proof', unsaidFeatures(u, rules), leftOut));
  const turn = askedOrientation(device, request.orientation, request.size);
  const screens = otherPlatform
    ? { urls: [], warnings: [], orientation: orientationFor(device, turn, false) }
    : screensFor(input.listings, device, turn);
  // Uploaded screens replace the listing's (sets/render.ts): their shape decides when they exist.
  const orientation = input.uploadedScreens ? orientationFor(device, turn, !!input.uploadedLandscape) : screens.orientation;
  if (input.uploadedScreens === 0 && screens.urls.length === 0)
    throw nothingToFrame(device, spec.family, otherPlatform ? 'mac-listing' : input.listings.every((l) => l.own) ? 'own-listing' : null);
  const finish = (written: Written[]): ScreenshotSetResult => {
    const out = [...warnings, ...screens.warnings];
    // Uploaded screens whose text is known go each under the caption that speaks of them.
    const texts = input.screenTexts?.some((s) => s.text !== null) ? input.screenTexts! : null;
    const listingText = [primary.subtitle ?? '', primary.description].join('\n');
    // A rule caption is matched by the listing's phrase it says too: "Get reminders" is about the
    // bills screen its phrase names ("Get reminders before bills are due").
    const matchText = written.map((c, i) => {
      const phrase = c.source === 'rules' && rules[i]?.headline === c.headline ? rules[i]?.phrase : undefined;
      return `${c.headline} ${c.subheadline ?? ''}${phrase ? ` ${phrase}` : ''}`;
    });
    const matched = texts ? matchScreens(roles, matchText, texts, listingText, u.language, !!input.screensInOrder) : null;
    if (matched) out.push(...matched.warnings);
    // So do the listing's screenshots, when no upload replaces them and some have been read.
    const shots = matched ? null : storeShots(screens.urls, input.storeScreenTexts);
    const shotMatch = shots ? matchScreens(roles, matchText, shots, listingText, u.language, false, 'listing') : null;
    if (shotMatch) out.push(...shotMatch.warnings);
    const urls = shotMatch ? shotMatch.screenIds : assignScreens(roles, screens.urls);
    const textOf = new Map([...(texts ?? []), ...(shots ?? [])].map((s) => [s.screenId, s.text]));
    const framed = matched?.screenIds ?? shotMatch?.screenIds ?? null;
    const captions = framed
      ? screenSubheadlines(
          written,
          roles,
          framed.map((id) => textOf.get(id) ?? null),
          check,
        )
      : written;
    const captionText = captions.map((c) => `${c.headline} ${c.subheadline ?? ''}`);
    const sentences = listingSentences(listingText);
    // Uploaded screens replace the listing's (sets/render.ts): its count says nothing then.
    if (!input.uploadedScreens && screens.urls.length > 0 && screens.urls.length < roles.length) {
      out.push(
        `The listing has ${screens.urls.length} screenshot${screens.urls.length === 1 ? '' : 's'} for ${roles.length} slides, so some screenshots appear twice.`,
      );
    }
    if (spec.store === 'google-play' && roles.length > PLAY_MAX_SHOTS) {
      out.push(
        `Google Play shows at most ${PLAY_MAX_SHOTS} screenshots per device type; slides ${PLAY_MAX_SHOTS + 1}–${roles.length} will not be shown.`,
      );
    }
    if (spec.store === 'google-play' && roles.length < PLAY_MIN_SHOTS) {
      out.push(`Google Play needs at least ${PLAY_MIN_SHOTS} screenshots to publish a listing; this set has ${roles.length}.`);
    }
    if (!u.english && captions.some((c) => c.source === 'rules')) {
      out.push(
        `The listing is in "${u.language}", not English: captions reuse the listing's own phrases, and the ${captionStyle} voice only sets their case and punctuation (its English wording is not used). Have a fluent speaker review them.`,
      );
    }
    const weakUnsaid = captions.some((c, i) => c.source === 'rules' && rules[i]?.weak) ? unsaidFeatures(u, rules) : [];
    captions.forEach((c, i) => {
      const r = rules[i];
      if (c.source === 'rules' && r?.weak && r.headline === c.headline) out.push(nearMissWarning(i + 1, r.weak, weakUnsaid));
    });
    if (captionLength === 'long') out.push(...bareWarnings(captions, rules, roles, u));
    const palette = paletteFor(input.brand, primary.name);
    const wanted = captionStyle === 'aso-expert' ? 5 : 3;
    return {
      device,
      // The size asked for (validated at the API), else the device's own, turned for a landscape set.
      ...(slideSizeFor(device, request.size, orientation) ?? slideSize(device, orientation)),
      narrativeId: narrative?.id ?? null,
      captionStyle,
      captionLength,
      slides: roles.map((role, i) => ({
        index: i + 1,
        role,
        captionSource: captions[i].source,
        headline: captions[i].headline,
        subheadline: captions[i].subheadline,
        keywords:
          captions[i].source === 'rules' && rules[i]
            ? rules[i].keywords
            : slideKeywords(u, `${captions[i].headline} ${captions[i].subheadline ?? ''}`, wanted),
        ...(matched ? { screenId: matched.screenIds[i] } : {}),
        screenshotUrl: matched ? null : urls[i],
        layout: layoutFor(role, i, matched !== null || urls[i] !== null),
        grounding: groundingOf(
          captionText[i],
          (matched ? textOf.get(matched.screenIds[i]) : shotMatch ? textOf.get(urls[i]!) : null) ?? null,
          sentences,
          input.extraContext,
          u.language,
        ),
        background: { colors: [...palette.colors] },
        textColor: palette.textColor,
      })),
      warnings: out,
    };
  };
  return { input, roles, rules, check, u, warnings, screenCount: screens.urls.length, praiseOnly, echoed, finish };
}

/**
 * What a refusal says the listing supports: the largest count, below the `asked`, that the rule
 * writer fills with the default story, so that asking for it succeeds (the slides a failed draft did
 * fill are not such a count: fewer slides change the roles). 0 when not even one slide plans.
 */
/** The rule writer's captions for the default story of `count` slides (what a refusal's `supported` offers). */
export function rulesAt(input: PlanInput, count: number, captionLength = input.request.captionLength): (Caption | null)[] {
  return draftScreenshotSet({ ...input, request: { ...input.request, count, captionLength, narrativeId: undefined } }).rules;
}

/** The rule writer's set: exactly the slides asked for, each passing the checker, or cannot_fill_set. */
export function planScreenshotSet(input: PlanInput): ScreenshotSetResult {
  validate(input);
  if (input.request.slides?.length) return planOwnSlides(input);
  const draft = draftScreenshotSet(input);
  if (draft.rules.some((c) => c === null))
    throw refusalOf(draft, input.request.narrativeId ? findNarrative(input.request.narrativeId) : null, (count, length) =>
      rulesAt(input, count, length),
    );
  return draft.finish(draft.rules.map((c) => ({ headline: c!.headline, subheadline: c!.subheadline, source: 'rules' as const })));
}
