/**
 * One slide: background, text, device and screen drawn with skia (@napi-rs/canvas), then the raw
 * pixels encoded by sharp as an 8-bit RGB PNG (skia's own encoder is slower and writes alpha).
 */
import { createCanvas, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import { DEVICES } from '../core/devices.ts';
import { PANORAMA_THEME, themeFor } from '../core/themes.ts';
import { leadOf, missingGlyphs, setFont, useBrandFont, type Weight } from './fonts.ts';
import { displayFor, drawCutout, hasTitleBar, MAX_CROP, titleBarTone, type Display } from './frames.ts';
import { drawPlate, rotateAbout } from './plates.ts';
import {
  coverRatingRow,
  isHero,
  place,
  posterBlock,
  scaleOf,
  textBlock,
  THUMBNAIL_PT,
  type Placement,
  type Scale,
  type TextBlock,
} from './layout.ts';
import { suspicion } from './marketing.ts';
import { MIN_HEADLINE_SEARCH_PT, searchPt, searchWidthPt } from './thumbnail.ts';
import { sideGeometry, sidePlacement, unframedPlacement } from './unframed.ts';
import { slideSize } from '../core/orientation.ts';
import { drawRating, drawRatingRow, ratingRoom, shownRating, type RatingRow } from './rating.ts';
import { calloutBox, drawCallout, regionOnSlide, type Rect as CalloutRect } from './callout.ts';
import { focusError, type Focus } from '../core/set.ts';
import { ScreenError, ScreenSlot, type ScreenImage } from './screen-image.ts';
import { ScreenSprite } from './screen-sprite.ts';

export { ScreenError };
import { directionOf, HEADLINE_LINE_HEIGHT, SUB_LINE_HEIGHT } from './text.ts';
import { lookOf } from './themes.ts';
import { accentOf, drawWithAccent } from './accent.ts';
import { drawBadge } from './badge.ts';
import { HERO_TILT, HERO_TILT_WIDE, lean, settleCover, settleFramelessCover } from './cover.ts';
import { shownProduct, yieldToCover } from './cover-lead.ts';

export { HERO_TILT, HERO_TILT_WIDE };
import type { DrawnLint, SlideLook, SlideTask } from './types.ts';

function drawLines(
  ctx: SKRSContext2D,
  lines: string[],
  text: string,
  weight: Weight,
  size: number,
  lineHeight: number,
  cx: number,
  top: number,
): number {
  setFont(ctx, weight, size, text);
  ctx.direction = directionOf(text);
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  let y = top;
  for (const line of lines) {
    ctx.fillText(line, cx, y + (size * lineHeight) / 2);
    y += size * lineHeight;
  }
  return y;
}

export function drawText(ctx: SKRSContext2D, slide: SlideLook, block: TextBlock, color: string, cx: number, top: number): void {
  ctx.fillStyle = color;
  const y = drawLines(ctx, block.headline, slide.headline, block.headlineWeight, block.headlineSize, HEADLINE_LINE_HEIGHT, cx, top);
  if (slide.subheadline && block.sub.length) {
    ctx.globalAlpha = 0.9;
    drawLines(ctx, block.sub, slide.subheadline, 400, block.subSize, SUB_LINE_HEIGHT, cx, y + block.headlineSize * 0.35);
    ctx.globalAlpha = 1;
  }
}

type Rect = { x: number; y: number; width: number; height: number; radius: number | number[] };

/**
 * The screen image, covering its display (whose aspect is the screen's own when the family has
 * such a display: nothing is cut): sharp decodes it (EXIF rotation, pixel limit), skia scales it
 * while drawing it into the display's rounded clip. Scaling in the draw measured ~40 ms less CPU
 * per 1320×2868 slide than a sharp resize (libvips at one thread). `slideHeight`: what of the
 * area lies past the slide's top or bottom edge (a device that bleeds off it) is counted apart
 * from what the display's shape cut.
 */
function drawScreen(
  ctx: SKRSContext2D,
  s: Rect,
  screen: ScreenImage | null,
  slideHeight: number,
  turned = false,
  shared = false,
): { cropped: number; upscaled: number; bled: number } {
  if (!screen) {
    // No screen for this slide: a dark, lit glass rather than an empty hole.
    ctx.save();
    ctx.beginPath();
    ctx.roundRect(s.x, s.y, s.width, s.height, s.radius);
    ctx.clip();
    const g = ctx.createLinearGradient(s.x, s.y, s.x + s.width, s.y + s.height);
    g.addColorStop(0, '#23252B');
    g.addColorStop(1, '#0C0D10');
    ctx.fillStyle = g;
    ctx.fillRect(s.x, s.y, s.width, s.height);
    ctx.restore();
    return { cropped: 0, upscaled: 0, bled: 0 };
  }
  // A landscape screen in an upright device (arrange's `turned`): drawn a quarter turn clockwise,
  // its top to the right, as a phone held sideways shows it when stood up.
  const [tw, th] = turned ? [s.height, s.width] : [s.width, s.height];
  const info = { width: screen.width, height: screen.height };
  // Cover, anchored at the top (the status bar stays): scale to fill, crop what overflows.
  const scale = Math.max(tw / info.width, th / info.height);
  const [cw, ch] = [tw / scale, th / scale];
  // Skia's 'high' is a bicubic filter: sharpest when a screen is enlarged, but it cost 26 ms of
  // the bench slide's CPU where 'medium' (bilinear, mipmaps below half size) cost 12. Reduced,
  // the two differ by ~3 dB PSNR at 0.82 (a 1320-wide screen in the 6.9" frame; text reads
  // the same at 1:1), and at 0.4 'medium' is the closer to a Lanczos reduction of the two.
  const quality = scale > 1 ? 'high' : 'medium';
  const paint = (c: SKRSContext2D, x: number, y: number) => {
    c.save();
    c.beginPath();
    c.roundRect(x, y, s.width, s.height, s.radius);
    c.clip();
    // A transparent screen is drawn over black, as a phone shows it.
    if (screen.hasAlpha) {
      c.fillStyle = '#000000';
      c.fillRect(x, y, s.width, s.height);
    }
    if (turned) {
      c.translate(x + s.width / 2, y + s.height / 2);
      c.rotate(Math.PI / 2);
    }
    const [tx, ty] = turned ? [-tw / 2, -th / 2] : [x, y];
    c.imageSmoothingEnabled = true;
    c.imageSmoothingQuality = quality;
    c.drawImage(screen.image, (info.width - cw) / 2, 0, cw, ch, tx, ty, tw, th);
    c.restore();
  };
  // A screen other slides of the set show too is drawn once and copied (screen-sprite.ts); not
  // under a lean or a preview's scale, where the copy would be resampled.
  const m = ctx.getTransform();
  const plain = m.a === 1 && m.b === 0 && m.c === 0 && m.d === 1 && m.e === 0 && m.f === 0;
  if (shared && plain) screenSprite.draw(ctx, screen, s, JSON.stringify([s.radius, turned]), paint);
  else paint(ctx, s.x, s.y);
  const visible = Math.max(0, Math.min(s.y + s.height, slideHeight) - Math.max(s.y, 0));
  return {
    cropped: pct(1 - (cw * ch) / (info.width * info.height)),
    upscaled: pct(Math.max(0, scale - 1)),
    bled: pct(1 - visible / s.height),
  };
}

const pct = (share: number) => Math.round(share * 1000) / 10;

// Canvases kept between slides, one per size: a fresh 15 MB surface costs ~6 ms to allocate and
// clear. Taken out of the map while in use.
const slidesCanvases = new Map<string, Canvas>();

function take(spare: Map<string, Canvas>, key: string, width: number, height: number): Canvas {
  const canvas = spare.get(key);
  spare.delete(key);
  if (spare.size > 4) spare.clear();
  return canvas ?? createCanvas(width, height);
}

// This thread's screen and icon, each decoded into one kept skia Image (see ScreenSlot).
const screenSlot = new ScreenSlot();
const iconSlot = new ScreenSlot();
// This thread's copy of a screen that several slides of a set show.
export const screenSprite = new ScreenSprite();
const badgeSlot = new ScreenSlot();

type Composed = { data: Buffer; width: number; height: number; lint: DrawnLint };

/** Raw RGBA pixels of the slide (alpha is always opaque: the background covers everything) and what it drew. */
export async function composeRaw(task: SlideTask, decoded?: ScreenImage | null): Promise<Composed> {
  if (decoded !== undefined || !task.screen) return composeWith(task, decoded ?? null);
  const { screen, release } = await screenSlot.take(task.screen).catch((error: unknown) => {
    throw error instanceof ScreenError ? error : new ScreenError(error instanceof Error ? error.message : String(error));
  });
  try {
    return await composeWith(task, screen);
  } finally {
    release();
  }
}

/**
 * The slide's layout as drawn (a slide that cannot show its screen is a text slide), its text
 * block and where the text and the product go: what composeWith draws, and what the product-size
 * measures read (test/rendering/product-size.test.ts).
 */
export function arrange(
  ctx: SKRSContext2D,
  task: SlideTask,
  given: Display,
  marketing: boolean,
  screen: ScreenImage | null = null,
): { layout: string; block: TextBlock; at: Placement & { textCx?: number }; turned: boolean; tilt: number; row: RatingRow | null } {
  const { width, height } = slideSize(task.device, task.orientation);
  const sc = scaleOf(task.device, task.orientation);
  const bleedTheme = themeFor(task.theme).screen === 'bleed';
  // Only a slide without a screen is a text slide: a marketing picture is shown whole, unframed.
  const layout = task.slide.layout !== 'text-only' && !task.screen && bleedTheme ? 'text-only' : task.slide.layout;
  const m = task.metrics;
  // A landscape screen on a portrait slide: its device is stood upright and placed as any portrait
  // device (the product as big as the theme says, bleeding off the edge), the screen turned in it.
  // Laid flat it could be no taller than the slide's width allows: a strip with a third of the
  // slide empty above and below it.
  const turned = layout !== 'text-only' && !marketing && given.landscape && height > width && given.frame !== 'mac-window';
  const display = turned ? { ...given, landscape: false } : given;
  // A portrait device framed the usual way on a landscape slide stands beside its caption.
  const framed = layout !== 'text-only' && !marketing && !bleedTheme && display.frame !== 'mac-window';
  const side = framed && !display.landscape && width > height ? sideGeometry(task.device, display, sc) : null;
  const block =
    layout === 'text-only'
      ? posterBlock(ctx, task.slide, m, sc, task.theme)
      : textBlock(
          ctx,
          task.slide,
          m.headlineSizes[task.index] ?? m.headlineSizes[0],
          m.subSize,
          side ? { ...sc, textWidth: side.textWidth } : sc,
          task.theme,
        );
  const rating = layout === 'text-only' ? null : shownRating(task.rating);
  // The hero is the cover: its device leans (HERO_TILT; a landscape one under its caption on a
  // landscape slide, HERO_TILT_WIDE), lowered so that its raised corner stays clear of the text
  // and moved right so that its upper corner stays on the slide. Not a Mac window (a desktop's
  // windows stand straight), nor a device beside its caption, nor under a badge or a focus
  // callout, which sit on the screen's edges.
  // Nor a frameless screen on a landscape slide: turned, its square bottom corners cut the slide's
  // edge in a wedge, and it lowered the screen 4-5 % of its height further past the edge.
  const standing = bleedTheme && width > height;
  const leans = isHero(layout) && !marketing && !side && !standing && display.frame !== 'mac-window' && !task.badge && !task.slide.focus;
  const tilt = !leans ? 0 : height > width ? HERO_TILT : display.landscape ? HERO_TILT_WIDE : 0;
  const settled = (row: RatingRow | null): Placement & { textCx?: number } => {
    const at: Placement & { textCx?: number } =
      layout !== 'text-only' && screen && marketing
        ? unframedPlacement(screen, layout, m, sc)
        : side
          ? sidePlacement(side, block, sc)
          : place(task.device, layout, m, block, sc, display, task.theme, rating && !row ? ratingRoom(ctx, rating, m, sc) : 0, !task.badge);
    if (row) at.textCx = row.headlineCx;
    const upright = at.frame;
    lean(at, tilt, sc);
    // The hero's bottom is decided here, after its lean lowered one corner: the features' rule
    // (layout.ts featureWidth) applies to it too. A lowered corner 1.5 % of the height above the
    // edge (a one-line headline's hero, soft, dark, panoramic), or a bleed of 3 % (Android
    // tablet), reads as a crop that slipped. The nearer way out is taken: smaller (about its top,
    // so it stays under its text; never under MIN_HERO_SHARE, nor the features' width plus
    // HERO_LEAD) until it clears the bottom margin, else lowered until it bleeds MIN_BLEED.
    // A window (a Mac app's) plainly bleeds: lowered until WINDOW_MIN_BLEED of it lies past the
    // edge, taking its text half the way so that the band above it stays balanced.
    if (upright && at.frame && isHero(layout) && !marketing && !side) settleCover(task, at, upright, tilt, block, display, sc);
    if (at.bleed && isHero(layout) && !marketing && width > height) settleFramelessCover(task, at, display, sc);
    return at;
  };
  const stacked = settled(null);
  // On a landscape cover the rating stands beside a one-line headline where the pair fits
  // (layout.ts coverRatingRow) and the product is then no smaller: under it, the Android phone's
  // cover cleared the edge only made smaller (80 % of the width, was 86 %).
  const candidate =
    rating && isHero(layout) && !marketing && !side ? coverRatingRow(ctx, task.device, task.theme, rating, block, sc) : null;
  const beside = candidate && settled(candidate);
  const widthOf = (p: Placement) => (p.frame ?? p.bleed)?.width ?? 0;
  const row = beside && widthOf(beside) >= widthOf(stacked) - 1 ? candidate : null;
  const at = row && beside ? beside : stacked;
  // A feature lays out its set's cover as the cover's own slide does, and its product yields to
  // the cover's (cover-lead.ts): the tablets' covers showed 0.87-0.92 of their features' product.
  const cover = m.cover;
  if (cover && layout !== 'text-only' && !isHero(layout) && !marketing && !side) {
    const c = arrange(ctx, { ...task, index: cover.index, slide: cover.slide, rating: cover.rating }, given, false);
    const box = c.at.frame ?? c.at.bleed;
    if (box && isHero(c.layout)) yieldToCover(task, at, shownProduct(box, c.tilt, height), display, sc);
  }
  return { layout, block, at, turned, tilt, row };
}

async function composeWith(task: SlideTask, screen: ScreenImage | null): Promise<Composed> {
  const { width, height } = slideSize(task.device, task.orientation);
  const sc = scaleOf(task.device, task.orientation);
  const display = displayFor(task.device, screen);
  // A screen that is already a marketing picture, or of a shape no display of the family (nor a
  // frame it may borrow) has, is not framed again: it is shown whole, unframed, and the lint says why.
  let marketingImage: string | null = null;
  if (screen && display.crop > MAX_CROP)
    marketingImage = `its aspect (${screen.width}×${screen.height}) is not that of any ${DEVICES[task.device].family} display`;
  else if (screen) marketingImage = composition(screen);
  // A marketing picture is shown whole, unframed (unframedPlacement); only a slide without a screen is a text slide.
  const shown = screen;

  // A preview is drawn at its reduced size (a ninth of the pixels to fill) with the same layout.
  const k = task.scale ?? 1;
  const [cw, ch] = [Math.round(width * k), Math.round(height * k)];
  const canvas = take(slidesCanvases, `${cw}x${ch}`, cw, ch);
  // Opaque (alpha: false, fixed at the first getContext): the background covers every pixel.
  const ctx = canvas.getContext('2d', { alpha: false });
  ctx.reset();
  useBrandFont(ctx, task.font);
  if (k !== 1) ctx.scale(k, k);
  const look = lookOf(task.panorama ? PANORAMA_THEME : task.theme, task.slide, task.brand, task.panorama?.colors);
  const { layout, block, at, turned, tilt, row } = arrange(ctx, task, display, marketingImage !== null, screen);
  const iconLease = layout === 'text-only' && task.icon ? await iconSlot.take(task.icon).catch(() => null) : null;
  const icon = iconLease?.screen ?? null;
  // A text slide already shows the icon, large: the badge is for the slides with a screen.
  const badgeLease = layout !== 'text-only' && task.badge ? await badgeSlot.take(task.badge).catch(() => null) : null;
  const iconSize = Math.round(sc.base * 0.24);
  // The icon and the text are centred as one group.
  if (icon) at.textTop += Math.round((iconSize + sc.gap) / 2);
  let drawn: { cropped: number; upscaled: number; bled: number } | null = null;
  let data: Buffer;
  try {
    // A window's title bar takes its app's appearance: dark over a dark app (the probe is read anyway, by `composition`).
    const bar = at.frame && hasTitleBar(at.frame.frame) ? titleBarTone(shown && !marketingImage ? shown.probe() : null) : 'light';
    drawPlate(ctx, task, look, at.frame, at.bleed, tilt, bar);
    if (at.frame) {
      ctx.save();
      rotateAbout(ctx, at.frame, tilt);
      // Under a window's title bar the content's top corners are square.
      const s = at.frame.screen;
      const radius = hasTitleBar(at.frame.frame) ? [0, 0, s.radius, s.radius] : s.radius;
      drawn = drawScreen(ctx, { ...s, radius }, shown, height, turned, task.screenShared);
      drawCutout(ctx, task.device, at.frame);
      ctx.restore();
    } else if (at.bleed) {
      ctx.save();
      rotateAbout(ctx, at.bleed, tilt);
      drawn = drawScreen(ctx, { ...at.bleed, radius: at.bleed.radii }, shown, height, turned, task.screenShared);
      ctx.restore();
    } else if (icon) drawIcon(ctx, icon, width / 2, at.textTop - sc.gap - iconSize, iconSize);
    else if (layout === 'text-only') drawAccent(ctx, look.text, width / 2, at.textTop - sc.gap, sc);
    const accent = accentOf(look.theme, task.brand, look.text, look.stops);
    const cx = at.textCx ?? width / 2;
    drawWithAccent(ctx, accent, task.slide, block, cx, at.textTop, () => drawText(ctx, task.slide, block, look.text, cx, at.textTop));
    const rating = layout === 'text-only' ? null : shownRating(task.rating);
    if (rating && row) drawRatingRow(ctx, rating, row, look.text, at.textTop, block.headlineSize * HEADLINE_LINE_HEIGHT);
    else if (rating) drawRating(ctx, rating, task.metrics, sc, look.text, at.textTop + block.height);
    const drawnScreen = at.frame?.screen ?? at.bleed;
    if (shown && drawnScreen && task.slide.focus && !turned)
      drawFocus(ctx, task.slide.focus, shown, drawnScreen, at.textTop, block.height, sc);
    const anchor = at.frame ? at.frame.screen : at.bleed && { ...at.bleed, radius: at.bleed.radii[1] };
    if (badgeLease && anchor) drawBadge(ctx, badgeLease.screen.image, sc, anchor);
    // Skia draws lazily: the icons' pixels are read here, so their slots are held until now.
    data = canvas.data();
  } finally {
    iconLease?.release();
    badgeLease?.release();
  }
  slidesCanvases.set(`${cw}x${ch}`, canvas);
  const minFontPx = block.sub.length ? Math.min(block.subSize, block.headlineSize) : block.headlineSize;
  return {
    data,
    width: cw,
    height: ch,
    lint: {
      lines: { headline: block.headline, subheadline: block.sub },
      missingGlyphs: missingGlyphs(`${task.slide.headline} ${task.slide.subheadline ?? ''}`, leadOf(ctx)),
      minFontPx,
      minFontThumbnailPt: Math.round(((minFontPx * THUMBNAIL_PT) / sc.base) * 10) / 10,
      ...headlineLint(task.device, block.headlineSize, { width, height }),
      contrast: look.contrast,
      screenCroppedPct: shown && drawn ? drawn.cropped : null,
      screenUpscaledPct: shown && drawn ? drawn.upscaled : null,
      screenBleedPct: shown && drawn ? drawn.bled : null,
      marketingImage,
    },
  };
}

/** The headline as search results show it, and the warning when it is too small to read there. */
function headlineLint(
  device: SlideTask['device'],
  px: number,
  size: { width: number; height: number },
): Pick<DrawnLint, 'headlineSearchPt' | 'warnings'> {
  const pt = searchPt(device, px, size);
  return {
    headlineSearchPt: pt,
    warnings:
      pt < MIN_HEADLINE_SEARCH_PT
        ? [
            `The headline is ${pt} pt in the store's search results (the slide is shown ${searchWidthPt(device, size.width, size.height)} pt wide there), under ${MIN_HEADLINE_SEARCH_PT} pt: shorten it so it can be set larger.`,
          ]
        : [],
  };
}

/**
 * The slide's focus as a callout over its device, in the band the text leaves free. A focus that
 * does not lie within this screen (its screen was swapped since) is left out.
 */
function drawFocus(
  ctx: SKRSContext2D,
  f: Focus,
  screen: ScreenImage,
  on: CalloutRect,
  textTop: number,
  textHeight: number,
  sc: Scale,
): void {
  if (focusError(f, screen)) return;
  const pad = Math.round(sc.height * 0.03);
  const free =
    textTop < sc.height / 2 ? { top: textTop + textHeight + sc.gap, bottom: sc.height - pad } : { top: pad, bottom: textTop - sc.gap };
  const box = calloutBox(regionOnSlide(f, on, screen), sc, free);
  if (box) drawCallout(ctx, screen, f, box);
}

/** Why a screen is already a marketing composition, or null when it looks like an app's own screen. */
function composition(screen: ScreenImage): string | null {
  const p = screen.probe();
  const s = suspicion(p.data, p.width, p.height);
  if (s.caption) return `it already has a caption band ${s.caption === 'top' ? 'above' : 'below'} the screen`;
  if (s.framed) return 'it already shows a device frame on a background';
  return null;
}

/** The app icon above a text slide's headline, with the rounded corners and soft shadow of a home screen. */
function drawIcon(ctx: SKRSContext2D, icon: ScreenImage, cx: number, top: number, size: number): void {
  const x = Math.round(cx - size / 2);
  ctx.save();
  // Shadows ignore the transform: a preview's scale applies by hand.
  const k = ctx.getTransform().a;
  ctx.shadowColor = 'rgba(0, 0, 0, 0.28)';
  ctx.shadowBlur = size * 0.12 * k;
  ctx.shadowOffsetY = size * 0.04 * k;
  ctx.fillStyle = '#FFFFFF';
  ctx.beginPath();
  ctx.roundRect(x, top, size, size, size * 0.225);
  ctx.fill();
  ctx.restore();
  ctx.save();
  ctx.beginPath();
  ctx.roundRect(x, top, size, size, size * 0.225);
  ctx.clip();
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(icon.image, x, top, size, size);
  ctx.restore();
}

/** A text slide's mark above its headline: a short bar in the text colour, so the poster has a start. */
function drawAccent(ctx: SKRSContext2D, color: string, cx: number, bottom: number, sc: Scale): void {
  const w = sc.base * 0.16;
  const h = Math.max(6, Math.round(sc.base * 0.012));
  ctx.fillStyle = color;
  ctx.globalAlpha = 0.85;
  ctx.beginPath();
  ctx.roundRect(cx - w / 2, bottom - h, w, h, h / 2);
  ctx.fill();
  ctx.globalAlpha = 1;
}
