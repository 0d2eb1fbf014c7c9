/**
 * A revision applied to its parent's plan: which slides stay, in what order, with what changes. Pure:
 * the create path validates with it and stores its plan; the worker renders that plan as stored.
 */
import { layoutFor, LAYOUTS } from '../../planning/look.ts';
import { MAX_COUNT, type ScreenshotSetResult, type Slide } from '../../core/set.ts';
import type { FieldError } from '../../core/problem.ts';
import type { AddedSlide, RevisionRequest, SlideChanges } from './types.ts';

/** The captions a revision wrote in one locale of the set: the checks look at these. */
export interface LocaleEdits {
  /** null: the set is in one locale. */
  locale: string | null;
  /** New positions (0-based) whose captions were written in this revision. */
  positions: number[];
  /** The request's field of each of those (`slides/0`, `add/1`), to name in a refusal. */
  fields: string[];
}

export interface AppliedRevision {
  /** The revised plan: `slides` is the first locale's, and `locales` (when the parent has them) every locale's. */
  plan: ScreenshotSetResult;
  /** Per new slide, the parent's index it comes from, or null (added); the same in every locale. */
  sources: (number | null)[];
  /** Per locale of the set, in its order. */
  edited: LocaleEdits[];
  errors: FieldError[];
}

const CAPTION_FIELDS = new Set(['headline', 'subheadline']);

export function changeErrors(c: SlideChanges, at: string): FieldError[] {
  const errors: FieldError[] = [];
  if (c.headline !== undefined && !c.headline.trim()) errors.push({ field: `${at}/headline`, message: 'must not be empty' });
  if (c.subheadline != null && !c.subheadline.trim())
    errors.push({ field: `${at}/subheadline`, message: 'must not be empty (null removes it)' });
  if (c.layout !== undefined && !(LAYOUTS as readonly string[]).includes(c.layout))
    errors.push({ field: `${at}/layout`, message: `must be one of ${LAYOUTS.join(', ')}` });
  return errors;
}

/** One slide with changes applied (a revision's edit, a preview's). */
export function applyChanges(slide: Slide, c: SlideChanges): Slide {
  const out: Slide = { ...slide, background: { colors: [...slide.background.colors] }, keywords: [...slide.keywords] };
  delete out.image;
  if (c.headline !== undefined) out.headline = c.headline.trim();
  if (c.subheadline !== undefined) out.subheadline = c.subheadline === null ? null : c.subheadline.trim();
  if (c.screenId !== undefined) {
    out.screenId = c.screenId;
    out.screenshotUrl = null;
    // The old region was in the old screen's pixels.
    delete out.focus;
    // A text-only slide that is given a screen shows it.
    if (out.layout === 'text-only' && c.layout === undefined) out.layout = layoutFor(out.role, out.index - 1, true);
  }
  if (c.layout !== undefined) out.layout = c.layout;
  if (c.focus === null) delete out.focus;
  else if (c.focus !== undefined) out.focus = { ...c.focus };
  if (c.background) out.background = { colors: c.background.colors.map((x) => x.toUpperCase()) };
  if (c.textColor !== undefined) out.textColor = c.textColor.toUpperCase();
  return out;
}

function addedSlide(parent: ScreenshotSetResult, a: AddedSlide, n: number): Slide {
  const first = parent.slides[0];
  const base: Slide = {
    index: n,
    role: 'feature',
    headline: a.headline,
    subheadline: null,
    keywords: [],
    screenshotUrl: null,
    layout: 'text-only',
    background: { colors: [...first.background.colors] },
    textColor: first.textColor,
  };
  return applyChanges(base, a);
}

/**
 * A revision of a set in several locales applies to every locale: the order, removals, additions
 * (their captions in every locale), the theme, and a slide's screen, layout and colours, which
 * locales share. A caption edit applies to the locale it names, or without `locale` to the set's
 * first locale (the `slides` of its result).
 */
export function applyRevision(parent: ScreenshotSetResult, req: RevisionRequest): AppliedRevision {
  const n = parent.slides.length;
  const locales = parent.locales?.map((l) => l.locale) ?? null;
  const errors: FieldError[] = [];
  // The slide's look, shared by every locale; and its captions, per `index|locale`.
  const looks = new Map<number, SlideChanges>();
  const captions = new Map<string, { changes: SlideChanges; field: string }>();
  const edited = new Set<number>();
  (req.slides ?? []).forEach((e, i) => {
    const at = `slides/${i}`;
    const { index, locale, ...changes } = e;
    errors.push(...changeErrors(changes, at));
    if (index > n) return errors.push({ field: `${at}/index`, message: `the set has ${n} slide${n === 1 ? '' : 's'}` });
    if (locale !== undefined) {
      if (!locales) return errors.push({ field: `${at}/locale`, message: 'the set is in one locale: leave locale out' });
      if (!locales.includes(locale))
        return errors.push({ field: `${at}/locale`, message: `must be one of the set's locales: ${locales.join(', ')}` });
      if (Object.keys(changes).some((k) => !CAPTION_FIELDS.has(k)))
        return errors.push({
          field: at,
          message: 'an edit that names a locale changes captions only: screens, layout and colours are the same in every locale',
        });
    }
    edited.add(index);
    const look = Object.fromEntries(Object.entries(changes).filter(([k]) => !CAPTION_FIELDS.has(k))) as SlideChanges;
    const caption = Object.fromEntries(Object.entries(changes).filter(([k]) => CAPTION_FIELDS.has(k))) as SlideChanges;
    if (Object.keys(look).length) {
      if (looks.has(index)) errors.push({ field: `${at}/index`, message: `slide ${index} is edited twice` });
      looks.set(index, look);
    }
    if (Object.keys(caption).length) {
      const key = `${index}|${locale ?? locales?.[0] ?? ''}`;
      if (captions.has(key))
        errors.push({ field: `${at}/index`, message: `the captions of slide ${index}${locale ? ` in ${locale}` : ''} are edited twice` });
      captions.set(key, { changes: caption, field: at });
    }
  });
  const removed = new Set<number>();
  (req.remove ?? []).forEach((r, i) => {
    if (r > n) errors.push({ field: `remove/${i}`, message: `the set has ${n} slide${n === 1 ? '' : 's'}` });
    else if (removed.has(r)) errors.push({ field: `remove/${i}`, message: `slide ${r} is removed twice` });
    else if (edited.has(r)) errors.push({ field: `remove/${i}`, message: `slide ${r} is both edited and removed` });
    removed.add(r);
  });
  const added = req.add ?? [];
  added.forEach((a, i) => errors.push(...changeErrors(a, `add/${i}`)));
  const available = [...Array.from({ length: n }, (_, i) => i + 1).filter((i) => !removed.has(i)), ...added.map((_, i) => n + 1 + i)];
  let order = available;
  if (req.order) {
    const want = new Set(available);
    const seen = new Set<number>();
    const bad = req.order.filter((x) => !want.has(x) || seen.has(x) || !seen.add(x));
    const missing = available.filter((x) => !req.order!.includes(x));
    if (bad.length || missing.length)
      errors.push({
        field: 'order',
        message: `must name each of ${available.join(', ')} once${bad.length ? ` (not ${[...new Set(bad)].join(', ')})` : ''}${missing.length ? ` (missing ${missing.join(', ')})` : ''}`,
      });
    else order = req.order;
  }
  if (order.length === 0) errors.push({ field: 'remove', message: 'a set keeps at least one slide' });
  if (order.length > MAX_COUNT) errors.push({ field: 'add', message: `a set has at most ${MAX_COUNT} slides` });
  if (!changesSomething(req, n))
    errors.push({ field: '', message: 'the revision changes nothing: name slides, remove, add, order or theme' });
  if (errors.length) return { plan: parent, sources: [], edited: [], errors };

  const sources = order.map((from) => (from > n ? null : from));
  const sets = (locales ?? [null]).map((locale, k) => {
    const own = k === 0 ? parent.slides : parent.locales![k].slides;
    const slides: Slide[] = [];
    const edits: LocaleEdits = { locale, positions: [], fields: [] };
    order.forEach((from, pos) => {
      const isAdded = from > n;
      const caption = isAdded ? undefined : captions.get(`${from}|${locale ?? ''}`);
      const slide = isAdded
        ? addedSlide(parent, added[from - n - 1], pos + 1)
        : applyChanges(own[from - 1], { ...looks.get(from), ...caption?.changes });
      slides.push({ ...withRhythm(slide, from, pos, looks.get(from)), index: pos + 1 });
      if (isAdded || caption) {
        edits.positions.push(pos);
        edits.fields.push(isAdded ? `add/${from - n - 1}` : caption!.field);
      }
    });
    return { slides, edits };
  });
  // A caption of your own may run longer than the planner's: the set's length follows the longest.
  const all = sets.flatMap((s) => s.slides);
  const long = all.some((s) => s.subheadline) || all.some((s) => s.headline.length > 30);
  const plan: ScreenshotSetResult = {
    ...parent,
    captionLength: long ? 'long' : parent.captionLength,
    slides: sets[0].slides,
    warnings: [],
    ...(parent.locales ? { locales: parent.locales.map((l, k) => ({ ...l, slides: sets[k].slides, warnings: [] })) } : {}),
  };
  delete plan.archive;
  return { plan, sources, edited: sets.map((s) => s.edits), errors };
}

/**
 * A slide that moved takes the composition of its new place (the hero's at the front, the
 * alternating features after it): the set's rhythm follows the new order. A layout this revision
 * names, and a text slide, stay as they are.
 */
function withRhythm(slide: Slide, from: number, pos: number, look: SlideChanges | undefined): Slide {
  if (from === pos + 1 || look?.layout !== undefined || slide.layout === 'text-only') return slide;
  return { ...slide, layout: layoutFor(slide.role, pos, true) };
}

function changesSomething(req: RevisionRequest, n: number): boolean {
  if (req.theme !== undefined || req.remove?.length || req.add?.length) return true;
  if (req.order && req.order.some((x, i) => x !== i + 1)) return true;
  return (req.slides ?? []).some((e) => Object.keys(e).some((k) => k !== 'index' && k !== 'locale')) && n > 0;
}
