/**
 * The render pool's resident memory over many sets: 2 threads drawing 10-slide iphone-69 sets (a
 * leaning hero, nine slides sharing one screen), the theme and the screen changing from set to
 * set (five themes, three screens), so that every per-thread cache (plates, slide canvas, screen
 * sprite, decoded screen, PNG scratch) is filled, evicted and filled again. Prints the process's
 * RSS after the first sets and every fifth: a bounded cache levels off, growth keeps climbing.
 *
 *   npx tsx bench/pool-soak.ts [SETS=80]
 */
import { readFileSync } from 'node:fs';
import { THEME_IDS } from '../src/core/themes.ts';
import { RenderPool } from '../src/rendering/index.ts';
import { fakeScreen, HEADLINES, slide } from './slide-fixture.ts';

const SETS = Number(process.argv[2] ?? 80);
const rssMb = () => Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024);
const pool = new RenderPool({ threads: 2 });
const screens = (await Promise.all([0, 1, 2].map((v) => fakeScreen(v)))).map((s) => {
  const b = Buffer.from(new SharedArrayBuffer(s.length));
  b.set(s);
  return b;
});
const samples: string[] = [];
for (let n = 1; n <= SETS; n++) {
  const slides = HEADLINES.concat(HEADLINES).map((h, i) => ({
    ...slide(i, h),
    ...(i === 0 ? { role: 'hero' as const, layout: 'hero-centered' } : {}),
  }));
  const screen = screens[n % screens.length];
  await pool.renderSlides({
    device: 'iphone-69',
    slides,
    screens: slides.map(() => screen),
    theme: THEME_IDS[n % THEME_IDS.length],
    brand: { primary: '#0E9F6E', secondary: '#1E429F' },
  });
  if (n <= 3 || n % 5 === 0) samples.push(`${n}: ${rssMb()} MB`);
}
await pool.close();
console.log(`RSS after set ${samples.join(', ')}`);
