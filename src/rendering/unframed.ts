/**
 * Placements for what a device's usual layout does not fit: a listing picture that is already a
 * marketing image (shown whole, unframed: framing it again would put a phone inside a phone, and
 * leaving it out would leave the slide without the product), and a portrait device on a landscape
 * slide (beside its caption).
 */
import type { Device } from '../core/devices.ts';
import { frameBox, frameWidthFor, type Display } from './frames.ts';
import type { Bleed, Placement, Scale, TextBlock } from './layout.ts';
import type { SetMetrics } from './types.ts';

/** Corner radius of an unframed picture, per pixel of its short side: a card, not a device. */
const CARD_RADIUS = 0.035;
/** The widest an unframed picture is drawn, as a share of the slide's width. */
const CARD_WIDTH = 0.88;
const bottomPadOf = (sc: Scale) => Math.round(sc.height * 0.045);

/**
 * A picture shown whole, without a frame, in the room the device would have had: under the text
 * (above it for `headline-bottom`), as large as fits, centred, rounded like a card.
 */
export function unframedPlacement(pic: { width: number; height: number }, layout: string, m: SetMetrics, sc: Scale): Placement {
  const { width: W, height: H, padTop, gap } = sc;
  const bottomPad = bottomPadOf(sc);
  const below = layout === 'headline-bottom';
  const textTop = below ? H - padTop - m.blockHeight : padTop;
  const [top, bottom] = below ? [bottomPad, textTop - gap] : [padTop + m.blockHeight + gap, H - bottomPad];
  const room = Math.max(1, bottom - top);
  const k = Math.min((W * CARD_WIDTH) / pic.width, room / pic.height);
  const [w, h] = [Math.round(pic.width * k), Math.round(pic.height * k)];
  const r = Math.round(Math.min(w, h) * CARD_RADIUS);
  const bleed: Bleed = { x: Math.round((W - w) / 2), y: Math.round(top + (room - h) / 2), width: w, height: h, radii: [r, r, r, r] };
  return { textTop, frame: null, bleed };
}

/** A portrait device on a landscape slide: its outer height, as a share of the slide's. */
const SIDE_DEVICE_HEIGHT = 0.88;

/** Where the text goes when it is not centred over the slide's width. */
export type SidePlacement = Placement & { textCx: number; textWidth: number };

/**
 * A portrait device on a landscape slide (an upright app on a set turned for the app's landscape
 * screens, or as asked): the device as tall as the slide allows at the right, the caption in the
 * column left of it, centred there. Above the device the caption would leave it a sliver.
 */
export function sideGeometry(device: Device, d: Display, sc: Scale): Omit<SidePlacement, 'textTop'> {
  const { width: W, height: H, margin } = sc;
  const w = frameWidthFor(device, d, W * 0.55, H * SIDE_DEVICE_HEIGHT);
  const probe = frameBox(device, d, 0, 0, w);
  const cx = W - margin - probe.width / 2;
  const frame = frameBox(device, d, cx, Math.round((H - probe.height) / 2), w);
  const right = frame.x - margin;
  return { frame, bleed: null, textCx: Math.round((margin + right) / 2), textWidth: Math.max(1, right - margin) };
}

export function sidePlacement(geometry: Omit<SidePlacement, 'textTop'>, own: TextBlock, sc: Scale): SidePlacement {
  return { ...geometry, textTop: Math.round((sc.height - own.height) / 2) };
}
