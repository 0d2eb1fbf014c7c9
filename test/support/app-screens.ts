/**
 * App screens drawn like a real app's (status bar, a title, rows of text, a tab bar) with the
 * renderer's own fonts, for OCR tests and the bench: a screen whose words we know.
 */
import { createCanvas } from '@napi-rs/canvas';
import { fontString, registerFontsFor } from '../../src/rendering/fonts.ts';

export interface AppScreen {
  title: string;
  rows: string[];
  tabs?: string[];
  width?: number;
  height?: number;
}

/**
 * Each screen drawn once per process: tests upload the same pictures again (screen-matching's two
 * tests the same five, listing-screen-matching and screen-text the same Budgets screen), and skia
 * drawing and encoding one full-size took ~110 ms. The bytes are only read (uploaded, served, read
 * by OCR), never changed.
 */
const drawn = new Map<string, Buffer>();

/** A PNG of an iPhone-sized (1290×2796 unless told) app screen. */
export function appScreenPng(screen: AppScreen): Buffer {
  const key = JSON.stringify([screen.title, screen.rows, screen.tabs, screen.width, screen.height]);
  let png = drawn.get(key);
  if (!png) drawn.set(key, (png = draw(screen)));
  return png;
}

function draw(screen: AppScreen): Buffer {
  const width = screen.width ?? 1290;
  const height = screen.height ?? 2796;
  const unit = width / 430;
  const tabs = screen.tabs ?? ['Home', 'Search', 'Settings'];
  registerFontsFor([screen.title, ...screen.rows, ...tabs]);
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#f2f2f7';
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = '#111111';
  ctx.font = fontString(700, 15 * unit, '9:41');
  ctx.fillText('9:41', 24 * unit, 36 * unit);
  ctx.font = fontString(700, 34 * unit, screen.title);
  ctx.fillText(screen.title, 20 * unit, 110 * unit);
  let y = 140 * unit;
  for (const row of screen.rows) {
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(16 * unit, y, width - 32 * unit, 56 * unit);
    ctx.fillStyle = '#007aff';
    ctx.fillRect(28 * unit, y + 14 * unit, 28 * unit, 28 * unit);
    ctx.fillStyle = '#111111';
    ctx.font = fontString(400, 17 * unit, row);
    ctx.fillText(row, 68 * unit, y + 35 * unit);
    y += 68 * unit;
  }
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, height - 84 * unit, width, 84 * unit);
  ctx.fillStyle = '#8e8e93';
  for (const [i, tab] of tabs.entries()) {
    ctx.font = fontString(400, 11 * unit, tab);
    const x = ((i + 0.5) * width) / tabs.length - ctx.measureText(tab).width / 2;
    ctx.fillText(tab, x, height - 40 * unit);
  }
  return canvas.toBuffer('image/png');
}
