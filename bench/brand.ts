/**
 * `npx tsx bench/brand.ts`: what the brand adds to a set, on the worker's main thread: the icon's
 * colours (once per app), Play's feature graphic and the store preview (every set), each as the
 * median and p95 of BENCH_BRAND_RUNS runs (default 30) after a warm-up, and the longest time the
 * event loop was held (the worker heartbeats its leases on that loop).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import sharp from 'sharp';
import { paletteFromIcon } from '../src/brand/icon-colors.ts';
import { renderFeatureGraphic } from '../src/rendering/feature-graphic.ts';
import { renderStorePreview } from '../src/rendering/store-preview.ts';

const RUNS = Number(process.env.BENCH_BRAND_RUNS ?? 30);

const icon = await sharp(
  Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="1024" height="1024">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1DB954"/><stop offset="1" stop-color="#0E7C86"/></linearGradient></defs>
    <rect width="1024" height="1024" fill="url(#g)"/><circle cx="512" cy="512" r="300" fill="#fff"/></svg>`),
)
  .png()
  .toBuffer();
// Slides as the renderer makes them: 1320×2868 RGB PNGs with detail (noise compresses badly, like screens).
const slide = await sharp({
  create: { width: 1320, height: 2868, channels: 3, background: '#335', noise: { type: 'gaussian', mean: 128, sigma: 30 } },
})
  .png({ compressionLevel: 3 })
  .toBuffer();
const slides = [slide, slide, slide];
const palette = await paletteFromIcon(icon);

async function measure(name: string, fn: () => Promise<unknown>) {
  for (let i = 0; i < 3; i++) await fn();
  const loop = monitorEventLoopDelay({ resolution: 2 });
  loop.enable();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  loop.disable();
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(1);
  console.log(`| ${name} | ${at(0.5)} | ${at(0.95)} | ${(loop.max / 1e6).toFixed(0)} |`);
}

console.log('| step | median ms | p95 ms | longest event-loop block ms |');
console.log('|---|---|---|---|');
await measure('colours from a 1024 px icon', () => paletteFromIcon(icon));
await measure('feature graphic 1024×500', () =>
  renderFeatureGraphic({ name: 'Pantry Planner', headline: 'Plan Every Meal in Seconds', palette, icon }),
);
await measure('store preview (App Store, 3 slides)', () =>
  renderStorePreview({ store: 'app-store', name: 'Pantry Planner', subtitle: 'Meal plans and shopping lists', palette, icon, slides }),
);
