/**
 * Where things go on a slide. Sizes derive from the slide's size so every device looks alike; the
 * set has one headline and one subheadline size, and its text block is as tall as its tallest, so
 * devices sit at the same height on every slide.
 */
import type { SKRSContext2D } from '@napi-rs/canvas';
import { REGULAR_TYPE, themeFor, type ThemeId } from '../core/themes.ts';
import { DEVICES, type Device } from '../core/devices.ts';
import { slideSize, type Orientation } from '../core/orientation.ts';
import { isHero } from '../core/set.ts';
import { displayFor, frameBox, FRAMES, hasTitleBar, type Display, type FrameBox } from './frames.ts';
import type { Weight } from './font-sources.ts';
import { drawnLines, fitSize, HEADLINE_LINE_HEIGHT, SUB_LINE_HEIGHT } from './text.ts';
import type { SetMetrics, SlideLook, StoreRating } from './types.ts';
import { ratingRoom, ratingRow, shownRating, type RatingRow } from './rating.ts';

export interface Scale {
  width: number;
  height: number;
  /** The width of a phone-shaped slide of this height: tablets get phone-like type sizes. */
  base: number;
  margin: number;
  textWidth: number;
  padTop: number;
  gap: number;
  /** The type is set from the headline floor up (a Mac slide, a landscape slide: typeScale). */
  typeFromFloor?: boolean;
}

export function scaleOf(device: Device, orientation?: Orientation): Scale {
  const { width, height } = slideSize(device, orientation);
  // A landscape slide stands in a store's results where three portrait ones would (about 330 pt
  // wide): a third of its width is what a portrait slide's width is there.
  const base = width > height ? Math.max(Math.min(width, height * 0.56), width / 3) : Math.min(width, height * 0.56);
  const margin = Math.round(width * 0.07);
  const sc = {
    width,
    height,
    base,
    margin,
    textWidth: width - 2 * margin,
    padTop: Math.round(height * 0.055),
    gap: Math.round(height * 0.03),
  };
  // A Mac slide, and any landscape slide, has its type set from the floor up (typeScale).
  return DEVICES[device].family === 'mac' || width > height ? { ...sc, typeFromFloor: true } : sc;
}

/**
 * The smallest text that stays legible where shoppers decide: in App Store and Play search results
 * a portrait screenshot is shown about 110 pt wide, and 5 pt is the least a phone's text can be
 * there and still be read. A slide as wide as `base` shows at 110 pt, so: base × 5 / 110.
 */
export const THUMBNAIL_PT = 110;
export const MIN_LEGIBLE_PT = 5;
export const minLegiblePx = (sc: Scale): number => Math.ceil((sc.base * MIN_LEGIBLE_PT) / THUMBNAIL_PT);
/** The rating beside a landscape cover's headline is brought up to this (the portrait sets' 6.4 pt) where it fits (rating.ts ROW_REACH). */
export const RATING_ROW_PT = 6.4;

/** The least headline size, as a share of the slide's width (its short side when landscape). */
export const MIN_HEADLINE_SHARE = 0.08;
/** The headline is at least this many times its subheadline: a hierarchy that reads in a thumbnail. */
export const MIN_HEADLINE_RATIO = 1.6;

export interface TypeScale {
  /** The theme's headline size (THEMES[…].headline.size of the base), never under `min`. */
  max: number;
  /** MIN_HEADLINE_SHARE of the slide's width. */
  min: number;
  subMin: number;
}

/** The theme's headline weight (THEMES[…].headline): the bold theme's are Black. */
export const headlineWeight = (theme: ThemeId | undefined): Weight => themeFor(theme).headline.weight;

export function typeScale(sc: Scale, theme: ThemeId | undefined): TypeScale {
  const min = Math.ceil(Math.min(sc.width, sc.height) * MIN_HEADLINE_SHARE);
  const size = themeFor(theme).headline.size;
  // A Mac slide (2880 × 1800) has a phone-like base of 1008 px, under which every theme's size
  // (bold 127, the others 91) fell below the floor (144): every theme set 144, and bold's big type
  // did not show. There the floor is the regular size and each theme keeps its ratio to it (bold
  // 1.4 ×: 202 px); fitSet still fits the set's headlines between the floor and that. So on every
  // landscape slide, whose floor is 8 % of its short side: bold sat at the floor with the regular
  // themes on iPad, Android phone and tablet landscape slides, 1.13 × above it on the iPhone.
  const own = sc.typeFromFloor ? (min * size) / REGULAR_TYPE.size : sc.base * size;
  const max = Math.max(min, Math.round(own));
  return { max, min, subMin: minLegiblePx(sc) };
}

/** The largest subheadline size the headline allows (MIN_HEADLINE_RATIO). */
export const subCap = (headlineSize: number): number => Math.floor(headlineSize / MIN_HEADLINE_RATIO);

/** Room kept under a headline for its marker's reach below the last line, as a share of the size. */
export const MARKER_OVERHANG = 0.12;

export interface TextBlock {
  headline: string[];
  sub: string[];
  headlineSize: number;
  headlineWeight: Weight;
  subSize: number;
  /** Its height, with `reach`. */
  height: number;
  /** What of `height` lies under the last line's box: the marker's reach (MARKER_OVERHANG), else 0. */
  reach?: number;
}

export function textBlock(
  ctx: SKRSContext2D,
  slide: SlideLook,
  headlineSize: number,
  subSize: number,
  sc: Scale,
  theme?: ThemeId,
): TextBlock {
  const weight = headlineWeight(theme);
  const headline = drawnLines(ctx, slide.headline, weight, headlineSize, sc.textWidth, slide.lang);
  const sub = slide.subheadline ? drawnLines(ctx, slide.subheadline, 400, subSize, sc.textWidth, slide.lang) : [];
  const subHeight = sub.length ? headlineSize * 0.35 + sub.length * subSize * SUB_LINE_HEIGHT : 0;
  // The bold theme's marker on a last line reaches below the line's box (the word's descenders,
  // then its padding: up to 0.11 of the size): on the iPad bold sets it ended 26 px over the
  // device's rim. The block keeps room for it, so the gap under the text is the layout's own; a
  // subheadline's spacing already has it.
  const overhang = !sub.length && themeFor(theme).accent === 'marker' ? headlineSize * MARKER_OVERHANG : 0;
  return {
    headline,
    sub,
    headlineSize,
    headlineWeight: weight,
    subSize,
    height: Math.ceil(headline.length * headlineSize * HEADLINE_LINE_HEIGHT + subHeight + overhang),
    reach: Math.ceil(overhang),
  };
}

/**
 * One type system for the set, decided before any slide is drawn (slides are drawn on several
 * threads, each with these metrics): one headline size for every slide, the largest at which
 * every headline fits in MAX_LINES lines, between the theme's size and MIN_HEADLINE_SHARE of the
 * width; one subheadline size, at most 1 / MIN_HEADLINE_RATIO of it, never below the legible
 * minimum. A headline that does not fit even at the least size runs on rather than shrinking the set.
 */
export function fitSet(
  ctx: SKRSContext2D,
  device: Device,
  slides: SlideLook[],
  theme?: ThemeId,
  orientation?: Orientation,
  rating?: StoreRating | null,
): SetMetrics {
  const sc = scaleOf(device, orientation);
  const t = typeScale(sc, theme);
  const weight = headlineWeight(theme);
  const size = fitSize(
    ctx,
    slides.map((s) => ({ text: s.headline, lang: s.lang })),
    weight,
    sc.textWidth,
    t.min,
    t.max,
  );
  const subs = slides.flatMap((s) => (s.subheadline ? [{ text: s.subheadline, lang: s.lang }] : []));
  const fitted = (headline: number) => {
    const cap = subCap(headline);
    const subSize = fitSize(ctx, subs, 400, sc.textWidth, Math.min(t.subMin, cap), cap);
    const blockHeight = Math.max(0, ...slides.map((s) => textBlock(ctx, s, headline, subSize, sc, theme).height));
    return { headline, subSize, blockHeight };
  };
  let f = fitted(size);
  // On a Mac slide the type above the floor is taken from the window's room: a 16:10 slide is
  // short, and bold's larger type with a second line or a subheadline left a feature's window
  // 60 % off the bottom edge. It grows only as far as the set's text leaves a window of
  // MIN_WINDOW_SHARE whole under it; past that the floor, as before. On another landscape slide
  // (the device's own shape turned), as far as a feature's device at the theme's share keeps all
  // but MAX_TYPE_BLEED of its height on the slide.
  // The cover too (design read 2026-11-29): under its own text and the store's rating, bold's
  // two-line headline left the iPad and Android tablet landscape heroes 44-45 % off the bottom
  // edge, and the Mac's whole window 60 % of the width.
  if (sc.typeFromFloor) {
    const room = typeRoom(device, sc, theme);
    const hero = slides.find((s) => isHero(s.layout));
    const shown = shownRating(rating);
    const coverFits = (g: typeof f) => {
      if (!hero) return true;
      const m = { headlineSizes: [g.headline], subSize: g.subSize, blockHeight: g.blockHeight };
      const block = textBlock(ctx, hero, g.headline, g.subSize, sc, theme);
      const beside = shown && coverRatingRow(ctx, device, theme, shown, block, sc);
      return block.height + (shown && !beside ? ratingRoom(ctx, shown, m, sc) : 0) <= coverRoom(device, sc, theme);
    };
    while (f.headline > t.min && (f.blockHeight > room || !coverFits(f))) f = fitted(Math.max(t.min, f.headline - 4));
  }
  const index = slides.findIndex((s) => isHero(s.layout));
  const cover = index < 0 ? {} : { cover: { index, slide: slides[index], rating: rating ?? null } };
  return { headlineSizes: slides.map(() => f.headline), subSize: f.subSize, blockHeight: f.blockHeight, ...cover };
}

/** The tallest text block a slide whose type is set from the floor up may have above the floor (fitSet). */
function typeRoom(device: Device, sc: Scale, theme?: ThemeId): number {
  const above = sc.height - sc.padTop - sc.gap;
  if (DEVICES[device].family === 'mac') {
    const d = { frame: 'mac-window' as const, landscape: true, aspect: FRAMES['mac-window'].aspect, crop: 0 };
    return above - Math.round(sc.height * BOTTOM_PAD) - frameBox(device, d, 0, 0, sc.width * MIN_WINDOW_SHARE).height;
  }
  // The device's own display, turned with the slide.
  const d = displayFor(device, { width: sc.width, height: sc.height });
  const h = frameBox(device, d, 0, 0, sc.width * themeFor(theme).product.feature).height;
  return above - h * (1 - MAX_TYPE_BLEED);
}

/**
 * The tallest text (the rating's line included) the cover may have on a slide whose type is set
 * from the floor up, with the cover's product at the theme's hero share: a Mac's window bleeding
 * WINDOW_MIN_BLEED (cover.ts settleCover: a window is whole or plainly bleeds, and whole it was
 * two thirds of the width); a frameless screen, standing, at most MAX_FRAMELESS_BLEED past the
 * bottom edge; another landscape device, leaning (HERO_TILT_WIDE), at most MAX_HERO_BLEED.
 */
function coverRoom(device: Device, sc: Scale, theme?: ThemeId): number {
  const above = sc.height - sc.padTop - sc.gap;
  const w = sc.width * themeFor(theme).product.hero;
  const mac = DEVICES[device].family === 'mac';
  const d = mac
    ? { frame: 'mac-window' as const, landscape: true, aspect: FRAMES['mac-window'].aspect, crop: 0 }
    : displayFor(device, { width: sc.width, height: sc.height });
  if (themeFor(theme).screen === 'bleed') return above - (w / d.aspect) * (1 - MAX_FRAMELESS_BLEED);
  if (mac) return above - frameBox(device, d, 0, 0, w).height * (1 - WINDOW_MIN_BLEED);
  // At the theme's share: a feature grown against a tangent (featureWidth, up to HERO_LEAD under
  // it) raises the hero's floor to that share.
  const lean = (w / 2) * Math.sin((3 * Math.PI) / 180);
  return above - lean - frameBox(device, d, 0, 0, w).height * (1 - MAX_HERO_BLEED);
}

/**
 * The store's rating beside the cover's one-line headline rather than under it (rating.ts
 * `ratingRow`), on a landscape slide where the pair fits the column: under it, it took 8-9 % of
 * the short slide's height from the product. Not over a Mac's framed window, which bleeds a
 * quarter under its text and so has the room (settleCover).
 */
export function coverRatingRow(
  ctx: SKRSContext2D,
  device: Device,
  theme: ThemeId | undefined,
  rating: StoreRating,
  block: TextBlock,
  sc: Scale,
): RatingRow | null {
  if (sc.width <= sc.height) return null;
  if (DEVICES[device].family === 'mac' && themeFor(theme).screen === 'framed') return null;
  return ratingRow(ctx, rating, block, sc, minLegiblePx(sc), Math.ceil((sc.base * RATING_ROW_PT) / THUMBNAIL_PT));
}

/** A slide with no screen: the set's type, so the poster reads as one of the set. */
export function posterBlock(ctx: SKRSContext2D, slide: SlideLook, m: SetMetrics, sc: Scale, theme?: ThemeId): TextBlock {
  return textBlock(ctx, slide, m.headlineSizes[0], m.subSize, sc, theme);
}

export interface Placement {
  /** Top of the text block. */
  textTop: number;
  frame: FrameBox | null;
  /** Full bleed: the screen without a frame, whole (see bleedBox). */
  bleed: Bleed | null;
}

/** A screen drawn without a frame; `radii` are its corners: top-left, top-right, bottom-right, bottom-left. */
export interface Bleed {
  x: number;
  y: number;
  width: number;
  height: number;
  radii: [number, number, number, number];
}

/**
 * A `bleed` theme's screen (full-bleed): no frame, under the text (`top`), `share` of the slide's
 * width. A portrait screen (or a window on a landscape slide) taller than the room bleeds off the
 * bottom edge; one that fits rises from the bottom edge. Its top corners are rounded like its
 * display's. (A landscape screen on a portrait slide comes here stood upright: compose.ts `arrange`.)
 */
export function bleedBox(device: Device, d: Display, sc: Scale, top: number, share: number): Bleed {
  const { width: W, height: H } = sc;
  const room = H - top;
  // The display's own frame's corners: a borrowed frame (a 9:16 shot's Home-button phone) has its own.
  const r = (w: number, h: number) => Math.round(Math.min(w, h) * FRAMES[d.frame].radius);
  const w = Math.round(W * share);
  const h = Math.round(d.landscape ? w / d.aspect : w * d.aspect);
  const k = r(w, h);
  return { x: Math.round((W - w) / 2), y: h > room ? Math.round(top) : H - h, width: w, height: h, radii: [k, k, 0, 0] };
}

export { isHero };

/** The device's share of the slide's width for a layout in a theme (THEMES[…].product). */
export const productShare = (layout: string, theme?: ThemeId): number => {
  const p = themeFor(theme).product;
  return isHero(layout) ? p.hero : p.feature;
};

/**
 * Where the text and the product go. `extraTop`: room the hero keeps between its text and its
 * device (the store's rating). A portrait device (and a window on a landscape slide) is
 * productShare of the slide's width, whatever its height: under the text it bleeds off the bottom
 * edge; a bottom headline keeps its place only when the device fits above it (else the text goes
 * on top: a device hanging off the top edge would hide the screen's title), never over the text. A landscape device on a
 * portrait slide comes here stood upright, its screen turned in it (compose.ts `arrange`).
 * `grows`: whether a feature's device may grow past its share against a tangent (featureWidth);
 * a set with the icon badge keeps the share (the badge on a wider device's corner leaves the
 * slide, and is then not drawn) and is lowered instead.
 */
export function place(
  device: Device,
  layout: string,
  m: SetMetrics,
  own: TextBlock,
  sc: Scale,
  d: Display,
  theme?: ThemeId,
  extraTop = 0,
  grows = true,
): Placement {
  const { width: W, height: H, padTop, gap } = sc;
  const cx = W / 2;
  const bottomPad = Math.round(H * BOTTOM_PAD);
  if (layout === 'text-only') return { textTop: Math.round((H - own.height) / 2), frame: null, bleed: null };
  const share = productShare(layout, theme);
  // The hero is a composition of its own: its device follows its own text, not the set's tallest.
  const below = padTop + (isHero(layout) ? own.height : m.blockHeight) + gap + extraTop;
  if (themeFor(theme).screen === 'bleed') return { textTop: padTop, frame: null, bleed: bleedBox(device, d, sc, below, share) };
  // A window (a Mac app's) is shown whole where it can be: its bottom edge and rounded corners
  // are part of it, as its title bar is. It may be narrower than the share, down to MIN_WINDOW_SHARE.
  const least = hasTitleBar(d.frame) ? Math.min(share, MIN_WINDOW_SHARE) : share;
  const { width: w, drop } = isHero(layout)
    ? { width: W * share, drop: 0 }
    : featureWidth(device, d, sc, padTop + m.blockHeight + gap, share, grows ? themeFor(theme).product.hero : share, least);
  const h = heightOf(device, d, w);
  if (layout === 'headline-bottom') {
    // The text's line box sits on the bottom margin (the marker's reach under it is no matter
    // there: counted, it sent iPhone bold's bottom headline to the top); the device stands centred
    // in the room above it. A device
    // too tall for that room (a 20:9 phone at its share) would hang off the top edge and hide the
    // screen's title bar, the words that say what the screen is: its text goes on top instead and
    // the device bleeds off the bottom, as issue 30 asks of tall screens.
    // A feature grown against a tangent under the top text (featureWidth) may not fit here: it
    // takes the largest width that does, down to the theme's share, so the set keeps its rhythm.
    const textTop = H - padTop - own.height + (own.reach ?? 0);
    const bottom = textTop - gap;
    let fits = Math.max(W * least, Math.min(w, Math.floor((w * (bottom - bottomPad)) / h)));
    // The frame's parts are rounded one by one: a pixel or two over, step down.
    while (fits > W * least && heightOf(device, d, fits) > bottom - bottomPad) fits = Math.max(W * least, fits - 2);
    const fh = heightOf(device, d, fits);
    if (fh <= bottom - bottomPad)
      return { textTop, frame: frameBox(device, d, cx, bottomPad + (bottom - bottomPad - fh) / 2, fits), bleed: null };
  }
  // headline-top, hero-centered and any layout this renderer does not know yet: under the text,
  // raised from the bottom edge when it fits, else bleeding off it.
  const room = H - bottomPad - below;
  return { textTop: padTop, frame: frameBox(device, d, cx, h <= room ? below + (room - h) / 2 : below + drop, w), bleed: null };
}

/** The margin a device that fits keeps from the bottom edge, as a share of the slide's height. */
export const BOTTOM_PAD = 0.045;
/** A framed feature's device bleeds off the bottom edge by at least this share of the slide's height, or clears it by the bottom margin. */
export const MIN_BLEED = 0.06;
/** A feature's device stays at least this much of the slide's width under the hero's. */
export const HERO_LEAD = 0.02;
/** A framed hero made smaller to clear the bottom edge (compose.ts `arrange`) stays at least this share of the width. */
export const MIN_HERO_SHARE = 0.78;
/** A feature's window (a Mac app's) made narrower to be shown whole stays at least this share of the width. */
export const MIN_WINDOW_SHARE = 0.7;
/** Type above the floor on a landscape slide leaves a feature's device at most this share of its height past the bottom edge. */
export const MAX_TYPE_BLEED = 0.25;
/** A hero on a landscape slide has at most this share of its height past the bottom edge (cover.ts settleCover). */
export const MAX_HERO_BLEED = 0.25;
/** A frameless screen (full bleed) is at least this share of the width (issue 30). */
export const MIN_FRAMELESS_SHARE = 0.88;
/** A frameless hero (full bleed) on a landscape slide has at most this share of its height past the bottom edge. */
export const MAX_FRAMELESS_BLEED = 0.15;
/** A window (a Mac app's) that is not whole has at least this share of its height past the bottom edge. */
export const WINDOW_MIN_BLEED = 0.25;

/**
 * A feature's device width, the same on every feature of the set (it is found from the set's
 * tallest text, as the device's place under it is): the theme's share, unless under that text
 * its bottom would land between the bottom margin and MIN_BLEED past the edge. There the bezel
 * kissed the edge or lost a sliver (iPad and Android tablet bold at 0-1 % of the height from the
 * edge, iPhone bold 2 % past it), which reads as a slip rather than a choice: the device grows
 * until it bleeds MIN_BLEED, up to HERO_LEAD under the hero's share; what growing leaves short,
 * `drop` lowers it by. Never smaller: a tall screen bleeds rather than shrinks (issue 30).
 */
function featureWidth(
  device: Device,
  d: Display,
  sc: Scale,
  below: number,
  share: number,
  heroShare: number,
  least = share,
): { width: number; drop: number } {
  const { width: W, height: H } = sc;
  const width = W * share;
  const h = heightOf(device, d, width);
  const bottom = below + h;
  const wanted = H * (1 + MIN_BLEED);
  const clearAt = H - Math.round(H * BOTTOM_PAD);
  if (bottom <= clearAt || (bottom >= wanted && least === share)) return { width, drop: 0 };
  if (least !== share) {
    // A window: the widest, down to `least`, that clears the bottom margin; else it plainly
    // bleeds. Under a two-line headline with a subheadline the golden's window at 76 % lost its
    // bottom fifth past the edge (the hero its bottom 8 %): a window that almost fits reads as a
    // crop that slipped. As large as a feature may be (grown as a device is against a tangent),
    // lowered until WINDOW_MIN_BLEED of it lies past the edge.
    for (let w = Math.floor(width); w >= W * least; w -= 2) if (below + heightOf(device, d, w) <= clearAt) return { width: w, drop: 0 };
    const grown = W * Math.max(share, heroShare - HERO_LEAD);
    const gh = heightOf(device, d, grown);
    return { width: grown, drop: Math.max(0, Math.ceil(H + WINDOW_MIN_BLEED * gh - below - gh)) };
  }
  // The frame's height grows with its width: scale to the wanted height, within the cap.
  const grown = Math.min(width * ((wanted - below) / h), W * Math.max(share, heroShare - HERO_LEAD));
  return { width: grown, drop: Math.max(0, Math.ceil(wanted - below - heightOf(device, d, grown))) };
}

function heightOf(device: Device, d: Display, outerWidth: number): number {
  return frameBox(device, d, 0, 0, outerWidth).height;
}
