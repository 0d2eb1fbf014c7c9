/**
 * The golden-image cases: every layout on each device family with a screen of a real display's
 * shape, landscape screens, a marketing picture from a listing, the scripts, and one sheet per
 * theme with a slide of every device; rendered at full size and compared at a small scale
 * (GOLDEN_WIDTH px wide, sheets THEME_SHEET_HEIGHT high) with a perceptual tolerance. `npm run render:goldens`
 * writes test/rendering/goldens/*.png from these; review the pictures before committing them.
 */
import sharp from 'sharp';
import { THEME_IDS, type BrandColors, type ThemeId } from '../../src/core/themes.ts';
import { LAYOUTS } from '../../src/planning/look.ts';
import { DEVICE_IDS, DEVICES, type Device } from '../../src/core/devices.ts';
import { type Slide } from '../../src/core/set.ts';
import type { RenderedSlide, RenderPool } from '../../src/rendering/index.ts';
import { slide } from './support.ts';

export const GOLDEN_WIDTH = 180;
export const GOLDEN_DIR = new URL('./goldens/', import.meta.url);

export interface GoldenCase {
  name: string;
  device: Device;
  slides: Slide[];
  /** Which slide of the set is the golden (the others shape the set's font sizes). */
  index: number;
  panoramic?: boolean;
  theme?: ThemeId;
  brand?: BrandColors;
  /** The screen of every slide, width × height; default: the family's real display, portrait. */
  screen?: [number, number];
  /** A listing picture that is already a marketing composition, instead of an app screen. */
  marketing?: boolean;
  /** The app's icon, for the slides without a screen. */
  icon?: boolean;
  /** The app's icon as the brand kit's badge. */
  badge?: boolean;
}

const HEADLINES = [
  'Track Every Habit in One Tap',
  'Smart Reminders That Adapt to You',
  'Beautiful Charts & Streaks',
  'Your Progress, at a Glance',
];
const SUB = 'Plan your week and see how far you have come';

function setFor(colors: string[], textColor: string): Slide[] {
  return LAYOUTS.map((layout, i) =>
    slide(i, HEADLINES[i], layout, { subheadline: i === 1 ? SUB : null, background: { colors }, textColor }),
  );
}

/** Half the real display of each family (portrait): what an uploaded screen of today's devices is shaped like. */
export const REAL_SCREENS: Record<string, [number, number]> = {
  iphone: [660, 1434],
  'iphone-63': [603, 1311],
  'iphone-notch': [621, 1344],
  ipad: [1032, 1376],
  'android-phone': [540, 1200],
  'android-tablet': [800, 1280],
  // A Mac window's content at half of 2880×1800.
  mac: [1440, 900],
};

const FAMILIES: [string, Device, string[], string][] = [
  ['iphone', 'iphone-69', ['#4F46E5', '#7C3AED'], '#FFFFFF'],
  ['iphone-notch', 'iphone-65', ['#0F766E', '#155E75'], '#FFFFFF'],
  ['iphone-63', 'iphone-63', ['#BE123C', '#9F1239'], '#FFFFFF'],
  ['ipad', 'ipad-13', ['#FDE68A', '#FCA5A5'], '#111827'],
  ['android-phone', 'android-phone', ['#1E3A8A', '#0F172A'], '#FFFFFF'],
  ['android-tablet', 'android-tablet', ['#DCFCE7', '#A7F3D0'], '#111827'],
  ['mac', 'mac', ['#312E81', '#6D28D9'], '#FFFFFF'],
];

const one = (name: string, device: Device, s: Slide, extra: Partial<GoldenCase> = {}): GoldenCase => ({
  name,
  device,
  slides: [s],
  index: 0,
  ...extra,
});

export const GOLDEN_CASES: GoldenCase[] = [
  ...FAMILIES.flatMap(([family, device, colors, text]) => {
    const slides = setFor(colors, text);
    // The notch and 6.3" frames differ from the 6.9" one only in the cut-out and radius: one layout each.
    const layouts = family === 'iphone-notch' || family === 'iphone-63' ? [1] : LAYOUTS.map((_, i) => i);
    return layouts.map((index) => ({ name: `${family}-${LAYOUTS[index]}`, device, slides, index, screen: REAL_SCREENS[family] }));
  }),
  one('iphone-landscape', 'iphone-69', slide(0, 'Play It Wide', 'headline-top', { subheadline: SUB }), { screen: [1434, 660] }),
  one('android-phone-landscape', 'android-phone', slide(0, 'Play It Wide', 'hero-centered'), { screen: [1200, 540] }),
  one('ipad-landscape', 'ipad-13', slide(0, 'Your Desk, Anywhere', 'headline-bottom'), { screen: [1376, 1032] }),
  one('android-phone-landscape-full-bleed', 'android-phone', slide(0, 'Play It Wide', 'headline-top'), {
    screen: [1200, 540],
    theme: 'full-bleed',
  }),
  one(
    'iphone-rating',
    'iphone-69',
    slide(0, 'Rated 4.8★ by 10,000+ Users', 'headline-top', { subheadline: '★★★★★ ✓ No ads → Just habits' }),
    {
      screen: REAL_SCREENS.iphone,
    },
  ),
  one('android-phone-marketing-listing', 'android-phone', slide(0, 'Already a Marketing Picture', 'headline-top'), {
    screen: [540, 960],
    marketing: true,
  }),
  one(
    'iphone-korean-japanese',
    'iphone-69',
    slide(0, '영수증만 찍으면 가계부 끝', 'headline-top', { subheadline: '「今日の予定」を、すぐに確認。毎日の習慣が続く。' }),
    {
      screen: REAL_SCREENS.iphone,
    },
  ),
  one('iphone-badge', 'iphone-69', slide(0, 'Track Every Habit in One Tap', 'headline-top', { subheadline: SUB }), {
    screen: REAL_SCREENS.iphone,
    badge: true,
  }),
  one('android-tablet-badge-bottom', 'android-tablet', slide(0, 'Your Week at a Glance', 'headline-bottom'), {
    screen: REAL_SCREENS['android-tablet'],
    badge: true,
  }),
  one('android-phone-text-slide-icon', 'android-phone', slide(0, 'Loved by 2 Million Habit Builders', 'text-only', { subheadline: SUB }), {
    icon: true,
  }),
  {
    name: 'iphone-mixed-scripts-rtl',
    device: 'iphone-67',
    slides: [
      slide(0, 'مرحبا بالعالم — שלום 👋 Hello', 'headline-top', {
        subheadline: 'Привет · Γειά · नमस्ते · สวัสดี · 日本語 · 한국어 · 简体 · 繁體',
      }),
    ],
    index: 0,
  },
];

/** The sheet of one theme: a slide of each device, side by side (one golden per theme, not forty). */
export const THEME_BRAND: BrandColors = { primary: '#0E9F6E', secondary: '#1E429F' };
export const THEME_SHEET_HEIGHT = 180;

// One list per theme: setRenderer knows a set by its slides array, so the tests that look at a
// theme's slides (its sheet, its corner marks) share one full-size render of each instead of two.
const themeCaseLists = new Map<ThemeId, GoldenCase[]>();

export function themeCases(theme: ThemeId): GoldenCase[] {
  let cases = themeCaseLists.get(theme);
  if (!cases) themeCaseLists.set(theme, (cases = makeThemeCases(theme)));
  return cases;
}

function makeThemeCases(theme: ThemeId): GoldenCase[] {
  return DEVICE_IDS.filter((d) => d !== 'ipad-pro').map((device) => {
    const family = DEVICES[device].family;
    const slides = [
      slide(0, 'Track Every Habit in One Tap', 'headline-top', { subheadline: SUB }),
      slide(1, 'Beautiful Charts & Streaks', 'hero-centered'),
    ];
    return { name: `theme-${theme}-${device}`, device, slides, index: 0, theme, brand: THEME_BRAND, screen: REAL_SCREENS[family] };
  });
}

/** Marks near the four corners of a screen (inside the display's rounded corners), distinct from any theme colour. */
export const CORNER_MARKS = ['#FF00FF', '#00FFFF', '#FFFF00', '#00FF00'] as const;

/** A screen of the given size whose four corners carry CORNER_MARKS (top-left, top-right, bottom-left, bottom-right). */
export async function markedScreen(width: number, height: number, colour = '#3B82F6'): Promise<Buffer> {
  const short = Math.min(width, height);
  const inset = Math.round(short * 0.06);
  const size = Math.round(short * 0.05);
  const [tl, tr, bl, br] = CORNER_MARKS;
  const mark = (x: number, y: number, fill: string) => `<rect x="${x}" y="${y}" width="${size}" height="${size}" fill="${fill}"/>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="${colour}"/>
    <rect x="12%" y="12%" width="76%" height="14%" rx="12" fill="#FFFFFF"/>
    <rect x="12%" y="30%" width="76%" height="50%" rx="12" fill="#DBEAFE"/>
    ${mark(inset, inset, tl)}${mark(width - inset - size, inset, tr)}
    ${mark(inset, height - inset - size, bl)}${mark(width - inset - size, height - inset - size, br)}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** A store listing picture that is already a composition: caption, then a black-bezelled phone on a gradient. */
export async function marketingPicture(width: number, height: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#F59E0B"/><stop offset="1" stop-color="#EF4444"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>
    <rect x="20%" y="5%" width="60%" height="5%" rx="8" fill="#FFFFFF"/>
    <rect x="15%" y="18%" width="70%" height="90%" rx="40" fill="#111111"/>
    <rect x="18%" y="20%" width="64%" height="86%" rx="30" fill="#E0F2FE"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** An app icon: a check mark on a two-colour square, 512 px. */
export function appIcon(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#22C55E"/><stop offset="1" stop-color="#0EA5E9"/></linearGradient></defs>
    <rect width="512" height="512" fill="url(#g)"/>
    <path d="M130 270 L220 355 L390 170" stroke="#FFFFFF" stroke-width="56" fill="none" stroke-linecap="round" stroke-linejoin="round"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/**
 * Every slide of a case that is drawn gets a screen (text-only slides ignore theirs); the others
 * none, as renderSome needs screens at the drawn indices only (the set's fit reads no screen).
 * `made` keeps the screens already made: the five themes' sets show their family's screen, and
 * making a screen again (an SVG drawn and a PNG encoded) took ~0.3 of goldens' CPU seconds.
 */
export async function screensFor(c: GoldenCase, indices: number[], made = new Map<string, Promise<Buffer>>()): Promise<(Buffer | null)[]> {
  const colours = ['#3B82F6', '#F97316', '#10B981', '#EC4899'];
  const [w, h] = c.screen ?? [660, 1434];
  const once = (key: string, make: () => Promise<Buffer>) => {
    let p = made.get(key);
    if (!p) made.set(key, (p = make()));
    return p;
  };
  return Promise.all(
    c.slides.map((_, i) => {
      if (!indices.includes(i)) return null;
      const colour = colours[i % colours.length];
      return c.marketing
        ? once(`marketing ${w}x${h}`, () => marketingPicture(w, h))
        : once(`${w}x${h} ${colour}`, () => markedScreen(w, h, colour));
    }),
  );
}

/**
 * The slides of a set that some case looks at. The others only shape the set's font sizes, and
 * `renderSome` sizes the slides it draws as in the whole set: a theme's cases look at one slide of
 * two, the notch and 6.3" families at one of four, and drawing the rest at full size was a third of
 * this file's renders.
 */
function looked(slides: Slide[]): number[] {
  const cases = [...GOLDEN_CASES, ...THEME_IDS.flatMap((t) => themeCases(t))].filter((c) => c.slides === slides);
  return [...new Set(cases.map((c) => c.index))].sort((a, b) => a - b);
}

/**
 * Renders each distinct set once (the cases of one family share their set and its font sizes):
 * the slides some case looks at, at their index; the array has no entry at the others.
 */
export function setRenderer(
  render: (c: GoldenCase, indices: number[]) => Promise<RenderedSlide[]>,
): (c: GoldenCase) => Promise<RenderedSlide[]> {
  const done = new Map<Slide[], Promise<RenderedSlide[]>>();
  return (c) => {
    let p = done.get(c.slides);
    if (!p) {
      const indices = looked(c.slides);
      // A case built outside the lists (none today) gets its own slide drawn.
      if (!indices.includes(c.index)) indices.push(c.index);
      done.set(c.slides, (p = render(c, indices)));
    }
    return p;
  };
}

export const renderCase = (pool: RenderPool) => {
  const made = new Map<string, Promise<Buffer>>();
  return setRenderer(async (c, indices) => {
    const some = await pool.renderSome(
      {
        device: c.device,
        slides: c.slides,
        screens: await screensFor(c, indices, made),
        panoramic: c.panoramic,
        theme: c.theme,
        brand: c.brand,
        icon: c.icon ? await appIcon() : null,
        badge: c.badge ? await appIcon() : null,
      },
      indices,
    );
    const slides: RenderedSlide[] = [];
    for (const [i, s] of some) slides[i] = s;
    return slides;
  });
};

/** A theme's sheet: its cases' slides, each `height` high (the golden's: THEME_SHEET_HEIGHT), side by side, as raw RGBA. */
export async function themeSheet(slides: Buffer[], height = THEME_SHEET_HEIGHT): Promise<{ data: Buffer; width: number; height: number }> {
  const tiles = await Promise.all(
    slides.map((b) => sharp(b).resize({ height, kernel: 'lanczos3' }).png().toBuffer({ resolveWithObject: true })),
  );
  const width = tiles.reduce((w, t) => w + t.info.width + 4, 0);
  let left = 0;
  const { data, info } = await sharp({ create: { width, height, channels: 4, background: '#FFFFFF' } })
    .composite(
      tiles.map((t) => {
        const at = { input: t.data, left, top: 0 };
        left += t.info.width + 4;
        return at;
      }),
    )
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** A rendered slide brought down to the golden scale, as raw RGBA. */
export async function small(png: Buffer): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(png)
    .resize({ width: GOLDEN_WIDTH, kernel: 'lanczos3' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}
