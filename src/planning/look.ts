/** Colours and layouts: a deterministic gradient per app and a text colour that passes WCAG AA on it. */
import { hash } from './text.ts';

export const LAYOUTS = ['hero-centered', 'headline-top', 'headline-bottom', 'text-only'] as const;
export type Layout = (typeof LAYOUTS)[number];

/** WCAG 2.x AA for normal-size text. */
export const MIN_CONTRAST = 4.5;

// Hues people already associate with a store category, so the set looks at home in its shelf.
const CATEGORY_HUES: [RegExp, number][] = [
  [/game|arcade|puzzle|casual|action|strategy|trivia|jeux/i, 265],
  [/health|fitness|medical|santé|sport/i, 150],
  [/financ|business|bank|financ/i, 212],
  [/productiv|utilit|developer|tools|outils|utilitaires/i, 228],
  [/educat|book|reference|learn|kids|family/i, 28],
  [/social|communication|dating|messag/i, 200],
  [/photo|video|design|art/i, 330],
  [/music|audio|entertain|podcast/i, 290],
  [/travel|navigation|maps|auto|weather/i, 188],
  [/food|drink|cooking/i, 14],
  [/shop|lifestyle|house|home|beauty/i, 345],
  [/news|magazine/i, 205],
];

function hslToHex(h: number, s: number, l: number): string {
  const sat = s / 100;
  const lig = l / 100;
  const k = (n: number) => (n + h / 30) % 12;
  const a = sat * Math.min(lig, 1 - lig);
  const f = (n: number) => lig - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1));
  return `#${[f(0), f(8), f(4)]
    .map((x) =>
      Math.round(x * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`.toUpperCase();
}

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5]
    .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

export interface Palette {
  colors: string[];
  textColor: string;
}

const LIGHT_TEXT = '#FFFFFF';
const DARK_TEXT = '#111827';

export function paletteFor(category: string, name: string): Palette {
  const h = hash(`${category}|${name}`);
  const base = CATEGORY_HUES.find(([re]) => re.test(category))?.[1] ?? 220;
  const hue = (base + (h % 31) - 15 + 360) % 360;
  const light = h % 3 === 0;
  // Start from the look we want, then step the lightness until the text passes AA on both stops.
  for (let step = 0; step < 40; step++) {
    const l = light ? Math.min(96, 86 + step) : Math.max(8, 44 - step * 2);
    const colors = [
      hslToHex(hue, light ? 75 : 70, l),
      hslToHex((hue + 35) % 360, light ? 70 : 65, light ? Math.max(l - 6, 70) : Math.max(l - 8, 6)),
    ];
    const textColor = light ? DARK_TEXT : LIGHT_TEXT;
    if (colors.every((c) => contrastRatio(c, textColor) >= MIN_CONTRAST)) return { colors, textColor };
  }
  return { colors: ['#1F2937', '#111827'], textColor: LIGHT_TEXT };
}

export function layoutFor(role: string, index: number, hasScreenshot: boolean): Layout {
  if (!hasScreenshot) return 'text-only';
  if (role === 'hero') return 'hero-centered';
  return index % 2 === 0 ? 'headline-top' : 'headline-bottom';
}
