/**
 * A theme's record (THEMES, src/core/themes.ts) in pixels: the background's stops, the text colour
 * and the ornament. Colours come from the app's brand when the set has one, else from the slide's
 * planned colours; no theme is known here by its name.
 */
import type { SKRSContext2D } from '@napi-rs/canvas';
import { ANY_HEX, contrastRatio, LIGHT_TEXT, MIN_CONTRAST, fromHex, mix, textColorFor, toHex, withContrast } from '../core/colour.ts';
import { DEFAULT_THEME, themeFor, type BrandColors, type Theme, type ThemeId } from '../core/themes.ts';
import type { Scale } from './layout.ts';
import type { SlideLook } from './types.ts';

export interface Look {
  theme: ThemeId;
  /** Gradient stops of the background, top-left to bottom-right. */
  stops: string[];
  text: string;
  /** The text colour's lowest contrast against the background under it. */
  contrast: number;
  ornament: Theme['ornament'];
  /** The colour of the glow behind the device (the `glow` ornament). */
  glow: string | null;
  framed: boolean;
}

const lowest = (text: string, stops: string[]) => Math.min(...stops.map((s) => contrastRatio(text, s)));

/** The slide's own text colour when it is legible enough, else whichever of white and ink reads better. */
function textFor(stops: string[], wanted: string | undefined): string {
  if (wanted && ANY_HEX.test(wanted) && lowest(wanted, stops) >= MIN_CONTRAST) return wanted;
  return textColorFor(stops).textColor;
}

export function lookOf(theme: ThemeId | undefined, slide: SlideLook, brand: BrandColors | undefined, panoramaColors?: string[]): Look {
  const t = theme ?? DEFAULT_THEME;
  const rec = themeFor(t);
  const own = (panoramaColors ?? slide.background.colors).filter((c) => ANY_HEX.test(c));
  const primary = brand && ANY_HEX.test(brand.primary) ? brand.primary : (own[0] ?? '#4F46E5');
  const secondary = brand && ANY_HEX.test(brand.secondary) ? brand.secondary : (own[1] ?? mix(primary, '#000000', 0.25));
  // The slide's text colour was chosen for the slide's colours; with the brand's it is chosen anew.
  const wanted = brand ? undefined : slide.textColor;
  const bg = rec.background;
  let stops: string[];
  if (bg.kind === 'fixed') stops = [...bg.stops];
  else if (bg.planned && !brand && own.length) stops = own;
  else {
    const tint = brand ? bg.towardWhite : undefined;
    stops = (bg.colours === 'primary' ? [primary] : [primary, secondary]).map((c, i) => (tint ? mix(c, LIGHT_TEXT, tint[i]) : c));
  }
  if (stops.length === 1) stops = [stops[0], stops[0]];
  const text = rec.text === 'legible' ? textFor(stops, wanted) : rec.text.fixed;
  // A gradient of a light and a dark brand colour (a green to a navy) may let neither white nor
  // ink reach AA on both ends: the ends that fall short get darker (or lighter) in lightness only,
  // hue kept, until the text reads everywhere. Every slide of a panorama does the same: seams meet.
  if (lowest(text, stops) < MIN_CONTRAST) stops = stops.map((s) => withContrast(toHex(fromHex(s)), text));
  return {
    theme: t,
    stops,
    text,
    contrast: Math.round(lowest(text, stops) * 100) / 100,
    ornament: rec.ornament,
    glow: rec.ornament === 'glow' ? primary : null,
    framed: rec.screen === 'framed',
  };
}

/**
 * The background. In a panorama every slide draws the same wide picture shifted by its index, so
 * slide i holds exactly the i-th slice and the edges of neighbours meet.
 */
export function drawBackground(ctx: SKRSContext2D, sc: Scale, look: Look, panorama: { index: number; count: number } | null): void {
  const W = sc.width;
  const H = sc.height;
  const count = panorama?.count ?? 1;
  const total = W * count;
  ctx.save();
  if (panorama) ctx.translate(-panorama.index * W, 0);
  const g = ctx.createLinearGradient(0, 0, total, H);
  look.stops.forEach((c, i) => g.addColorStop(i / (look.stops.length - 1), c));
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, total, H);
  if (look.ornament === 'ribbon' && panorama) {
    // A ribbon and a disc on every seam, half on each slide: swiping shows one continuous picture.
    // Toned away from the text colour (darker under white text, lighter under ink), so the text
    // reads over them at least as well as on the gradient; strong enough to be seen in the margins
    // beside the devices, where the seams are.
    const tone = (alpha: number) => (look.text === LIGHT_TEXT ? `rgba(0, 0, 0, ${alpha})` : `rgba(255, 255, 255, ${alpha * 1.6})`);
    const short = Math.min(W, H);
    ctx.fillStyle = tone(0.16);
    ctx.beginPath();
    ctx.moveTo(0, H * 0.6);
    for (let x = 0; x <= total; x += W / 16) ctx.lineTo(x, H * (0.6 + 0.08 * Math.sin((x / W) * Math.PI)));
    for (let x = total; x >= 0; x -= W / 16) ctx.lineTo(x, H * (0.76 + 0.08 * Math.sin((x / W) * Math.PI + 0.8)));
    ctx.closePath();
    ctx.fill();
    for (let i = 1; i < count; i++) {
      ctx.fillStyle = tone(0.2);
      ctx.beginPath();
      ctx.arc(i * W, H * (i % 2 ? 0.36 : 0.52), short * 0.3, 0, Math.PI * 2);
      ctx.fill();
    }
  } else if (look.ornament === 'glow' && look.glow) {
    const r = ctx.createRadialGradient(W / 2, H * 0.62, 0, W / 2, H * 0.62, W * 0.8);
    r.addColorStop(0, `${look.glow}8C`);
    r.addColorStop(1, `${look.glow}00`);
    ctx.fillStyle = r;
    ctx.fillRect(0, 0, W, H);
  }
  ctx.restore();
}
