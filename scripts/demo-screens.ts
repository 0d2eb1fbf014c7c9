/**
 * `npm run demo:screens`: draws the sample app's icon and screens that `shotgen demo` uploads
 * (src/cli/demo/): Fernly, a plant-care app, at the iPhone 16 Pro Max's screenshot size (1320 ×
 * 2868). Drawn with the renderer's own canvas and fonts, so they need nothing from the network, and
 * written as palette PNGs so that the repository holds them small. Each screen shows the feature of
 * the demo set's slide that frames it (in order: today's care, identify a plant, reminders, a
 * plant's watering schedule, the light meter).
 */
import { createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { fontString, registerFonts } from '../src/rendering/fonts.ts';

const OUT = fileURLToPath(new URL('../src/cli/demo/', import.meta.url));
const SCALE = 3;
const W = 440;
const H = 956;

const C = {
  bg: '#F3F6F1',
  card: '#FFFFFF',
  ink: '#18261D',
  muted: '#66756B',
  line: '#E1E8E0',
  green: '#2E7D4F',
  leaf: '#3E9B5F',
  leafDark: '#236B40',
  leafLight: '#7CC493',
  water: '#2F7FC1',
  waterBg: '#E3F0FA',
  sun: '#F0A92E',
  sunBg: '#FDF1DA',
  red: '#B8322A',
  redBg: '#FBE3E3',
  pot: '#C8714B',
};

type Ctx = SKRSContext2D;

function text(
  ctx: Ctx,
  s: string,
  x: number,
  y: number,
  size: number,
  color: string,
  weight: 400 | 700 = 400,
  align: CanvasTextAlign = 'left',
) {
  ctx.font = fontString(weight, size, s);
  ctx.fillStyle = color;
  ctx.textAlign = align;
  ctx.textBaseline = 'alphabetic';
  ctx.fillText(s, x, y);
}

function box(ctx: Ctx, x: number, y: number, w: number, h: number, r: number, fill: string, shadow = false) {
  ctx.save();
  if (shadow) {
    ctx.shadowColor = 'rgba(24, 38, 29, 0.08)';
    ctx.shadowBlur = 12;
    ctx.shadowOffsetY = 3;
  }
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, r);
  ctx.fillStyle = fill;
  ctx.fill();
  ctx.restore();
}

function chip(ctx: Ctx, label: string, x: number, y: number, fg: string, bg: string, alignRight = false): number {
  ctx.font = fontString(700, 13, label);
  const w = ctx.measureText(label).width + 22;
  const left = alignRight ? x - w : x;
  box(ctx, left, y, w, 26, 13, bg);
  text(ctx, label, left + 11, y + 17.5, 13, fg, 700);
  return w;
}

/** A leaf from its base along `angle` (radians): two curves and a midrib. */
function leaf(ctx: Ctx, x: number, y: number, length: number, width: number, angle: number, color: string, rib = true) {
  ctx.save();
  ctx.translate(x, y);
  ctx.rotate(angle);
  ctx.beginPath();
  ctx.moveTo(0, 0);
  ctx.bezierCurveTo(length * 0.25, -width, length * 0.75, -width * 0.8, length, 0);
  ctx.bezierCurveTo(length * 0.75, width * 0.8, length * 0.25, width, 0, 0);
  ctx.fillStyle = color;
  ctx.fill();
  if (rib) {
    ctx.beginPath();
    ctx.moveTo(0, 0);
    ctx.lineTo(length * 0.92, 0);
    ctx.strokeStyle = 'rgba(255,255,255,0.45)';
    ctx.lineWidth = Math.max(1, width * 0.08);
    ctx.stroke();
  }
  ctx.restore();
}

/** A monstera leaf, tip up from its base at (x, y): a broad heart with the slits that name it. */
function monstera(ctx: Ctx, x: number, y: number, size: number, angle: number, color: string, slit: string) {
  ctx.save();
  ctx.translate(x, y);
  ctx.rotate(angle);
  ctx.beginPath();
  ctx.moveTo(0, -size * 0.08);
  ctx.bezierCurveTo(-size * 0.3, size * 0.08, -size * 0.62, -size * 0.12, -size * 0.55, -size * 0.55);
  ctx.bezierCurveTo(-size * 0.48, -size * 0.9, -size * 0.1, -size * 1.02, 0, -size);
  ctx.bezierCurveTo(size * 0.1, -size * 1.02, size * 0.48, -size * 0.9, size * 0.55, -size * 0.55);
  ctx.bezierCurveTo(size * 0.62, -size * 0.12, size * 0.3, size * 0.08, 0, -size * 0.08);
  ctx.fillStyle = color;
  ctx.fill();
  // The slits run in from the margin towards the midrib: drawn clipped to the leaf, in the colour behind it.
  ctx.clip();
  ctx.strokeStyle = slit;
  ctx.lineCap = 'round';
  ctx.lineWidth = size * 0.045;
  for (const t of [0.28, 0.45, 0.62, 0.78]) {
    for (const side of [-1, 1]) {
      ctx.beginPath();
      ctx.moveTo(side * size * 0.75, -size * t + size * 0.06);
      ctx.lineTo(side * size * 0.2, -size * t - size * 0.05);
      ctx.stroke();
    }
  }
  ctx.beginPath();
  ctx.moveTo(0, -size * 0.1);
  ctx.lineTo(0, -size * 0.95);
  ctx.strokeStyle = 'rgba(255,255,255,0.35)';
  ctx.lineWidth = size * 0.025;
  ctx.stroke();
  ctx.restore();
}

/** A round avatar with a small plant in it; `kind` picks its leaves. */
function plantAvatar(ctx: Ctx, cx: number, cy: number, r: number, kind: number) {
  ctx.save();
  ctx.beginPath();
  ctx.arc(cx, cy, r, 0, Math.PI * 2);
  ctx.fillStyle = ['#E4F2E8', '#EAF0DC', '#E0EFEA', '#F1EEDD', '#E6ECF4'][kind % 5];
  ctx.fill();
  ctx.clip();
  const base = cy + r * 0.55;
  if (kind === 0) {
    monstera(ctx, cx - r * 0.15, base, r * 1.0, -0.35, C.leaf, '#E4F2E8');
    monstera(ctx, cx + r * 0.2, base, r * 0.85, 0.4, C.leafDark, '#E4F2E8');
  } else if (kind === 1) {
    for (const [dx, dy, a] of [
      [0, 0, -1.9],
      [0, -r * 0.35, -1.2],
      [0, -r * 0.2, -2.3],
      [0, -r * 0.6, -1.6],
    ])
      leaf(ctx, cx + dx, base + dy, r * 0.75, r * 0.32, a, C.leafDark);
  } else if (kind === 2) {
    for (const a of [-1.35, -1.57, -1.8]) leaf(ctx, cx + (a + 1.57) * r * 0.5, base, r * 1.15, r * 0.16, a, '#4E8F5A', false);
  } else if (kind === 3) {
    for (const a of [-2.6, -2.0, -1.4, -0.8, -0.4]) leaf(ctx, cx, base - r * 0.1, r * 0.7, r * 0.25, a, C.leafLight);
  } else {
    for (const a of [-2.2, -1.57, -0.95]) leaf(ctx, cx, base, r * 0.95, r * 0.4, a, '#3C7A63');
  }
  ctx.fillStyle = C.pot;
  ctx.beginPath();
  ctx.moveTo(cx - r * 0.32, base);
  ctx.lineTo(cx + r * 0.32, base);
  ctx.lineTo(cx + r * 0.25, cy + r);
  ctx.lineTo(cx - r * 0.25, cy + r);
  ctx.fill();
  ctx.restore();
}

function statusBar(ctx: Ctx, dark = false) {
  const ink = dark ? '#FFFFFF' : C.ink;
  text(ctx, '9:41', 52, 40, 17, ink, 700, 'center');
  ctx.fillStyle = ink;
  for (let i = 0; i < 4; i++) ctx.fillRect(330 + i * 6, 36 - (i + 1) * 3, 4, (i + 1) * 3);
  ctx.beginPath();
  ctx.arc(365, 38, 9, -Math.PI * 0.78, -Math.PI * 0.22);
  ctx.lineTo(365, 38);
  ctx.fill();
  ctx.beginPath();
  ctx.roundRect(383, 26, 27, 13, 4);
  ctx.strokeStyle = ink;
  ctx.lineWidth = 1.2;
  ctx.stroke();
  ctx.beginPath();
  ctx.roundRect(385, 28, 20, 9, 2);
  ctx.fill();
  ctx.fillRect(411.5, 30, 1.8, 5);
}

const TABS = ['Today', 'Plants', 'Identify', 'Light', 'Journal'];

function tabIcon(ctx: Ctx, i: number, cx: number, cy: number, color: string) {
  ctx.save();
  ctx.fillStyle = color;
  ctx.strokeStyle = color;
  ctx.lineWidth = 2;
  ctx.beginPath();
  if (i === 0) {
    ctx.moveTo(cx, cy - 11);
    ctx.bezierCurveTo(cx + 9, cy - 1, cx + 8, cy + 10, cx, cy + 10);
    ctx.bezierCurveTo(cx - 8, cy + 10, cx - 9, cy - 1, cx, cy - 11);
    ctx.fill();
  } else if (i === 1) {
    ctx.restore();
    leaf(ctx, cx - 8, cy + 9, 22, 8, -0.8, color, false);
    return;
  } else if (i === 2) {
    ctx.roundRect(cx - 12, cy - 7, 24, 17, 4);
    ctx.fill();
    ctx.fillRect(cx - 5, cy - 10, 10, 4);
    ctx.beginPath();
    ctx.arc(cx, cy + 1.5, 5, 0, Math.PI * 2);
    ctx.fillStyle = '#FFFFFF';
    ctx.fill();
  } else if (i === 3) {
    ctx.arc(cx, cy, 5.5, 0, Math.PI * 2);
    ctx.fill();
    for (let k = 0; k < 8; k++) {
      const a = (k * Math.PI) / 4;
      ctx.beginPath();
      ctx.moveTo(cx + Math.cos(a) * 8.5, cy + Math.sin(a) * 8.5);
      ctx.lineTo(cx + Math.cos(a) * 12, cy + Math.sin(a) * 12);
      ctx.stroke();
    }
  } else {
    ctx.roundRect(cx - 10, cy - 11, 20, 22, 3);
    ctx.fill();
    ctx.fillStyle = '#FFFFFF';
    ctx.fillRect(cx - 5, cy - 5, 10, 2);
    ctx.fillRect(cx - 5, cy, 10, 2);
  }
  ctx.restore();
}

function tabBar(ctx: Ctx, selected: number) {
  ctx.fillStyle = 'rgba(255,255,255,0.97)';
  ctx.fillRect(0, H - 86, W, 86);
  ctx.fillStyle = C.line;
  ctx.fillRect(0, H - 86, W, 1);
  TABS.forEach((label, i) => {
    const cx = 44 + i * 88;
    const color = i === selected ? C.green : '#98A39B';
    tabIcon(ctx, i, cx, H - 62, color);
    text(ctx, label, cx, H - 36, 11, color, 700, 'center');
  });
}

function screen(draw: (ctx: Ctx) => void): Promise<Buffer> {
  const canvas = createCanvas(W * SCALE, H * SCALE);
  const ctx = canvas.getContext('2d');
  ctx.scale(SCALE, SCALE);
  ctx.fillStyle = C.bg;
  ctx.fillRect(0, 0, W, H);
  draw(ctx);
  const raw = canvas.data();
  // A palette of 192 colours keeps the anti-aliased text clean and the file a fraction of a full-colour PNG.
  return sharp(raw, { raw: { width: W * SCALE, height: H * SCALE, channels: 4 } })
    .removeAlpha()
    .png({ palette: true, colours: 192, effort: 10, compressionLevel: 9 })
    .toBuffer();
}

function row(ctx: Ctx, y: number, kind: number, name: string, place: string, chipLabel: string, fg: string, bg: string) {
  box(ctx, 20, y, 400, 76, 18, C.card, true);
  plantAvatar(ctx, 58, y + 38, 24, kind);
  text(ctx, name, 94, y + 33, 17, C.ink, 700);
  text(ctx, place, 94, y + 55, 14, C.muted);
  chip(ctx, chipLabel, 404, y + 25, fg, bg, true);
}

const today = () =>
  screen((ctx) => {
    statusBar(ctx);
    text(ctx, 'Tuesday, 14 May', 24, 92, 15, C.muted, 700);
    text(ctx, 'Today', 24, 132, 34, C.ink, 700);
    plantAvatar(ctx, 396, 110, 22, 3);
    const g = ctx.createLinearGradient(20, 156, 420, 290);
    g.addColorStop(0, '#2E7D4F');
    g.addColorStop(1, '#3F9E6A');
    box(ctx, 20, 156, 400, 132, 24, '#2E7D4F', true);
    ctx.save();
    ctx.beginPath();
    ctx.roundRect(20, 156, 400, 132, 24);
    ctx.fillStyle = g;
    ctx.fill();
    ctx.clip();
    leaf(ctx, 360, 300, 120, 40, -1.2, 'rgba(255,255,255,0.10)', false);
    leaf(ctx, 395, 300, 100, 34, -1.9, 'rgba(255,255,255,0.08)', false);
    ctx.restore();
    text(ctx, 'Good morning, Maya', 40, 194, 20, '#FFFFFF', 700);
    text(ctx, '3 plants need you today', 40, 220, 15, 'rgba(255,255,255,0.85)');
    box(ctx, 40, 240, 250, 10, 5, 'rgba(255,255,255,0.25)');
    box(ctx, 40, 240, 100, 10, 5, '#FFFFFF');
    text(ctx, '2 of 5 done', 40, 274, 13, 'rgba(255,255,255,0.85)', 700);
    text(ctx, 'Needs care', 24, 330, 20, C.ink, 700);
    row(ctx, 346, 0, 'Monstera', 'Living room · 8 days since water', 'Water', C.water, C.waterBg);
    row(ctx, 434, 1, 'Fiddle-leaf fig', 'Bedroom · monthly feed due', 'Feed', '#9A6A12', C.sunBg);
    row(ctx, 522, 3, 'Golden pothos', 'Kitchen · top soil dry', 'Water', C.water, C.waterBg);
    text(ctx, 'Coming up', 24, 648, 20, C.ink, 700);
    row(ctx, 664, 2, 'Snake plant', 'Hallway', 'In 3 days', C.muted, '#EDF1EC');
    row(ctx, 752, 4, 'Calathea', 'Bathroom', 'Mist tomorrow', C.green, '#E2F1E7');
    tabBar(ctx, 0);
  });

const identify = () =>
  screen((ctx) => {
    const g = ctx.createLinearGradient(0, 0, 0, 560);
    g.addColorStop(0, '#1D2B22');
    g.addColorStop(1, '#324A38');
    ctx.fillStyle = g;
    ctx.fillRect(0, 0, W, 600);
    monstera(ctx, 205, 500, 330, -0.12, '#3C8A55', '#2A3F30');
    monstera(ctx, 400, 600, 190, 0.55, '#2F7447', '#2F4634');
    statusBar(ctx, true);
    text(ctx, 'Identify', W / 2, 92, 17, '#FFFFFF', 700, 'center');
    ctx.strokeStyle = '#FFFFFF';
    ctx.lineWidth = 4;
    ctx.lineCap = 'round';
    for (const [x, y, dx, dy] of [
      [70, 140, 1, 1],
      [370, 140, -1, 1],
      [70, 470, 1, -1],
      [370, 470, -1, -1],
    ]) {
      ctx.beginPath();
      ctx.moveTo(x, y + dy * 34);
      ctx.lineTo(x, y);
      ctx.lineTo(x + dx * 34, y);
      ctx.stroke();
    }
    box(ctx, 0, 540, W, H - 540, 28, C.card, true);
    ctx.fillRect(0, 600, W, H - 600);
    box(ctx, W / 2 - 20, 552, 40, 5, 3, C.line);
    chip(ctx, '97% match', 24, 580, C.green, '#E2F1E7');
    text(ctx, 'Monstera deliciosa', 24, 640, 27, C.ink, 700);
    text(ctx, 'Swiss cheese plant · Araceae', 24, 666, 15, C.muted);
    const facts: [string, string, string, string][] = [
      ['Light', 'Bright, indirect', C.sun, C.sunBg],
      ['Water', 'Every 7–10 days', C.water, C.waterBg],
      ['Pets', 'Toxic to cats and dogs', C.red, C.redBg],
    ];
    facts.forEach(([label, value, fg, bg], i) => {
      const y = 690 + i * 52;
      box(ctx, 24, y, 40, 40, 12, bg);
      ctx.beginPath();
      ctx.arc(44, y + 20, 7, 0, Math.PI * 2);
      ctx.fillStyle = fg;
      ctx.fill();
      text(ctx, label, 76, y + 17, 13, C.muted, 700);
      text(ctx, value, 76, y + 36, 16, C.ink, 700);
    });
    box(ctx, 24, 854, 392, 54, 27, C.green);
    text(ctx, 'Add to my plants', W / 2, 887, 17, '#FFFFFF', 700, 'center');
  });

function toggle(ctx: Ctx, x: number, y: number, on: boolean) {
  box(ctx, x, y, 50, 30, 15, on ? C.leaf : '#D5DDD5');
  ctx.beginPath();
  ctx.arc(on ? x + 35 : x + 15, y + 15, 12, 0, Math.PI * 2);
  ctx.fillStyle = '#FFFFFF';
  ctx.fill();
}

const reminders = () =>
  screen((ctx) => {
    statusBar(ctx);
    text(ctx, 'Reminders', 24, 118, 34, C.ink, 700);
    box(ctx, 24, 138, 392, 36, 10, '#E4EAE3');
    box(ctx, 27, 141, 193, 30, 8, C.card, true);
    text(ctx, 'Upcoming', 123, 161, 14, C.ink, 700, 'center');
    text(ctx, 'History', 318, 161, 14, C.muted, 700, 'center');
    const group = (y: number, title: string) => text(ctx, title, 24, y, 15, C.muted, 700);
    const item = (y: number, kind: number, what: string, when: string, on: boolean, fg: string) => {
      box(ctx, 20, y, 400, 72, 18, C.card, true);
      plantAvatar(ctx, 56, y + 36, 22, kind);
      text(ctx, what, 90, y + 32, 17, C.ink, 700);
      ctx.beginPath();
      ctx.arc(95, y + 49, 4, 0, Math.PI * 2);
      ctx.fillStyle = fg;
      ctx.fill();
      text(ctx, when, 105, y + 54, 14, C.muted);
      toggle(ctx, 354, y + 21, on);
    };
    group(214, 'TODAY');
    item(226, 0, 'Water Monstera', '9:00 · about 500 ml', true, C.water);
    item(306, 3, 'Water Golden pothos', '18:00 · until it drains', true, C.water);
    group(410, 'TOMORROW');
    item(422, 4, 'Mist Calathea', '8:30 · humid spot', true, C.leaf);
    group(526, 'SATURDAY');
    item(538, 1, 'Feed Fiddle-leaf fig', '10:00 · half-strength', false, C.sun);
    box(ctx, 20, 640, 400, 150, 22, C.waterBg);
    text(ctx, 'Away this weekend?', 40, 680, 19, C.ink, 700);
    text(ctx, 'Snooze reminders and Fernly catches up', 40, 706, 15, C.muted);
    text(ctx, 'with every plant when you are back.', 40, 726, 15, C.muted);
    box(ctx, 40, 744, 150, 34, 17, C.water);
    text(ctx, 'Snooze until Mon', 115, 766, 14, '#FFFFFF', 700, 'center');
    tabBar(ctx, 0);
  });

function pottedPlant(ctx: Ctx, cx: number, base: number) {
  for (const [dx, size, a, color] of [
    [-40, 150, -0.55, C.leafDark],
    [35, 140, 0.5, C.leaf],
    [-5, 175, -0.05, C.leaf],
    [-70, 110, -0.95, C.leaf],
    [70, 105, 0.95, C.leafDark],
  ] as const) {
    ctx.strokeStyle = '#4F7A52';
    ctx.lineWidth = 3;
    ctx.beginPath();
    ctx.moveTo(cx, base);
    const tipX = cx + dx + Math.sin(a) * size * 0.2;
    const tipY = base - size * 0.55;
    ctx.quadraticCurveTo(cx + dx * 0.3, base - size * 0.3, tipX, tipY);
    ctx.stroke();
    monstera(ctx, tipX, tipY + size * 0.1, size * 0.75, a, color, '#E4F2E8');
  }
  ctx.fillStyle = C.pot;
  ctx.beginPath();
  ctx.moveTo(cx - 62, base - 6);
  ctx.lineTo(cx + 62, base - 6);
  ctx.lineTo(cx + 48, base + 84);
  ctx.lineTo(cx - 48, base + 84);
  ctx.fill();
  box(ctx, cx - 70, base - 14, 140, 22, 6, '#B5603D');
}

const schedule = () =>
  screen((ctx) => {
    ctx.fillStyle = '#E4F2E8';
    ctx.fillRect(0, 0, W, 380);
    pottedPlant(ctx, W / 2, 270);
    statusBar(ctx);
    box(ctx, 20, 60, 40, 40, 20, 'rgba(255,255,255,0.9)');
    text(ctx, '‹', 40, 90, 28, C.ink, 700, 'center');
    box(ctx, 0, 356, W, H - 356, 28, C.bg);
    text(ctx, 'Monstera', 24, 410, 30, C.ink, 700);
    text(ctx, 'Living room · east window · 24 cm pot', 24, 436, 15, C.muted);
    box(ctx, 20, 458, 400, 206, 22, C.card, true);
    text(ctx, 'WATERING', 40, 490, 13, C.water, 700);
    text(ctx, 'Every 8 days', 40, 524, 24, C.ink, 700);
    text(ctx, 'Next on Thursday · fitted to spring light', 40, 548, 15, C.muted);
    const days = ['M', 'T', 'W', 'T', 'F', 'S', 'S'];
    days.forEach((d, i) => {
      const cx = 58 + i * 54;
      const due = i === 3;
      box(ctx, cx - 20, 568, 40, 74, 14, due ? C.water : '#F1F5F0');
      text(ctx, d, cx, 592, 14, due ? '#FFFFFF' : C.muted, 700, 'center');
      text(ctx, String(13 + i), cx, 616, 16, due ? '#FFFFFF' : C.ink, 700, 'center');
      if (due || i === 0) {
        ctx.beginPath();
        ctx.arc(cx, 630, 3.5, 0, Math.PI * 2);
        ctx.fillStyle = due ? '#FFFFFF' : C.water;
        ctx.fill();
      }
    });
    box(ctx, 20, 680, 400, 78, 22, C.card, true);
    text(ctx, 'Soil still damp?', 40, 712, 18, C.ink, 700);
    text(ctx, 'Fernly moves the schedule for you.', 40, 736, 14, C.muted);
    chip(ctx, 'Check in 2 days', 404, 706, C.water, C.waterBg, true);
    const stats: [string, string][] = [
      ['Light', 'Indirect'],
      ['Humidity', '60%'],
      ['Food', 'Monthly'],
    ];
    stats.forEach(([label, value], i) => {
      const x = 20 + i * 136;
      box(ctx, x, 774, 128, 70, 18, C.card, true);
      text(ctx, label, x + 16, 802, 13, C.muted, 700);
      text(ctx, value, x + 16, 828, 16, C.ink, 700);
    });
    tabBar(ctx, 1);
  });

const light = () =>
  screen((ctx) => {
    statusBar(ctx);
    text(ctx, 'Light meter', 24, 118, 34, C.ink, 700);
    text(ctx, 'Hold your phone where the plant will stand', 24, 146, 15, C.muted);
    box(ctx, 20, 170, 400, 350, 26, C.card, true);
    const cx = W / 2;
    const cy = 380;
    const r = 140;
    const bands = ['#5A6E8C', '#7D9B86', '#9CC07A', '#F2C14E', '#F08A3C'];
    bands.forEach((color, i) => {
      ctx.beginPath();
      ctx.arc(cx, cy, r, Math.PI + (i * Math.PI) / 5 + 0.02, Math.PI + ((i + 1) * Math.PI) / 5 - 0.02);
      ctx.strokeStyle = color;
      ctx.lineWidth = 22;
      ctx.lineCap = 'butt';
      ctx.stroke();
    });
    const a = Math.PI + Math.PI * 0.64;
    ctx.beginPath();
    ctx.moveTo(cx, cy);
    ctx.lineTo(cx + Math.cos(a) * (r - 30), cy + Math.sin(a) * (r - 30));
    ctx.strokeStyle = C.ink;
    ctx.lineWidth = 5;
    ctx.lineCap = 'round';
    ctx.stroke();
    ctx.beginPath();
    ctx.arc(cx, cy, 10, 0, Math.PI * 2);
    ctx.fillStyle = C.ink;
    ctx.fill();
    text(ctx, 'Low', cx - r - 4, cy + 34, 13, C.muted, 700, 'center');
    text(ctx, 'Direct sun', cx + r + 4, cy + 34, 13, C.muted, 700, 'center');
    text(ctx, '1,850 lux', cx, cy + 72, 32, C.ink, 700, 'center');
    ctx.font = fontString(700, 13, 'Bright, indirect light');
    chip(ctx, 'Bright, indirect light', cx - (ctx.measureText('Bright, indirect light').width + 22) / 2, 474, '#8A5A00', C.sunBg);
    text(ctx, 'Happy here', 24, 562, 20, C.ink, 700);
    const happy: [number, string][] = [
      [0, 'Monstera'],
      [3, 'Pothos'],
      [1, 'Fiddle-leaf'],
    ];
    happy.forEach(([kind, name], i) => {
      const x = 20 + i * 136;
      box(ctx, x, 578, 128, 112, 20, C.card, true);
      plantAvatar(ctx, x + 64, 620, 28, kind);
      text(ctx, name, x + 64, 674, 14, C.ink, 700, 'center');
    });
    box(ctx, 20, 706, 400, 64, 18, C.redBg);
    text(ctx, 'Too bright for your Calathea:', 40, 734, 15, C.red, 700);
    text(ctx, 'its leaves curl in more than 1,500 lux.', 40, 754, 14, C.ink);
    box(ctx, 24, 790, 392, 54, 27, C.green);
    text(ctx, 'Save spot: Living room', W / 2, 823, 17, '#FFFFFF', 700, 'center');
    tabBar(ctx, 3);
  });

async function icon(): Promise<Buffer> {
  const S = 1024;
  const canvas = createCanvas(S, S);
  const ctx = canvas.getContext('2d');
  const g = ctx.createLinearGradient(0, 0, S, S);
  g.addColorStop(0, '#3FA56A');
  g.addColorStop(1, '#1F6A3F');
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, S, S);
  // A fern frond: a curved stem and pairs of leaflets that shrink towards the tip.
  ctx.save();
  ctx.translate(S * 0.5, S * 0.86);
  const stem = (t: number): [number, number] => [-30 * Math.sin(t * Math.PI), -t * 700];
  ctx.strokeStyle = '#FFFFFF';
  ctx.lineWidth = 22;
  ctx.lineCap = 'round';
  ctx.beginPath();
  for (let t = 0; t <= 1.0001; t += 0.02) {
    const [x, y] = stem(t);
    if (t === 0) ctx.moveTo(x, y);
    else ctx.lineTo(x, y);
  }
  ctx.stroke();
  for (let i = 0; i < 10; i++) {
    const t = 0.14 + (i / 10) * 0.82;
    const [x, y] = stem(t);
    const len = 250 * (1 - t * 0.75);
    leaf(ctx, x, y, len, len * 0.18, -0.55 - t * 0.3, '#FFFFFF', false);
    leaf(ctx, x, y, len, len * 0.18, Math.PI + 0.55 + t * 0.3, '#FFFFFF', false);
  }
  ctx.restore();
  return sharp(canvas.data(), { raw: { width: S, height: S, channels: 4 } })
    .removeAlpha()
    .png({ palette: true, colours: 64, effort: 10, compressionLevel: 9 })
    .toBuffer();
}

registerFonts();
const files: [string, () => Promise<Buffer>][] = [
  ['icon.png', icon],
  ['screen-1-today.png', today],
  ['screen-2-identify.png', identify],
  ['screen-3-reminders.png', reminders],
  ['screen-4-schedule.png', schedule],
  ['screen-5-light.png', light],
];
for (const [name, draw] of files) {
  const png = await draw();
  writeFileSync(`${OUT}${name}`, png);
  console.log(`wrote src/cli/demo/${name} (${(png.length / 1024).toFixed(0)} KB)`);
}
